/**
 * One `Mobile-agent-server: <path> <simplified_url | none>` line, read per the formal syntax
 * of seeds/000 §3.2. Content never throws: a line gives a record (or none) plus diagnostics.
 */
import type { Diagnostic } from "../diagnostic.js";
import type { RobotsLine } from "../line-reader.js";
import { canonicalize } from "../percent-encoding.js";

/** The key as seeds/000 §3.1 writes it, lower-cased (RFC 822 literals are case-insensitive). */
export const MOBILE_AGENT_SERVER_KEY = "mobile-agent-server";

/** ATP/0.1 §4.2.1: port 434 when an `atp://` URL names none (RFC 1700). */
export const ATP_DEFAULT_PORT = 434;

/** Where a path's agents go: a host, or nobody (`none`). */
export type AgentTarget =
  { readonly kind: "host"; readonly url: SimplifiedUrl } | { readonly kind: "none" };

/** seeds/000 §3.2 `simplified_url = scheme "://" net_loc`: a protocol, a host and a port. */
export interface SimplifiedUrl {
  /** Lower-cased. */
  readonly scheme: string;
  /** Lower-cased; IPv6 addresses keep their brackets. */
  readonly host: string;
  /** The port written, or for `atp` without one {@link ATP_DEFAULT_PORT}; null otherwise. */
  readonly port: number | null;
  /** `scheme://host[:port]` as heed writes it back (the port only when one was written). */
  readonly text: string;
}

export interface MobileAgentRecord {
  /** 1-based line number. */
  readonly line: number;
  /** The path as written. */
  readonly path: string;
  /** The path in the canonical form URL paths are compared in (percent-encoding.ts). */
  readonly canonicalPath: string;
  readonly target: AgentTarget;
  /** The line as the file has it, comment removed. */
  readonly text: string;
}

export interface RecordReading {
  /** Null when the line cannot be used; a diagnostic says why. */
  readonly record: MobileAgentRecord | null;
  readonly diagnostics: readonly Diagnostic[];
}

// RFC 1808 pchar, as seeds/000 §3.2 reproduces it: unreserved | escape | ":" | "@" | "&" | "=".
const PCHAR = /^(?:[A-Za-z0-9$\-_.+!*'(),:@&=]|%[0-9A-Fa-f]{2})$/;
const PATH_TOKEN = /[A-Za-z0-9$\-_.+!*'(),:@&=]|%[0-9A-Fa-f]{2}|\/|[^]/g;
// scheme = 1*( alpha | digit | "+" | "-" | "." )
const SCHEME = /^[A-Za-z0-9+\-.]+$/;
// net_loc = *( pchar | ";" | "?" )
// IPv6 literals (RFC 3986, later than the draft) are accepted in brackets as well.
const NET_LOC = /^(?:[A-Za-z0-9$\-_.+!*'(),:@&=;?[\]]|%[0-9A-Fa-f]{2})*$/;
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[^:@;?[\]]+)(?::(\d*))?$/;
const MAX_PORT = 65535;

/** True for the line's key, spelt as seeds/000 writes it in any case. */
export function isMobileAgentKey(key: string): boolean {
  return key.toLowerCase() === MOBILE_AGENT_SERVER_KEY;
}

/**
 * Spellings read as Mobile-agent-server all the same (the safe reading: the site meant it),
 * each named by `heed lint`: other separators, none, a plural.
 */
export function isMisspeltMobileAgentKey(key: string): boolean {
  const squeezed = key.toLowerCase().replace(/[\s_-]+/g, "");
  return (
    !isMobileAgentKey(key) &&
    (squeezed === "mobileagentserver" || squeezed === "mobileagentservers")
  );
}

/** Reads the value of a Mobile-agent-server line. */
export function readMobileAgentLine(line: RobotsLine): RecordReading {
  const diagnostics: Diagnostic[] = [];
  const add = (severity: Diagnostic["severity"], code: string, message: string): void => {
    diagnostics.push({ line: line.number, severity, code, message });
  };
  const words = line.value.split(/[ \t]+/).filter((w) => w !== "");
  if (words.length < 2) {
    add(
      "error",
      "agent-server-incomplete",
      words.length === 0
        ? "Mobile-agent-server needs a path and a URL (or none); the line is ignored"
        : `Mobile-agent-server needs a URL (or none) after the path "${clip(words[0] ?? "")}"; the line is ignored`,
    );
    return { record: null, diagnostics };
  }
  if (words.length > 2) {
    add(
      "error",
      "agent-server-extra",
      `Mobile-agent-server takes a path and one URL; "${clip(words.slice(2).join(" "))}" is left over and the line is ignored`,
    );
    return { record: null, diagnostics };
  }
  const [path = "", url = ""] = words;
  if (!checkPath(path, add)) return { record: null, diagnostics };
  const target = readTarget(url, add);
  if (target === null) return { record: null, diagnostics };
  return {
    record: { line: line.number, path, canonicalPath: canonicalize(path), target, text: line.text },
    diagnostics,
  };
}

type Add = (severity: Diagnostic["severity"], code: string, message: string) => void;

/**
 * seeds/000 §3.2 borrows RFC 1808's relative `path` (no leading "/"), yet every example
 * writes an absolute one (`/`, `/home/user1/`), as robots.txt paths are. heed reads the
 * examples: a path must start with "/" (else the line is ignored); characters outside pchar
 * (`~`, a bare `%`) are warned about and kept, since a robot resolving a URL can still
 * compare them.
 */
function checkPath(path: string, add: Add): boolean {
  if (!path.startsWith("/")) {
    add(
      "error",
      "agent-server-bad-path",
      /^[a-z][a-z0-9+.-]*:\/\//i.test(path)
        ? `Mobile-agent-server path "${clip(path)}" is a URL; the path comes first, then the URL. The line is ignored`
        : `Mobile-agent-server path "${clip(path)}" does not start with "/"; the line is ignored`,
    );
    return false;
  }
  const outside = new Set<string>();
  for (const token of path.match(PATH_TOKEN) ?? []) {
    if (token !== "/" && !PCHAR.test(token)) outside.add(token);
  }
  if (outside.size > 0) {
    add(
      "warning",
      "agent-server-path-chars",
      `Mobile-agent-server path "${clip(path)}" has ${[...outside].map((c) => `"${c}"`).join(", ")}, outside the formal syntax (docs/mobile-agents.md#the-record); heed compares it as written, other robots may not`,
    );
  }
  return true;
}

function readTarget(url: string, add: Add): AgentTarget | null {
  if (url.toLowerCase() === "none") return { kind: "none" };
  const parsed = readSimplifiedUrl(url);
  if (!parsed.ok) {
    add("error", "agent-server-bad-url", `${parsed.error}; the line is ignored`);
    return null;
  }
  if (parsed.trailingSlash) {
    add(
      "warning",
      "agent-server-url-path",
      `Mobile-agent-server URL "${clip(url)}" ends with "/"; a simplified URL names only a protocol, host and port (docs/mobile-agents.md#the-record), read as ${parsed.url.text}`,
    );
  }
  return { kind: "host", url: parsed.url };
}

export type SimplifiedUrlReading =
  | { readonly ok: true; readonly url: SimplifiedUrl; readonly trailingSlash: boolean }
  | { readonly ok: false; readonly error: string };

/** Reads `scheme://host[:port]` per seeds/000 §3.2 (one trailing "/" tolerated and reported). */
export function readSimplifiedUrl(text: string): SimplifiedUrlReading {
  const sep = text.indexOf("://");
  if (sep <= 0) {
    return { ok: false, error: `"${clip(text)}" is neither a URL (scheme://host:port) nor none` };
  }
  const scheme = text.slice(0, sep);
  if (!SCHEME.test(scheme)) {
    return { ok: false, error: `"${clip(scheme)}" is not a URL scheme (letters, digits, +, -, .)` };
  }
  let netLoc = text.slice(sep + 3);
  const trailingSlash = netLoc.endsWith("/") && netLoc.indexOf("/") === netLoc.length - 1;
  if (trailingSlash) netLoc = netLoc.slice(0, -1);
  if (netLoc.includes("/")) {
    return {
      ok: false,
      error: `"${clip(text)}" has a path; a simplified URL names only a protocol, host and port (docs/mobile-agents.md#the-record)`,
    };
  }
  if (netLoc === "" || !NET_LOC.test(netLoc)) {
    return { ok: false, error: `"${clip(text)}" has no valid network location (host[:port])` };
  }
  const match = HOST_PORT.exec(netLoc);
  if (match === null) {
    return {
      ok: false,
      error: `"${clip(text)}": cannot read a host and port from "${clip(netLoc)}"`,
    };
  }
  const host = (match[1] ?? "").toLowerCase();
  const portText = match[2];
  let port: number | null = null;
  if (portText !== undefined && portText !== "") {
    port = Number(portText);
    if (!Number.isSafeInteger(port) || port < 1 || port > MAX_PORT) {
      return {
        ok: false,
        error: `"${clip(text)}": port ${clip(portText)} is not in 1-${MAX_PORT}`,
      };
    }
  }
  const lowerScheme = scheme.toLowerCase();
  const written = port === null ? `${lowerScheme}://${host}` : `${lowerScheme}://${host}:${port}`;
  if (port === null && lowerScheme === "atp") port = ATP_DEFAULT_PORT;
  return { ok: true, url: { scheme: lowerScheme, host, port, text: written }, trailingSlash };
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
