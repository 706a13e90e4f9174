/**
 * Requests sent through an HTTP proxy (`--proxy URL`, `--proxy-for HOST=URL`;
 * docs/network-guard.md#proxies). A proxy is the user's choice, so the connection to it is not
 * guarded: a proxy on 127.0.0.1 is allowed. The target is: through a proxy heed no longer opens
 * the connection to it, so before a request is handed to the proxy its host is checked as a
 * direct connection would be (an IP literal against address-guard.ts's ranges; a name by the
 * guarded lookup, which refuses it when every address it has is refused), unless the user named
 * that host or allowed private addresses. A proxy cannot become a way to 127.0.0.1 or
 * 169.254.169.254 that a direct request would not take.
 *
 * What is left to the proxy: it resolves the name again, so a name whose answer changes
 * between the two lookups (DNS rebinding) reaches what the proxy's lookup says. http:// targets
 * are forwarded (absolute-form requests, RFC 9112 §3.2.2); https:// targets go through a
 * CONNECT tunnel (RFC 9110 §9.3.6), TLS end to end.
 */
import { isIP } from "node:net";
import { type Agent, type Dispatcher, ProxyAgent } from "undici";
import { BlockedAddressError, checkAddress, guardedLookup } from "./address-guard.js";
import { DIRECT, type ProxyOptions } from "./proxy-url.js";

export interface ProxyRouteOptions extends ProxyOptions {
  /** Every target may be private: no target is checked. */
  readonly allowPrivateAddresses: boolean;
  /** Hosts the user named: they may be private. */
  readonly privateHosts: ReadonlySet<string>;
  readonly connections: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly localAddress?: string;
}

/**
 * The dispatcher `direct` with proxies in front: each request goes to its host's proxy, the
 * global one, or straight out through `direct`. `close` closes them all.
 */
export function proxyRoute(
  direct: Agent,
  options: ProxyRouteOptions,
): { readonly dispatcher: Dispatcher; close(): Promise<void> } {
  const byHost = new Map(
    Object.entries(options.proxyFor ?? {}).map(([host, url]) => [host.toLowerCase(), url]),
  );
  if (options.proxy === undefined && byHost.size === 0)
    return { dispatcher: direct, close: () => direct.close() };
  const agents = new Map<string, Dispatcher>();
  const agentFor = (uri: string): Dispatcher => {
    let agent = agents.get(uri);
    if (agent === undefined) {
      agent = new ProxyAgent({
        uri,
        // Plain http:// targets are forwarded; undici tunnels https:// ones whatever this says.
        proxyTunnel: false,
        connections: options.connections,
        headersTimeout: options.headersTimeoutMs,
        bodyTimeout: options.bodyTimeoutMs,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      });
      agents.set(uri, agent);
    }
    return agent;
  };
  const dispatcher = direct.compose((dispatch) => (opts, handler) => {
    const target = new URL(String(opts.origin));
    const host = target.hostname.toLowerCase();
    const uri = byHost.get(host) ?? options.proxy ?? DIRECT;
    if (uri === DIRECT) return dispatch(opts, handler);
    // The target is checked first; any failure, the proxy's own included, ends this request.
    checkTarget(host, options)
      .then(() => agentFor(uri).dispatch(opts, handler))
      .catch((error: unknown) => handler.onError?.(error as Error));
    return true;
  });
  return {
    dispatcher,
    close: async () => {
      await Promise.all([direct.close(), ...[...agents.values()].map((a) => a.close())]);
    },
  };
}

/** Refuses a target host a direct connection would refuse (see the file's comment). */
async function checkTarget(host: string, options: ProxyRouteOptions): Promise<void> {
  if (options.allowPrivateAddresses || options.privateHosts.has(host)) return;
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  if (isIP(bare) !== 0) {
    const verdict = checkAddress(bare);
    if (!verdict.allowed) throw new BlockedAddressError(bare, bare, verdict.range);
    return;
  }
  await new Promise<void>((resolve, reject) =>
    guardedLookup(bare, { all: true }, (error) => (error ? reject(error) : resolve())),
  );
}
