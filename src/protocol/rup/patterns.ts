/**
 * URL patterns of Exclude and IncludeOnly (seeds/001 §3.1.1: "a pattern of an url, expressed
 * using regular expression syntax"). heed reads them as regular expressions matched anywhere in
 * the URL path (anchor with ^ and $ for more), and checks each one compiles.
 *
 * Any registrant supplies them and the site matches them against every changed path, so they
 * run on RE2's linear-time engine (re2js): `^/(a+)+$` against a long path costs what its length
 * costs, where a backtracking engine doubles with each character. RE2 has no back-references
 * or look-around; a pattern using them is refused as not compiling.
 */
import { RE2JS } from "re2js";
import { MAX_PATTERN_LENGTH } from "./limits.js";

/** A compiled pattern: whether it occurs in a path. */
export interface PathPattern {
  test(path: string): boolean;
}

export type PatternCheck =
  | { readonly ok: true; readonly regex: PathPattern }
  | { readonly ok: false; readonly message: string };

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
    return { ok: true, regex: RE2JS.compile(pattern) };
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
