import { isIP } from "node:net";
import { checkAddress } from "../net/address-guard.js";

/**
 * Whether a host the user named is this machine or a private network: naming one is asking for
 * it, so the SSRF guard (which is for hosts a crawl comes upon) lets the command reach it.
 */
export function isPrivateHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  return isIP(bare) !== 0 && !checkAddress(bare).allowed;
}
