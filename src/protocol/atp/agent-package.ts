/**
 * heed's agent platform on ATP: what its `Agent-System`, `Agent-Language` and `Content-Type`
 * say (ATP draft §8.4-8.6), and the body of a DISPATCH (code plus serialised state, JSON) and
 * of a RETRACT's answer (the agent with its results). The draft leaves both to the platform
 * (§2.3 "Interpretation of the body content is implementation specific").
 */
import { parseAtpUrl } from "./url.js";

/** §8.4: names the agent platform; a version may follow after "/" (`heed/1`). */
export const HEED_AGENT_SYSTEM = "heed";
/** §8.5: the language processor the code needs: JavaScript (ES2020, run by QuickJS). */
export const HEED_AGENT_LANGUAGE = "javascript";
/** §8.6: the media type of a heed agent. */
export const HEED_AGENT_CONTENT_TYPE = "application/x-heed-agent+json";
/** The version of the JSON layout below. */
export const AGENT_FORMAT = 1;

/** An agent's source, in UTF-16 units. heed's indexing agent is a few KiB; 256 Ki is room for far more. */
export const MAX_AGENT_CODE_LENGTH = 256 * 1024;
/** An agent's serialised state, in UTF-16 units: what it carries from host to host. */
export const MAX_AGENT_STATE_LENGTH = 1024 * 1024;
/**
 * How deep an agent's state may nest. Deeper JSON costs stack at every step that walks it
 * (stringify on the host, parse in the agent's VM); real state is a few levels deep.
 */
export const MAX_AGENT_STATE_DEPTH = 256;
/** A robot name or path field: the longest URL browsers accept is 2,083 characters. */
const MAX_FIELD_LENGTH = 4096;

export type Json =
  null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** The body of a DISPATCH. */
export interface AgentPackage {
  readonly format: typeof AGENT_FORMAT;
  /** The agent's program, a script run with a global `heed` (the capability API). */
  readonly code: string;
  /** Whatever the agent keeps between hosts; `heed.getState()` reads it. */
  readonly state: Json;
  /** The name token of the robot that sent the agent; the site's robots.txt rules for it bind the agent. */
  readonly robot: string;
  /** The site's origin (`http://www.fict.org`). */
  readonly site: string;
  /** The path the agent is sent to explore (a Mobile-agent-server path, or under one). */
  readonly path: string;
  /**
   * An ATP agent service of the sender's (`atp://host:port[/name]`): when the agent ends, the
   * host pushes its results there by MESSAGE (ATP draft §6.1.4) instead of waiting for RETRACT.
   */
  readonly replyTo?: string;
}

export type PackageReading =
  | { readonly ok: true; readonly agent: AgentPackage }
  | { readonly ok: false; readonly error: string };

/** Reads and checks a DISPATCH body. Never throws on content. */
export function readAgentPackage(body: Uint8Array | string): PackageReading {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  // The package is one level; only its state nests further. Counted before parsing, without
  // recursion, so that no reading of it can run out of stack.
  if (jsonDepth(text) > MAX_AGENT_STATE_DEPTH + 1) {
    return {
      ok: false,
      error: `state: nested more than ${MAX_AGENT_STATE_DEPTH} levels deep, over the limit`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `the agent is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: "the agent must be a JSON object" };
  }
  const v = value as Record<string, unknown>;
  if (v.format !== AGENT_FORMAT)
    return {
      ok: false,
      error: `format: expected ${AGENT_FORMAT}, got ${JSON.stringify(v.format) ?? "nothing"}`,
    };
  if (typeof v.code !== "string" || v.code === "")
    return { ok: false, error: "code: expected the agent's source text" };
  if (v.code.length > MAX_AGENT_CODE_LENGTH)
    return {
      ok: false,
      error: `code: ${v.code.length} characters, over the limit of ${MAX_AGENT_CODE_LENGTH}`,
    };
  const state = v.state === undefined ? null : v.state;
  const stateLength = JSON.stringify(state).length;
  if (stateLength > MAX_AGENT_STATE_LENGTH)
    return {
      ok: false,
      error: `state: ${stateLength} characters, over the limit of ${MAX_AGENT_STATE_LENGTH}`,
    };
  for (const field of ["robot", "site", "path"] as const) {
    const f = v[field];
    if (typeof f !== "string" || f === "" || f.length > MAX_FIELD_LENGTH) {
      return {
        ok: false,
        error: `${field}: expected a string of 1-${MAX_FIELD_LENGTH} characters`,
      };
    }
  }
  const site = readOrigin(v.site as string);
  if (site === null)
    return { ok: false, error: `site: "${String(v.site)}" is not an http(s) origin` };
  const path = v.path as string;
  if (!path.startsWith("/")) return { ok: false, error: `path: "${path}" does not start with "/"` };
  const replyTo = v.replyTo;
  if (replyTo !== undefined && replyTo !== null) {
    const reply = typeof replyTo === "string" ? parseAtpUrl(replyTo) : null;
    if (reply === null || !reply.ok || reply.url.agentId !== null) {
      return {
        ok: false,
        error: `replyTo: expected an ATP agent service (atp://host:port), got ${JSON.stringify(replyTo)}`,
      };
    }
  }
  return {
    ok: true,
    agent: {
      format: AGENT_FORMAT,
      code: v.code,
      state: state as Json,
      robot: v.robot as string,
      site,
      path,
      ...(typeof replyTo === "string" ? { replyTo } : {}),
    },
  };
}

/**
 * The deepest nesting of `[` and `{` in JSON text, strings skipped; one pass, no recursion.
 * Text that is not JSON gets a number too: the parser says what is wrong with it.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

function readOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

/** Does a header value name heed's platform? `heed`, `heed/1` (§8.4 allows a version after "/"). */
export function isHeedSystem(value: string | null): boolean {
  return value !== null && value.trim().toLowerCase().split("/")[0] === HEED_AGENT_SYSTEM;
}

/** `javascript`, `JavaScript`, `javascript/es2020`. */
export function isHeedLanguage(value: string | null): boolean {
  return value !== null && value.trim().toLowerCase().split("/")[0] === HEED_AGENT_LANGUAGE;
}

/** What a RETRACT brings back: the agent (code and state) and what it found. */
export interface AgentReport {
  readonly format: typeof AGENT_FORMAT;
  readonly id: string;
  /** `finished`: ran to its end; `failed`: stopped by an error or a limit (`error` says which). */
  readonly status: "finished" | "failed";
  readonly code: string;
  readonly state: Json;
  readonly records: readonly Json[];
  readonly error: { readonly code: string; readonly message: string } | null;
  /** CPU time the agent used, in milliseconds. */
  readonly cpuMs: number;
}
