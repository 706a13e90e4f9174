/**
 * Path values of `Allow`, `Disallow` (seeds/003 §3.2.5), `Index-page` (§3.2.14) and the
 * `Change-*` lines (§3.2.15): "a case-insensitive corresponding path normally beginning with `/`",
 * with `*` and `$` wildcards. The Appendix grammar gives `Index-page` an `httpurl`, so a full
 * http(s) URL is accepted and reduced to what follows its host.
 *
 * An empty value is refused here: what an empty `Disallow` means (allow everything) is the
 * dialect's business, which decides before asking for a path.
 */
import { firstSpaceOrControl, hasScheme, splitHttpUrl } from "./http-url.js";
import { fail, ok, type ValueResult } from "./result.js";
import { got, show } from "./text.js";

export interface PathValue {
  /** Begins with `/` or `*`; wildcards, query and `#` kept as written. */
  readonly path: string;
  /** True when the value was written as a full URL and reduced to its path. */
  readonly fromUrl: boolean;
}

/**
 * `/news/`, `*.php$`, `/news/news.html$*`; `http://www.example.com/news/?p=1` → `/news/?p=1`.
 * A URL keeps its `#` part: REGP moved comments to `##` so that `#` can stay in values (§3.1).
 */
export function parsePathValue(text: string): ValueResult<string> {
  const read = readPathValue(text);
  return read.ok ? ok(read.value.path) : read;
}

/** As {@link parsePathValue}, and says whether the value was written as a URL (for lint). */
export function readPathValue(text: string): ValueResult<PathValue> {
  const t = text.trim();
  if (t === "") return fail(`expected a path starting with "/" or "*", got ${got(t)}`);
  const bad = firstSpaceOrControl(t);
  if (bad !== null)
    return fail(
      `expected a path without spaces or control characters, got ${show(bad)} in ${show(t)}`,
    );
  if (hasScheme(t)) {
    const url = splitHttpUrl(t);
    if (!url.ok) return url;
    const rest = url.value.rest;
    const path = rest === "" ? "/" : rest.startsWith("/") ? rest : `/${rest}`;
    return ok({ path, fromUrl: true });
  }
  if (t.startsWith("/") || t.startsWith("*")) return ok({ path: t, fromUrl: false });
  return fail(`expected a path starting with "/" or "*" (or an http(s) URL), got ${show(t)}`);
}
