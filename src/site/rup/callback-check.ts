/**
 * A webhook registration (a RobotEmail that is an http(s) URL, README "Extras") is checked when
 * it is made, not only when the first report is posted: a site that does not post to private
 * addresses says so to the robot registering, which can then give another URL.
 */
import { isIP } from "node:net";
import { checkAddress } from "../../net/address-guard.js";

/** Why the site refuses to post reports to `url`, or null when it accepts it. */
export function callbackProblem(url: string, allowPrivate: boolean): string | null {
  const parsed = new URL(url);
  if (parsed.username !== "" || parsed.password !== "")
    return `${url}: a callback URL carries no user name or password`;
  if (allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost"))
    return `${url} names this machine; this site posts reports to public addresses only`;
  if (isIP(host) !== 0) {
    const verdict = checkAddress(host);
    if (!verdict.allowed)
      return `${url} is a ${verdict.range} address; this site posts reports to public addresses only`;
  }
  return null;
}
