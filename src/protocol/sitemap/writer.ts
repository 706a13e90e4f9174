/**
 * Writing sitemaps as strings: a urlset, a sitemap index, and their parts, so that a caller can
 * stream a large file piece by piece and count its bytes (src/site/sitemap-writer.ts does).
 *
 * sitemaps.org: UTF-8, the namespace on the root, `<loc>` first, then `<lastmod>`,
 * `<changefreq>`, `<priority>`; data values entity-escaped (`&` `'` `"` `>` `<`). REGP's
 * `<type>` and `<srcloc>` (seeds/003 §3.2.12) come last, in heed's own namespace (limits.ts
 * `REGP_NAMESPACE`, prefix `regp`), which the sitemaps.org schema admits after the other fields,
 * so that readers that do not know them skip them.
 */
import { checkChangefreq, checkPageType, checkUrl, clip } from "./fields.js";
import { MAX_LOC_LENGTH, REGP_NAMESPACE, REGP_PREFIX, SITEMAP_NAMESPACE } from "./limits.js";
import type { ChangeFreq, PageType } from "./types.js";
import { formatW3cDatetime, parseW3cDatetime } from "./w3c-datetime.js";

/** An entry to write. `lastmod` may be a W3C datetime string or a Date (written in UTC). */
export interface SitemapUrlInput {
  readonly loc: string;
  readonly lastmod?: string | Date | null;
  readonly changefreq?: ChangeFreq | null;
  readonly priority?: number | null;
  readonly type?: PageType | null;
  readonly srcloc?: string | null;
}

/** An entry checked and put in the form it is written in. */
export interface SitemapUrlRecord {
  readonly loc: string;
  readonly lastmod: string | null;
  readonly changefreq: ChangeFreq | null;
  readonly priority: number | null;
  readonly type: PageType | null;
  readonly srcloc: string | null;
}

export type InputCheck =
  | { readonly ok: true; readonly value: SitemapUrlRecord }
  | { readonly ok: false; readonly errors: readonly string[] };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Checks an entry before it is written; every problem is listed, each "expected X, got Y". */
export function checkUrlInput(input: SitemapUrlInput): InputCheck {
  const errors: string[] = [];
  const url = (text: unknown, field: "loc" | "srcloc"): string | null => {
    if (typeof text !== "string") {
      errors.push(`${field}: expected a string, got ${typeof text}`);
      return null;
    }
    if (LONE_SURROGATE.test(text)) {
      errors.push(
        `${field}: expected well-formed Unicode, got a lone surrogate in "${clip(text)}"`,
      );
      return null;
    }
    const checked = checkUrl(text, field);
    if (!checked.ok) {
      errors.push(`${field}: ${checked.message}`);
      return null;
    }
    if (checked.value.tooLong) {
      errors.push(
        `${field}: expected fewer than 2,048 characters (sitemaps.org), got ${checked.value.text.length}`,
      );
      return null;
    }
    return checked.value.text;
  };
  const loc = url(input.loc, "loc");
  let lastmod: string | null = null;
  if (input.lastmod instanceof Date) {
    const ms = input.lastmod.getTime();
    if (Number.isNaN(ms)) errors.push("lastmod: expected a valid Date, got an invalid one");
    else lastmod = formatW3cDatetime(ms);
  } else if (typeof input.lastmod === "string") {
    const parsed = parseW3cDatetime(input.lastmod);
    if (parsed.ok) lastmod = input.lastmod.trim();
    else errors.push(`lastmod: ${parsed.error}`);
  } else if (input.lastmod !== undefined && input.lastmod !== null) {
    errors.push(`lastmod: expected a W3C datetime string or a Date, got ${typeof input.lastmod}`);
  }
  let changefreq: ChangeFreq | null = null;
  if (input.changefreq !== undefined && input.changefreq !== null) {
    const checked = checkChangefreq(String(input.changefreq));
    if (checked.ok && checked.value === input.changefreq) changefreq = checked.value;
    else
      errors.push(
        `changefreq: expected always, hourly, daily, weekly, monthly, yearly or never, got "${clip(String(input.changefreq))}"`,
      );
  }
  let priority: number | null = null;
  if (input.priority !== undefined && input.priority !== null) {
    const p = input.priority;
    if (typeof p === "number" && Number.isFinite(p) && p >= 0 && p <= 1) priority = p;
    else errors.push(`priority: expected a number from 0.0 to 1.0, got ${String(p)}`);
  }
  let type: PageType | null = null;
  if (input.type !== undefined && input.type !== null) {
    const checked = checkPageType(String(input.type));
    if (checked.ok && checked.value === input.type) type = checked.value;
    else
      errors.push(
        `type: expected data, list or other (docs/sitemaps.md#regp-type-and-srcloc), got "${clip(String(input.type))}"`,
      );
  }
  const srcloc =
    input.srcloc === undefined || input.srcloc === null ? null : url(input.srcloc, "srcloc");
  if (errors.length > 0 || loc === null) return { ok: false, errors };
  return { ok: true, value: { loc, lastmod, changefreq, priority, type, srcloc } };
}

/** sitemaps.org "Entity escaping": `&` `'` `"` `>` `<`. */
export function escapeXml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c) : text;
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** A priority as a plain decimal with a point (`0.5`, `1.0`), never in exponent form. */
export function formatPriority(p: number): string {
  let s = String(p);
  if (s.includes("e")) s = p.toFixed(20).replace(/0+$/, "");
  return s.includes(".") ? s : `${s}.0`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export interface UrlsetOptions {
  /** Declare heed's REGP namespace on the root (needed for `type`, `srcloc`). Default true. */
  readonly regp?: boolean;
}

export function urlsetOpen(options: UrlsetOptions = {}): string {
  const regp = options.regp ?? true;
  return `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}"${regp ? ` xmlns:${REGP_PREFIX}="${REGP_NAMESPACE}"` : ""}>\n`;
}

export const URLSET_CLOSE = "</urlset>\n";

/** One `<url>` element, indented, ending with a newline. `prefix` names heed's REGP namespace. */
export function urlElement(entry: SitemapUrlRecord, prefix: string = REGP_PREFIX): string {
  let out = `  <url>\n    <loc>${escapeXml(entry.loc)}</loc>\n`;
  if (entry.lastmod !== null) out += `    <lastmod>${escapeXml(entry.lastmod)}</lastmod>\n`;
  if (entry.changefreq !== null) out += `    <changefreq>${entry.changefreq}</changefreq>\n`;
  if (entry.priority !== null)
    out += `    <priority>${formatPriority(entry.priority)}</priority>\n`;
  if (entry.type !== null) out += `    ${fieldElement("type", entry.type, prefix)}\n`;
  if (entry.srcloc !== null) out += `    ${fieldElement("srcloc", entry.srcloc, prefix)}\n`;
  return `${out}  </url>\n`;
}

/** One field as an element: `<lastmod>…</lastmod>`, or `<regp:type>…</regp:type>` for REGP's. */
export function fieldElement(
  field: "lastmod" | "changefreq" | "priority" | "type" | "srcloc",
  value: string,
  prefix: string = REGP_PREFIX,
): string {
  const name =
    (field === "type" || field === "srcloc") && prefix !== "" ? `${prefix}:${field}` : field;
  return `<${name}>${escapeXml(value)}</${name}>`;
}

export function sitemapIndexOpen(): string {
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n`;
}

export const SITEMAPINDEX_CLOSE = "</sitemapindex>\n";

export interface SitemapRefInput {
  readonly loc: string;
  readonly lastmod?: string | null;
}

export function sitemapElement(ref: SitemapRefInput): string {
  const lastmod =
    ref.lastmod === undefined || ref.lastmod === null
      ? ""
      : `    <lastmod>${escapeXml(ref.lastmod)}</lastmod>\n`;
  return `  <sitemap>\n    <loc>${escapeXml(ref.loc)}</loc>\n${lastmod}  </sitemap>\n`;
}

/** Thrown by the render functions for an entry that cannot be written; `code` is stable. */
export class SitemapInputError extends Error {
  readonly code = "invalid-entry";
  readonly errors: readonly string[];
  constructor(errors: readonly string[], index: number) {
    super(`entry ${index}: ${errors.join("; ")}`);
    this.name = "SitemapInputError";
    this.errors = errors;
  }
}

/** A whole urlset as one string, for small sets; no limits are applied here. */
export function renderUrlset(
  entries: Iterable<SitemapUrlInput>,
  options: UrlsetOptions = {},
): string {
  let out = urlsetOpen(options);
  let i = 0;
  for (const input of entries) {
    const checked = checkUrlInput(input);
    if (!checked.ok) throw new SitemapInputError(checked.errors, i);
    if (
      (options.regp ?? true) === false &&
      (checked.value.type !== null || checked.value.srcloc !== null)
    )
      throw new SitemapInputError(["type and srcloc need the REGP namespace (regp: true)"], i);
    out += urlElement(checked.value);
    i++;
  }
  return out + URLSET_CLOSE;
}

/** A whole sitemap index as one string. */
export function renderSitemapIndex(refs: Iterable<SitemapRefInput>): string {
  let out = sitemapIndexOpen();
  let i = 0;
  for (const ref of refs) {
    const checked = checkUrl(ref.loc, "loc");
    if (!checked.ok || checked.value.text.length > MAX_LOC_LENGTH)
      throw new SitemapInputError(
        [`loc: expected an absolute http(s) URL, got "${clip(ref.loc)}"`],
        i,
      );
    if (ref.lastmod !== undefined && ref.lastmod !== null && !parseW3cDatetime(ref.lastmod).ok)
      throw new SitemapInputError(
        [`lastmod: expected a W3C datetime, got "${clip(ref.lastmod)}"`],
        i,
      );
    out += sitemapElement(ref);
    i++;
  }
  return out + SITEMAPINDEX_CLOSE;
}
