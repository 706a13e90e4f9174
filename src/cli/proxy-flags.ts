/**
 * `--proxy URL` and `--proxy-for HOST=URL` (repeatable): an HTTP proxy for every request of a
 * command, or for one host's (`direct`: that host without one). The targets stay under the
 * address guard as direct requests are (docs/network-guard.md#proxies).
 */
import { DIRECT, type ProxyOptions, proxyProblem } from "../net/proxy-url.js";
import { CliError } from "./errors.js";

export const PROXY_FLAG_HELP =
  "send every request through this HTTP proxy (http://host:port); targets stay under the address guard (docs/network-guard.md#proxies)";
export const PROXY_FOR_FLAG_HELP =
  "HOST=URL: send the requests to HOST through its own proxy, or HOST=direct for none (repeatable)";

/** Hosts --proxy-for may name at most: a list for sites, not a routing table. */
export const MAX_PROXY_HOSTS = 1_000;

export interface ProxyFlags {
  readonly proxy?: string;
  readonly proxyFor?: readonly string[];
}

/** The flags as client options, or a CliError naming the flag and the value at fault. */
export function proxyChoice(flags: ProxyFlags): ProxyOptions {
  const out: { proxy?: string; proxyFor?: Record<string, string> } = {};
  if (flags.proxy !== undefined) {
    const problem = proxyProblem(flags.proxy);
    if (problem !== null) throw new CliError(`--proxy: ${problem}`);
    out.proxy = flags.proxy;
  }
  const pairs = flags.proxyFor ?? [];
  if (pairs.length > MAX_PROXY_HOSTS)
    throw new CliError(`--proxy-for: ${pairs.length} hosts; at most ${MAX_PROXY_HOSTS}`);
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const host = at < 0 ? "" : pair.slice(0, at).trim().toLowerCase();
    const url = at < 0 ? "" : pair.slice(at + 1).trim();
    if (host === "" || url === "" || /[/:@\s]/.test(host.replace(/^\[.*\]$/, "v6")))
      throw new CliError(
        `--proxy-for: expected HOST=URL (example.com=http://127.0.0.1:3128) or HOST=direct, got "${pair}"`,
      );
    const problem = url === DIRECT ? null : proxyProblem(url);
    if (problem !== null) throw new CliError(`--proxy-for ${host}: ${problem}`);
    (out.proxyFor ??= {})[host] = url;
  }
  return out;
}
