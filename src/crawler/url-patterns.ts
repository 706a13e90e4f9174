/**
 * The URL patterns of a crawl's `include` and `exclude` (`heed crawl --include/--exclude`,
 * docs/crawler.md#include-and-exclude): which found URLs the crawl takes, decided before any
 * robots.txt is read, so a URL left out is never fetched and never counted as refused.
 *
 * A pattern is a glob, or an RE2 regular expression written `re:…`. Both run on RE2's
 * linear-time engine (re2js): a user's pattern meets every URL of a site, and a backtracking
 * engine can take seconds on one (`(a+)+$`). A glob is compiled here to an anchored RE2
 * expression: `**` is any run of characters, `*` any run without `/`, `?` one character other
 * than `/`; every other character stands for itself. A glob that starts with `/` is matched
 * against the URL's path (no query); one with a scheme (`https://…`) against the whole URL. A
 * regular expression is searched for anywhere in the whole URL (anchor it with `^` and `$`).
 */
import { RE2JS } from "re2js";

/** Patterns a crawl takes at most, include and exclude together: each URL meets every one. */
export const MAX_URL_PATTERNS = 100;
/** Longest pattern in characters: a URL past 2,048 is rare, a pattern past it a mistake. */
export const MAX_URL_PATTERN_LENGTH = 2_048;

export type UrlPatternCheck =
  | { readonly ok: true; readonly test: (url: string) => boolean }
  | { readonly ok: false; readonly message: string };

const REGEX_PREFIX = "re:";

/** Compiles one pattern, or says what is wrong with it. */
export function compileUrlPattern(pattern: string): UrlPatternCheck {
  if (pattern.length > MAX_URL_PATTERN_LENGTH)
    return {
      ok: false,
      message: `a pattern of ${pattern.length} characters; at most ${MAX_URL_PATTERN_LENGTH}`,
    };
  if (pattern.startsWith(REGEX_PREFIX)) {
    const source = pattern.slice(REGEX_PREFIX.length);
    if (source === "") return { ok: false, message: `"${pattern}": an empty regular expression` };
    const regex = compile(source, pattern);
    if (typeof regex === "string") return { ok: false, message: regex };
    return { ok: true, test: (url) => regex.test(url) };
  }
  const onPath = pattern.startsWith("/");
  if (!onPath && !/^[a-z][a-z0-9+.-]*:\/\//i.test(pattern))
    return {
      ok: false,
      message: `"${pattern}" is neither a glob starting with / (matched against the path) or with a scheme (https://…, matched against the whole URL), nor re:REGEX`,
    };
  const regex = compile(`^${globSource(pattern)}$`, pattern);
  if (typeof regex === "string") return { ok: false, message: regex };
  return {
    ok: true,
    test: onPath ? (url) => regex.test(pathOf(url)) : (url) => regex.test(url),
  };
}

function compile(source: string, pattern: string): RE2JS | string {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    return `"${pattern}" is not a regular expression RE2 reads: ${(error as Error).message}`;
  }
}

function globSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += /[A-Za-z0-9/_~-]/.test(c) ? c : `\\x{${c.codePointAt(0)?.toString(16)}}`;
  }
  return out;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * Which found URLs a crawl takes: one an include pattern matches (every URL when there are
 * none), unless an exclude pattern matches it. Throws a RangeError naming the first bad
 * pattern; callers that take patterns from people check them first ({@link urlPatternProblem}).
 */
export function urlFilter(
  include: readonly string[],
  exclude: readonly string[],
): (url: string) => boolean {
  const { includes, excludes, problem } = compileAll(include, exclude);
  if (problem !== null) throw new RangeError(problem);
  if (includes.length === 0 && excludes.length === 0) return () => true;
  return (url) =>
    (includes.length === 0 || includes.some((t) => t(url))) && !excludes.some((t) => t(url));
}

/** What is wrong with a crawl's patterns, naming the pattern and the list; null when nothing. */
export function urlPatternProblem(
  include: readonly string[],
  exclude: readonly string[],
): string | null {
  return compileAll(include, exclude).problem;
}

type Test = (url: string) => boolean;

function compileAll(
  include: readonly string[],
  exclude: readonly string[],
): { includes: Test[]; excludes: Test[]; problem: string | null } {
  const out = { includes: [] as Test[], excludes: [] as Test[], problem: null as string | null };
  if (include.length + exclude.length > MAX_URL_PATTERNS) {
    out.problem = `${include.length + exclude.length} include and exclude patterns; at most ${MAX_URL_PATTERNS}`;
    return out;
  }
  for (const [name, list, into] of [
    ["include", include, out.includes],
    ["exclude", exclude, out.excludes],
  ] as const) {
    for (const pattern of list) {
      const check = compileUrlPattern(pattern);
      if (!check.ok) {
        out.problem = `${name}: ${check.message}`;
        return out;
      }
      into.push(check.test);
    }
  }
  return out;
}
