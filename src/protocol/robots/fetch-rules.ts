/**
 * What a robot does with the answer to `GET /robots.txt` (DESIGN §3), as pure decision tables.
 * The HTTP client that asks lives in `net/`; these functions only decide.
 */

/** RFC 9309 §2.3.1.2: follow at least five redirects; heed follows exactly five. */
export const MAX_ROBOTS_REDIRECTS = 5;
/** RFC 9309 §2.4: a cached copy should not be used for more than 24 hours. */
export const MAX_CACHE_MS = 24 * 60 * 60 * 1000;
/** RFC 9309 §2.3.1.4: after 30 days of 5xx, a crawler may stop treating the site as closed. */
export const UNREACHABLE_GRACE_MS = 30 * 24 * 60 * 60 * 1000;
/** First wait before asking an unreachable robots.txt again; it doubles up to {@link MAX_CACHE_MS}. */
export const RETRY_BASE_MS = 60 * 1000;

export type FetchAnswer =
  | { readonly status: number; readonly redirects?: number }
  | { readonly networkError: string; readonly redirects?: number };

/** What to do with the answer. */
export type FetchVerdict =
  | { readonly action: "parse"; readonly why: string }
  | { readonly action: "follow"; readonly why: string }
  | { readonly action: "disallow-all"; readonly why: string }
  | { readonly action: "allow-all"; readonly why: string }
  | { readonly action: "unreachable"; readonly why: string };

export function robotsFetchVerdict(answer: FetchAnswer): FetchVerdict {
  const redirects = answer.redirects ?? 0;
  if ("networkError" in answer) {
    return {
      action: "unreachable",
      why: `network error: ${answer.networkError} (RFC 9309 §2.3.1.4)`,
    };
  }
  const { status } = answer;
  if (status >= 200 && status < 300) return { action: "parse", why: `${status}: rules apply` };
  if (status >= 300 && status < 400) {
    if (redirects >= MAX_ROBOTS_REDIRECTS) {
      return {
        action: "unreachable",
        why: `more than ${MAX_ROBOTS_REDIRECTS} redirects (RFC 9309 §2.3.1.2)`,
      };
    }
    return { action: "follow", why: `${status}: follow the redirect (RFC 9309 §2.3.1.2)` };
  }
  if (status === 401 || status === 403) {
    return {
      action: "disallow-all",
      // seeds/004 §3.1 and seeds/003 recommend it; RFC 9309 §2.3.1.3 would allow (DESIGN §3).
      why: `${status}: heed's rule closes the whole site on 401 and 403 (docs/fetching.md#401-and-403); RFC 9309 §2.3.1.3 alone would allow every URL`,
    };
  }
  if (status >= 400 && status < 500) {
    return {
      action: "allow-all",
      why: `${status}: no robots.txt, no restrictions (RFC 9309 §2.3.1.3)`,
    };
  }
  return {
    action: "unreachable",
    why: `${status}: server error, the site is closed for now (RFC 9309 §2.3.1.4)`,
  };
}

/** What applies while robots.txt cannot be read. */
export type UnreachableRule =
  | { readonly use: "disallow-all"; readonly retryInMs: number }
  | { readonly use: "last-good-copy" }
  | { readonly use: "allow-all" };

/**
 * Unreachable for less than 30 days: disallow everything and retry with back-off.
 * Longer: the last good copy if there is one, else no restrictions (RFC 9309 §2.3.1.4).
 */
export function unreachableRule(input: {
  readonly firstFailureAt: number;
  readonly now: number;
  readonly attempts: number;
  readonly hasGoodCopy: boolean;
}): UnreachableRule {
  if (input.now - input.firstFailureAt < UNREACHABLE_GRACE_MS) {
    return { use: "disallow-all", retryInMs: retryDelay(input.attempts) };
  }
  return input.hasGoodCopy ? { use: "last-good-copy" } : { use: "allow-all" };
}

/** 1 min, 2 min, 4 min … capped at 24 h. */
export function retryDelay(attempts: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 20);
  return Math.min(RETRY_BASE_MS * 2 ** exponent, MAX_CACHE_MS);
}

export interface CacheHeaders {
  readonly cacheControl?: string | null;
  readonly expires?: string | null;
  /** The response's Date header; `now` stands in for it when absent. */
  readonly date?: string | null;
}

/**
 * How long a fetched robots.txt stays fresh, in ms: `Cache-Control: max-age` (or `s-maxage`),
 * else `Expires` − `Date`, else 24 h; never more than 24 h (RFC 9309 §2.4; seeds/004 §3.4's
 * 7-day default is looser). `no-store` and `no-cache` make it stale at once.
 */
export function cacheLifetime(headers: CacheHeaders, now: number): number {
  const directives = parseCacheControl(headers.cacheControl ?? "");
  if (directives.has("no-store") || directives.has("no-cache")) return 0;
  const maxAge = seconds(directives.get("s-maxage")) ?? seconds(directives.get("max-age"));
  if (maxAge !== null) return Math.min(maxAge * 1000, MAX_CACHE_MS);
  if (headers.expires) {
    const expires = Date.parse(headers.expires);
    // RFC 9111 §5.3: an invalid Expires means already expired.
    if (Number.isNaN(expires)) return 0;
    const date = headers.date ? Date.parse(headers.date) : Number.NaN;
    const base = Number.isNaN(date) ? now : date;
    return Math.min(Math.max(expires - base, 0), MAX_CACHE_MS);
  }
  return MAX_CACHE_MS;
}

function parseCacheControl(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of value.split(",")) {
    const [name = "", arg = ""] = part.split("=", 2);
    const key = name.trim().toLowerCase();
    if (key !== "") out.set(key, arg.trim().replace(/^"|"$/g, ""));
  }
  return out;
}

function seconds(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value)) return null;
  return Number(value);
}
