/**
 * What an HTML page links to, read from its start tags (html-tags.ts: time linear in the size
 * whatever the nesting): `a` and `area`
 * hrefs, `frame`/`iframe` sources, `link rel=alternate|next`, resolved against `<base href>`;
 * the canonical link; `rel=nofollow`; and `<meta name=robots>` (or one naming the robot).
 */
import { forEachStartTag } from "./html-tags.js";
import { type NormalizeOptions, normalizeUrl } from "./url-normal.js";

/**
 * Links kept from one page, followed and nofollow together: as many as a sitemap file may list
 * (sitemaps.org). Each costs a URL parse here and a frontier row later: a 16 MiB page of 456,000
 * distinct links took 14 s to read on a loaded machine, with the crawl's event loop blocked.
 */
export const MAX_PAGE_LINKS = 50_000;

/**
 * Link-bearing start tags read from one page, repeats included: past it reading stops and the
 * links are cut. A 16 MiB page of `<a href=x>` (1.6 million tags of one link) took a second of
 * CPU; four tags a kept link is far more than pages repeat their menus.
 */
export const MAX_PAGE_LINK_TAGS = 4 * MAX_PAGE_LINKS;

/** The start tags that carry what a page links to, or what it says about robots. */
const LINK_TAGS: ReadonlySet<string> = new Set([
  "a",
  "area",
  "base",
  "frame",
  "iframe",
  "link",
  "meta",
]);

export interface PageLinks {
  /** Normalised absolute URLs, in document order, without repeats. */
  readonly links: readonly string[];
  /**
   * The page had more than {@link MAX_PAGE_LINKS} links, or {@link MAX_PAGE_LINK_TAGS} tags that
   * may carry one; those past it were not read.
   */
  readonly linksCut: boolean;
  /** Links marked `rel=nofollow`, kept apart: a polite robot does not follow them. */
  readonly nofollow: readonly string[];
  readonly canonical: string | null;
  /** From `<meta name=robots>` and `<meta name=AGENT>`: `noindex`, `nofollow`, `none`. */
  readonly noindex: boolean;
  readonly nofollowAll: boolean;
  /**
   * `<meta>` elements that speak of usage (docs/usage-preferences.md): robots (or one naming
   * the robot), and TDMRep's tdm-reservation and tdm-policy. Name lower-cased, content as written.
   */
  readonly usageMeta: readonly { readonly name: string; readonly content: string }[];
}

/** Meta names read for usage preferences besides robots and the robot's own. */
const USAGE_META: ReadonlySet<string> = new Set([
  "tdm-reservation",
  "tdm-policy",
  "tdm:reservation",
  "tdm:policy",
]);
// A page names few; a hostile one cannot make the list grow past this.
const MAX_USAGE_META = 32;

/** Reads the links of an HTML document at `pageUrl`, as the robot `agent` (lower-case token). */
export function extractLinks(
  html: string,
  pageUrl: string,
  agent: string,
  normal: NormalizeOptions = {},
): PageLinks {
  let base = pageUrl;
  const links: string[] = [];
  const nofollow: string[] = [];
  const seen = new Set<string>();
  let canonical: string | null = null;
  let noindex = false;
  let nofollowAll = false;
  const usageMeta: { name: string; content: string }[] = [];

  const resolved = new Map<string, string | null>();
  let linksCut = false;
  let tags = 0;
  const add = (href: string | undefined, rel: string | undefined) => {
    if (href === undefined || linksCut) return;
    if (seen.size >= MAX_PAGE_LINKS) {
      linksCut = true;
      return;
    }
    // Pages repeat their hrefs (menus, pagers): each is resolved once against the base in force.
    let url = resolved.get(href);
    if (url === undefined) {
      url = normalizeUrl(href.trim(), base, normal);
      resolved.set(href, url);
    }
    if (url === null || seen.has(url)) return;
    seen.add(url);
    if (rel !== undefined && /(?:^|\s)nofollow(?:\s|$)/i.test(rel)) nofollow.push(url);
    else links.push(url);
  };

  forEachStartTag(
    html,
    (name, attributes) => {
      if (++tags > MAX_PAGE_LINK_TAGS) {
        linksCut = true;
        return false;
      }
      switch (name) {
        case "base":
          if (attributes.href !== undefined) {
            base = normalizeUrl(attributes.href, pageUrl) ?? base;
            resolved.clear();
          }
          break;
        case "a":
        case "area":
          add(attributes.href, attributes.rel);
          break;
        case "frame":
        case "iframe":
          add(attributes.src, undefined);
          break;
        case "link": {
          const rel = (attributes.rel ?? "").toLowerCase().split(/\s+/);
          if (rel.includes("canonical") && attributes.href !== undefined) {
            canonical = normalizeUrl(attributes.href, base, normal);
          } else if (rel.includes("alternate") || rel.includes("next")) {
            add(attributes.href, undefined);
          }
          break;
        }
        case "meta": {
          const name = (attributes.name ?? "").toLowerCase();
          const usage = name === "robots" || name === agent || USAGE_META.has(name);
          if (usage) keepUsageMeta(usageMeta, name, attributes.content ?? "");
          if (name !== "robots" && name !== agent) break;
          const content = (attributes.content ?? "").toLowerCase();
          if (/\b(?:noindex|none)\b/.test(content)) noindex = true;
          if (/\b(?:nofollow|none)\b/.test(content)) nofollowAll = true;
          break;
        }
        default:
          break;
      }
      return true;
    },
    LINK_TAGS,
  );
  return { links, linksCut, nofollow, canonical, noindex, nofollowAll, usageMeta };
}

/**
 * Keeps a usage `<meta>` unless the same name and content is kept already: a template that
 * repeats `<meta name="robots" content="index, follow">` must not use up the
 * {@link MAX_USAGE_META} places before the tag that says `noai`.
 */
function keepUsageMeta(kept: { name: string; content: string }[], name: string, content: string) {
  if (kept.length >= MAX_USAGE_META) return;
  for (const m of kept) if (m.name === name && m.content === content) return;
  kept.push({ name, content });
}

/** `X-Robots-Tag` header values (`noindex`, `nofollow`, `none`, and `agent: …` forms). */
export function robotsTag(
  header: string | null,
  agent: string,
): { noindex: boolean; nofollow: boolean } {
  let noindex = false;
  let nofollow = false;
  if (header === null) return { noindex, nofollow };
  for (const part of header.split(/,(?=\s*[A-Za-z-]+\s*:)|\n/)) {
    const named = /^\s*([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(part);
    const directives = named && !/^(?:unavailable_after)$/i.test(named[1] ?? "") ? named : null;
    if (directives && (directives[1] ?? "").toLowerCase() !== agent) continue;
    const text = (directives ? (directives[2] ?? "") : part).toLowerCase();
    if (/\b(?:noindex|none)\b/.test(text)) noindex = true;
    if (/\b(?:nofollow|none)\b/.test(text)) nofollow = true;
  }
  return { noindex, nofollow };
}
