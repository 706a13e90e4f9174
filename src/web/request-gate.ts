/**
 * Who may talk to `heed ui`. The server listens on this machine, so any web page the user opens
 * elsewhere could try to drive it: by DNS rebinding (a name the attacker controls resolving to
 * 127.0.0.1, so the browser calls it same-origin) or by cross-site requests (CSRF). The gate
 * answers both before any handler runs:
 * - the `Host` header must name the address the server listens on (or `localhost` for a
 *   loopback server): a rebound name arrives with the attacker's host name and is refused;
 * - an `Origin` header, when the browser sends one, must be the server's own origin;
 * - `Sec-Fetch-Site`, when sent, must be `same-origin` or `none` (typed in the address bar);
 * - endpoints that make an outgoing request need the `X-Heed-UI` header, which a page on
 *   another origin cannot add without a CORS preflight, which this server never grants;
 * - only GET and HEAD: nothing here changes anything.
 * Pure: headers in, a verdict out.
 */
import { isIP } from "node:net";

/** The header the page sends on requests that make heed fetch something. */
export const UI_HEADER = "x-heed-ui";

export interface GateRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The request needs {@link UI_HEADER} (it makes an outgoing request). */
  readonly needsUiHeader: boolean;
}

export type GateVerdict =
  { readonly ok: true } | { readonly ok: false; readonly status: number; readonly message: string };

/**
 * Which `host[:port]` values the server answers to: the address it listens on; for a loopback
 * address the other loopback spellings (`localhost`, `127.0.0.1`, `[::1]`); for an unspecified
 * address (`0.0.0.0`, `::`) any IP literal and `localhost`. Never another name: a name is what
 * DNS rebinding needs.
 */
export interface HostRule {
  readonly accepts: (hostHeader: string) => boolean;
  /** For messages. */
  readonly shown: string;
}

export function hostRule(listenHost: string, port: number): HostRule {
  const bare = listenHost.replace(/^\[|\]$/g, "").toLowerCase();
  const spelt = bare.includes(":") ? `[${bare}]` : bare;
  const names = new Set<string>([spelt]);
  if (isLoopback(bare)) for (const name of ["localhost", "127.0.0.1", "[::1]"]) names.add(name);
  const anyAddress = bare === "0.0.0.0" || bare === "::";
  if (anyAddress) names.add("localhost");
  const withPort = new Set([...names].map((n) => `${n}:${port}`));
  return {
    shown: anyAddress ? `any IP address or localhost, port ${port}` : [...withPort].join(", "),
    accepts: (hostHeader) => {
      const host = hostHeader.toLowerCase();
      if (withPort.has(host)) return true;
      if (!anyAddress || !host.endsWith(`:${port}`)) return false;
      const name = host.slice(0, -`:${port}`.length).replace(/^\[|\]$/g, "");
      return isIP(name) !== 0;
    },
  };
}

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

export function gate(request: GateRequest, hosts: HostRule): GateVerdict {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return { ok: false, status: 405, message: "only GET and HEAD: heed ui changes nothing" };
  }
  const host = single(request.headers.host)?.toLowerCase();
  if (host === undefined || !hosts.accepts(host)) {
    return {
      ok: false,
      status: 421,
      message: `this server answers to ${hosts.shown}, not ${host ?? "a request without Host"}`,
    };
  }
  const origin = single(request.headers.origin);
  if (origin !== undefined && origin !== "null") {
    let originHost: string | null;
    try {
      const url = new URL(origin);
      originHost = url.protocol === "http:" ? url.host.toLowerCase() : null;
    } catch {
      originHost = null;
    }
    if (originHost === null || originHost !== host) {
      return { ok: false, status: 403, message: `requests from ${origin} are not accepted` };
    }
  } else if (origin === "null") {
    return { ok: false, status: 403, message: "requests from an opaque origin are not accepted" };
  }
  const site = single(request.headers["sec-fetch-site"]);
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return { ok: false, status: 403, message: `${site} requests are not accepted` };
  }
  if (request.needsUiHeader && single(request.headers[UI_HEADER]) !== "1") {
    return { ok: false, status: 403, message: `this endpoint needs the ${UI_HEADER} header` };
  }
  return { ok: true };
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" ? value : value?.[0];
}
