/**
 * Reading one field value of a sitemap entry: `<loc>`, `<srcloc>`, `<priority>`, `<changefreq>`,
 * REGP's `<type>` (`<lastmod>` is in w3c-datetime.ts). Each answer is tagged: a value, or the
 * code and a one-line reason ("expected X, got Y"). Content never throws.
 */
import { MAX_LOC_LENGTH } from "./limits.js";
import {
  CHANGE_FREQS,
  type ChangeFreq,
  PAGE_TYPES,
  type PageType,
  type SitemapCode,
} from "./types.js";

export type FieldResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: SitemapCode; readonly message: string };

export interface CheckedUrl {
  /** The URL as written, trimmed; line breaks inside it removed (see {@link unwrapUrlText}). */
  readonly text: string;
  readonly url: URL;
  /** The text was longer than sitemaps.org allows; it is kept, with a warning. */
  readonly tooLong: boolean;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;
const PLAIN = /^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i;

/**
 * A field's text with surrounding white space removed, and white space that contains a line
 * break removed inside it too: a URL wrapped onto two lines, as seeds/003 §4.1 prints its
 * `<srcloc>` (`…newsItem.do?id=` / `1`), reads as one. Other inner spaces are left, and refused.
 */
export function unwrapUrlText(raw: string): string {
  const t = raw.trim();
  return /[\r\n]/.test(t) ? t.replace(/[ \t]*[\r\n]+[ \t\r\n]*/g, "") : t;
}

/**
 * An absolute http(s) URL: sitemaps.org `<loc>` "must begin with the protocol (such as http)";
 * seeds/003 §3.2.12 `<srcloc>` is "the URL of the original page". `field` names the codes.
 */
export function checkUrl(raw: string, field: "loc" | "srcloc"): FieldResult<CheckedUrl> {
  const trimmed = raw.trim();
  // The common case, a plain absolute URL, in one test; anything else is looked at closely.
  if (PLAIN.test(trimmed)) {
    try {
      const url = new URL(trimmed);
      if (url.hostname !== "")
        return {
          ok: true,
          value: { text: trimmed, url, tooLong: trimmed.length > MAX_LOC_LENGTH },
        };
    } catch {
      // fall through to the detailed checks
    }
  }
  const text = unwrapUrlText(trimmed);
  const malformed: SitemapCode = field === "loc" ? "loc-malformed" : "srcloc-invalid";
  const relative: SitemapCode = field === "loc" ? "loc-relative" : "srcloc-invalid";
  if (text === "")
    return {
      ok: false,
      code: field === "loc" ? "loc-missing" : "srcloc-invalid",
      message: `expected an absolute URL in <${field}>, got nothing`,
    };
  if (!SCHEME.test(text))
    return {
      ok: false,
      code: relative,
      message: `expected an absolute URL beginning http:// or https:// in <${field}>, got the relative "${clip(text)}"`,
    };
  const lower = text.slice(0, 8).toLowerCase();
  if (!lower.startsWith("http://") && !lower.startsWith("https://"))
    return {
      ok: false,
      code: malformed,
      message: `expected an http or https URL in <${field}>, got "${clip(text)}"`,
    };
  const bad = SPACE_OR_CONTROL.exec(text);
  if (bad !== null)
    return {
      ok: false,
      code: malformed,
      message: `expected a URL without spaces or control characters in <${field}> (escape a space as %20), got ${JSON.stringify(bad[0])} in "${clip(text)}"`,
    };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      code: malformed,
      message: `expected a well-formed URL in <${field}>, got "${clip(text)}"`,
    };
  }
  if (url.hostname === "")
    return {
      ok: false,
      code: malformed,
      message: `expected a URL with a host in <${field}>, got "${clip(text)}"`,
    };
  return { ok: true, value: { text, url, tooLong: text.length > MAX_LOC_LENGTH } };
}

/** sitemaps.org `<priority>`: "Valid values range from 0.0 to 1.0." A plain decimal, no exponent. */
export function checkPriority(raw: string): FieldResult<number> {
  const t = raw.trim();
  if (/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(t)) {
    const value = Number(t);
    if (value >= 0 && value <= 1) return { ok: true, value };
  }
  return {
    ok: false,
    code: "priority-invalid",
    message: `expected a <priority> from 0.0 to 1.0, got "${clip(t)}"`,
  };
}

/** sitemaps.org `<changefreq>`: one of seven words; heed accepts any case. */
export function checkChangefreq(raw: string): FieldResult<ChangeFreq> {
  const t = raw.trim().toLowerCase();
  const found = CHANGE_FREQS.find((c) => c === t);
  if (found !== undefined) return { ok: true, value: found };
  return {
    ok: false,
    code: "changefreq-invalid",
    message: `expected a <changefreq> of ${CHANGE_FREQS.join(", ")}, got "${clip(raw.trim())}"`,
  };
}

/** seeds/003 §3.2.12 `<type>`: `data`, `list` or `other`; heed accepts any case. */
export function checkPageType(raw: string): FieldResult<PageType> {
  const t = raw.trim().toLowerCase();
  const found = PAGE_TYPES.find((c) => c === t);
  if (found !== undefined) return { ok: true, value: found };
  return {
    ok: false,
    code: "type-invalid",
    message: `expected a <type> of data, list or other (docs/sitemaps.md#regp-type-and-srcloc), got "${clip(raw.trim())}"`,
  };
}

export function clip(t: string): string {
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
}
