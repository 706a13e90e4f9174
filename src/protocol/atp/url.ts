/**
 * ATP URLs (ATP draft §4.2.1): `atp://host[:port][/name][#agent-id]`, port 434 when none is
 * given (RFC 1700). Content never throws: a bad URL is a result with an error.
 */

/** §4.2.1: "port 434 (port reserved for mobile agents) is assumed". */
export const ATP_PORT = 434;

export interface AtpUrl {
  readonly host: string;
  readonly port: number;
  /** `/name`, or "" (§4.2.1 Agent_resource's Name; a Class_path for FETCH). */
  readonly path: string;
  /** The agent identifier after `#` (§4.3), or null. */
  readonly agentId: string | null;
  /** `atp://host:port`, the agent service. */
  readonly service: string;
}

export type AtpUrlReading =
  { readonly ok: true; readonly url: AtpUrl } | { readonly ok: false; readonly error: string };

const ATP_URL =
  /^atp:\/\/(\[[0-9A-Fa-f:.]+\]|[^/:#?[\]\s]+)(?::(\d{1,5}))?(\/[^#\s]*)?(?:#([A-Za-z0-9]*))?$/i;
// §4.3: an alphanumeric string.
export const AGENT_ID = /^[A-Za-z0-9]{1,64}$/;

export function parseAtpUrl(text: string): AtpUrlReading {
  const match = ATP_URL.exec(text.trim());
  if (match === null)
    return { ok: false, error: `"${text}" is not an ATP URL (atp://host[:port][/name][#id])` };
  const port = match[2] === undefined ? ATP_PORT : Number(match[2]);
  if (port < 1 || port > 65535)
    return { ok: false, error: `"${text}": port ${port} is not in 1-65535` };
  const host = (match[1] ?? "").toLowerCase();
  const agentId = match[4] ?? null;
  if (agentId !== null && !AGENT_ID.test(agentId)) {
    return {
      ok: false,
      error: `"${text}": the agent identifier must be 1-64 letters and digits (§4.3)`,
    };
  }
  return {
    ok: true,
    url: { host, port, path: match[3] ?? "", agentId, service: `atp://${host}:${port}` },
  };
}

/** A relative resource URI (§6.2.1): `[/name]#id` for RETRACT and MESSAGE, `/name` for DISPATCH. */
export function readResourceUri(uri: string): {
  readonly name: string;
  readonly agentId: string | null;
} {
  const absolute = uri.toLowerCase().startsWith("atp://") ? parseAtpUrl(uri) : null;
  if (absolute !== null) {
    return absolute.ok
      ? { name: absolute.url.path, agentId: absolute.url.agentId }
      : { name: uri, agentId: null };
  }
  const hash = uri.indexOf("#");
  if (hash < 0) return { name: uri, agentId: null };
  return { name: uri.slice(0, hash), agentId: uri.slice(hash + 1) };
}
