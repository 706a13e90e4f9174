/**
 * What a sitemap reader gives back: entries, diagnostics and a summary, as a stream of events.
 * Entries are plain values; nothing here refers to files, URLs being fetched or the clock.
 */

/** The formats a sitemap may take (sitemaps.org "XML tag definitions", "Other Sitemap formats"). */
export type SitemapFormat = "urlset" | "sitemapindex" | "text" | "rss" | "atom";

/** sitemaps.org `<changefreq>`: how often the page is likely to change. */
export type ChangeFreq = "always" | "hourly" | "daily" | "weekly" | "monthly" | "yearly" | "never";

export const CHANGE_FREQS: readonly ChangeFreq[] = [
  "always",
  "hourly",
  "daily",
  "weekly",
  "monthly",
  "yearly",
  "never",
];

/**
 * seeds/003 §3.2.12 `<type>`: `data` — a proprietary data page, fetch it and follow no links;
 * `list` — a list of data pages (a search result), follow all its links; `other` — no advice.
 */
export type PageType = "data" | "list" | "other";

export const PAGE_TYPES: readonly PageType[] = ["data", "list", "other"];

/** One `<url>` of a urlset, one line of a text sitemap, one item of a feed. */
export interface SitemapUrl {
  /** Absolute http(s) URL, as written (trimmed, entities decoded). */
  readonly loc: string;
  /** W3C datetime as written (feeds: converted from RFC 822), or null. */
  readonly lastmod: string | null;
  readonly changefreq: ChangeFreq | null;
  /** 0.0 to 1.0, or null when not given (sitemaps.org: the default is 0.5). */
  readonly priority: number | null;
  /** REGP `<type>` (seeds/003 §3.2.12). */
  readonly type: PageType | null;
  /** REGP `<srcloc>`: the original page that `loc`, a crawler page, stands for. */
  readonly srcloc: string | null;
  /** 1-based line where the entry starts in the (uncompressed) file, or null. */
  readonly line: number | null;
}

/** One `<sitemap>` of a sitemap index. */
export interface SitemapRef {
  readonly loc: string;
  readonly lastmod: string | null;
  readonly line: number | null;
}

/** Stable identifiers of what a reader reports; tools and tests key on them. */
export type SitemapCode =
  // The file as a whole; all but the last two stop reading.
  | "not-a-sitemap"
  | "doctype"
  | "too-many-urls"
  | "too-large"
  | "compression-ratio"
  | "gzip-corrupt"
  | "gzip-unsupported"
  | "xml-too-deep"
  | "entry-too-large"
  | "too-much-markup"
  | "xml-malformed"
  | "not-utf8"
  | "namespace"
  // One entry or field.
  | "loc-missing"
  | "loc-relative"
  | "loc-malformed"
  | "loc-too-long"
  | "loc-out-of-scope"
  | "lastmod-invalid"
  | "changefreq-invalid"
  | "priority-invalid"
  | "type-invalid"
  | "srcloc-invalid"
  | "duplicate-field"
  | "field-too-long"
  | "unescaped-ampersand"
  | "undefined-entity"
  | "too-many-diagnostics"
  // Following indexes and fetching (src/net/sitemap-fetch.ts).
  | "fetch-failed"
  | "index-depth"
  | "index-cycle"
  | "nested-index"
  | "sitemap-other-site"
  | "sitemap-outside-folder"
  | "too-many-sitemaps";

export type SitemapSeverity = "error" | "warning";

/** A finding about a sitemap, tied to its line. Content never throws; it yields these. */
export interface SitemapDiagnostic {
  /** 1-based line in the uncompressed file, or null for the file as a whole. */
  readonly line: number | null;
  readonly severity: SitemapSeverity;
  readonly code: SitemapCode;
  /** One line, for a person. */
  readonly message: string;
  /** Reading stopped here; what followed was not read. */
  readonly fatal: boolean;
}

/** What one file held, once it has been read (or reading stopped). */
export interface SitemapSummary {
  /** Null when the file could not be recognised. */
  readonly format: SitemapFormat | null;
  readonly compressed: boolean;
  /** `<url>` entries (or lines, or feed items) given out. */
  readonly urls: number;
  /** `<sitemap>` entries of an index given out. */
  readonly sitemaps: number;
  /** Uncompressed bytes read. */
  readonly bytes: number;
  /** Compressed bytes read, when the file was gzip-compressed. */
  readonly compressedBytes: number | null;
  readonly errors: number;
  readonly warnings: number;
  /** The code of the fatal diagnostic that stopped reading, or null when the file was read whole. */
  readonly stoppedBy: SitemapCode | null;
}

export type SitemapEvent =
  | {
      readonly kind: "format";
      readonly format: SitemapFormat;
      readonly compressed: boolean;
    }
  | { readonly kind: "url"; readonly url: SitemapUrl }
  | { readonly kind: "sitemap"; readonly sitemap: SitemapRef }
  | { readonly kind: "diagnostic"; readonly diagnostic: SitemapDiagnostic }
  | { readonly kind: "end"; readonly summary: SitemapSummary };
