/**
 * Crawler traps: URL spaces without end (calendars, session ids, repeated path segments).
 * A URL that looks like one is not queued; each limit is a named constant with its reason.
 */

/** Deeper paths are almost always generated, not written. */
export const MAX_PATH_SEGMENTS = 16;
/** `/a/b/a/b/a/b`: a relative link resolved against itself, again and again. */
export const MAX_SEGMENT_REPEATS = 3;
/** Query strings with more parameters are faceted-search explosions. */
export const MAX_QUERY_PARAMETERS = 12;
/** Longer URLs are refused by many servers and are traps when they are not. */
export const MAX_URL_LENGTH = 2048;

/** Why `url` looks like a trap, or null. */
export function trapReason(url: string): string | null {
  if (url.length > MAX_URL_LENGTH) return `longer than ${MAX_URL_LENGTH} characters`;
  const { pathname, searchParams } = new URL(url);
  const segments = pathname.split("/").filter((s) => s !== "");
  if (segments.length > MAX_PATH_SEGMENTS) return `more than ${MAX_PATH_SEGMENTS} path segments`;
  const counts = new Map<string, number>();
  for (const segment of segments) {
    const n = (counts.get(segment) ?? 0) + 1;
    if (n > MAX_SEGMENT_REPEATS) return `path segment "${segment}" repeated ${n} times`;
    counts.set(segment, n);
  }
  let parameters = 0;
  for (const _ of searchParams.keys()) parameters++;
  if (parameters > MAX_QUERY_PARAMETERS)
    return `more than ${MAX_QUERY_PARAMETERS} query parameters`;
  return null;
}
