/**
 * One reader per REGP field of seeds/003 Table 3: a directive in, a typed value (or the
 * parser's reason) out. The document reader and the compiler both read values here.
 */
import type { ChangeFrequency } from "../plan.js";
import { CHANGE_FREQS } from "../../sitemap/types.js";
import type { Directive } from "./layout.js";
import { type AcceptItem, parseAcceptList } from "./values/accept-list.js";
import { type CookiePair, parseCookie } from "./values/cookie.js";
import { parseSeconds } from "./values/delay.js";
import { type HostName, parseHost } from "./values/host.js";
import { parsePathValue } from "./values/path-value.js";
import { parseRate, type Rate } from "./values/rate.js";
import type { ValueResult } from "./values/result.js";
import { parseTimeSpan, type TimeSpan } from "./values/rfc822-time.js";
import { parseSitemapUrl } from "./values/sitemap-url.js";

/** The value of a Table 3 command line (targets and header lines aside). */
export type FieldValue =
  | { readonly kind: "crawl-delay" | "ip-delay"; readonly seconds: number }
  | { readonly kind: "request-rate" | "ip-rate"; readonly rate: Rate }
  | { readonly kind: "visit-time" | "time-forbidden"; readonly span: TimeSpan }
  | { readonly kind: "language" | "encoding" | "charset"; readonly items: readonly AcceptItem[] }
  | { readonly kind: "cookie"; readonly pairs: readonly CookiePair[] }
  | { readonly kind: "mirror-site" | "host"; readonly host: HostName }
  | { readonly kind: "sitemap"; readonly url: string }
  | { readonly kind: "index-page"; readonly path: string }
  | { readonly kind: "change"; readonly frequency: ChangeFrequency; readonly path: string };

/** Reads a command line's value; null when the key is not a Table 3 command (an extension, or a header line). */
export function readField(d: Directive): ValueResult<FieldValue> | null {
  const as = <T, V extends FieldValue>(
    result: ValueResult<T>,
    make: (value: T) => V,
  ): ValueResult<FieldValue> => (result.ok ? { ok: true, value: make(result.value) } : result);
  switch (d.key) {
    case "crawl-delay":
    case "ip-delay": {
      const kind = d.key;
      return as(parseSeconds(d.value), (seconds) => ({ kind, seconds }));
    }
    case "request-rate":
    case "ip-rate": {
      const kind = d.key;
      return as(parseRate(d.value), (rate) => ({ kind, rate }));
    }
    case "visit-time":
    case "time-forbidden": {
      const kind = d.key;
      return as(parseTimeSpan(d.value), (span) => ({ kind, span }));
    }
    case "language":
    case "encoding":
    case "charset": {
      const kind = d.key;
      return as(parseAcceptList(d.value, kind), (items) => ({ kind, items }));
    }
    case "cookie":
      return as(parseCookie(d.value), (pairs) => ({ kind: "cookie", pairs }));
    case "mirror-site":
    case "host": {
      const kind = d.key;
      return as(parseHost(d.value), (host) => ({ kind, host }));
    }
    case "sitemap":
      return as(parseSitemapUrl(d.value), (url) => ({ kind: "sitemap", url }));
    case "index-page":
      return as(parsePathValue(d.value), (path) => ({ kind: "index-page", path }));
    default: {
      const frequency = CHANGE_FREQS.find((f) => d.key === `change-${f}`);
      if (frequency === undefined) return null;
      return as(parsePathValue(d.value), (path) => ({ kind: "change", frequency, path }));
    }
  }
}
