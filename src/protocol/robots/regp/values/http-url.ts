/** The pieces of an absolute http(s) URL, split by hand (no WHATWG `URL`: it would rewrite `*` patterns and dot segments). */
import { type HostName, parseHost } from "./host.js";
import { fail, ok, type ValueResult } from "./result.js";
import { show } from "./text.js";

export interface HttpUrlParts {
  readonly scheme: "http" | "https";
  readonly host: HostName;
  /** Everything after the authority, as written: path, query and fragment; may be empty. */
  readonly rest: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** True when the text begins with `scheme://`, whatever the scheme. */
export function hasScheme(text: string): boolean {
  return SCHEME.test(text);
}

/** `http://host[:port][/path][?query][#fragment]` → its parts; other schemes and bad hosts are refused. */
export function splitHttpUrl(text: string): ValueResult<HttpUrlParts> {
  const m = SCHEME.exec(text);
  if (m === null)
    return fail(`expected an absolute URL beginning http:// or https://, got ${show(text)}`);
  const scheme = (m[1] as string).toLowerCase();
  if (scheme !== "http" && scheme !== "https") {
    return fail(
      `expected an http or https URL, got the scheme ${show(m[1] as string)} in ${show(text)}`,
    );
  }
  const afterScheme = text.slice(m[0].length);
  const end = afterScheme.search(/[/?#]/);
  const authority = end < 0 ? afterScheme : afterScheme.slice(0, end);
  const rest = end < 0 ? "" : afterScheme.slice(end);
  const host = parseHost(authority);
  if (!host.ok) return fail(`expected a valid host in ${show(text)}: ${host.error}`);
  return ok({ scheme, host: host.value, rest });
}

/** The first whitespace or control character, which no URL or path value may hold (RFC 3986 §2). */
export function firstSpaceOrControl(text: string): string | null {
  return /[\s\x00-\x1f\x7f]/.exec(text)?.[0] ?? null;
}
