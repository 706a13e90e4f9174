/**
 * URL patterns of Exclude and IncludeOnly (seeds/001 §3.1.1: "a pattern of an url, expressed
 * using regular expression syntax"). heed reads them as JavaScript regular expressions matched
 * anywhere in the URL path (anchor with ^ and $ for more), and checks each one compiles.
 */
import { MAX_PATTERN_LENGTH } from "./limits.js";

export type PatternCheck =
  { readonly ok: true; readonly regex: RegExp } | { readonly ok: false; readonly message: string };

export function compilePattern(pattern: string): PatternCheck {
  if (pattern === "") return { ok: false, message: "an empty pattern" };
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return {
      ok: false,
      message: `a pattern of ${pattern.length} characters; at most ${MAX_PATTERN_LENGTH}`,
    };
  }
  // seeds/001 §3.1.1 lists patterns with commas, §3.1.2 with spaces: a pattern holding either
  // could not be passed on whole.
  if (/[,\s]/.test(pattern))
    return {
      ok: false,
      message: `"${pattern}" holds a comma or white space, which separate patterns in lists`,
    };
  try {
    return { ok: true, regex: new RegExp(pattern) };
  } catch (error) {
    return {
      ok: false,
      message: `"${pattern}" is not a regular expression: ${(error as Error).message}`,
    };
  }
}

/** What a registration asks to hear about: everything, all but some, or only some. */
export type PathFilter =
  | { readonly kind: "all" }
  | { readonly kind: "exclude"; readonly patterns: readonly string[] }
  | { readonly kind: "include-only"; readonly patterns: readonly string[] };

/** Compiles a filter once; the answer says whether a URL path is reported. */
export function pathFilter(filter: PathFilter): (path: string) => boolean {
  if (filter.kind === "all") return () => true;
  const regexes = filter.patterns.flatMap((p) => {
    const c = compilePattern(p);
    return c.ok ? [c.regex] : [];
  });
  const matches = (path: string): boolean => regexes.some((r) => r.test(path));
  return filter.kind === "exclude" ? (path) => !matches(path) : matches;
}
