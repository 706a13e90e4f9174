/**
 * Each diagnostic code's severity and whether it stops reading, in one table, so that a code
 * means the same thing wherever it is reported.
 *
 * Errors: the file could not be read whole, or is not what it claims (a limit, a DOCTYPE, broken
 * XML, an unreachable sitemap). Warnings: one entry or field was odd and was skipped or dropped;
 * the rest of the file was read.
 */
import type { SitemapCode, SitemapDiagnostic, SitemapSeverity } from "./types.js";

interface CodeInfo {
  readonly severity: SitemapSeverity;
  readonly fatal: boolean;
}

const ERROR_STOP: CodeInfo = { severity: "error", fatal: true };
const ERROR: CodeInfo = { severity: "error", fatal: false };
const WARNING: CodeInfo = { severity: "warning", fatal: false };

export const SITEMAP_CODES: Readonly<Record<SitemapCode, CodeInfo>> = {
  "not-a-sitemap": ERROR_STOP,
  doctype: ERROR_STOP,
  "too-many-urls": ERROR_STOP,
  "too-large": ERROR_STOP,
  "compression-ratio": ERROR_STOP,
  "gzip-corrupt": ERROR_STOP,
  "gzip-unsupported": ERROR_STOP,
  "xml-too-deep": ERROR_STOP,
  "entry-too-large": ERROR_STOP,
  "too-much-markup": ERROR_STOP,
  "xml-malformed": ERROR,
  "not-utf8": WARNING,
  namespace: WARNING,
  "loc-missing": WARNING,
  "loc-relative": WARNING,
  "loc-malformed": WARNING,
  "loc-too-long": WARNING,
  "loc-out-of-scope": WARNING,
  "lastmod-invalid": WARNING,
  "changefreq-invalid": WARNING,
  "priority-invalid": WARNING,
  "type-invalid": WARNING,
  "srcloc-invalid": WARNING,
  "duplicate-field": WARNING,
  "field-too-long": WARNING,
  "unescaped-ampersand": WARNING,
  "undefined-entity": WARNING,
  "too-many-diagnostics": WARNING,
  "fetch-failed": ERROR_STOP,
  "index-depth": ERROR,
  "index-cycle": WARNING,
  "nested-index": WARNING,
  "sitemap-other-site": WARNING,
  "sitemap-outside-folder": ERROR,
  "too-many-sitemaps": ERROR,
};

export function diagnostic(
  code: SitemapCode,
  line: number | null,
  message: string,
): SitemapDiagnostic {
  const info = SITEMAP_CODES[code];
  return { line, severity: info.severity, code, message, fatal: info.fatal };
}
