/**
 * heed's standard indexing agent: JavaScript (ES2020) that runs in an agent host's sandbox
 * with only the `heed` capability API. It walks the subtree it was sent for and emits, per
 * page, its URL, title, a text digest, content hash, links and lastmod. The host lists and
 * reads only what the site's robots.txt allows to the robot that sent it, so the agent obeys
 * those rules by construction; it also stops at `maxPages` (its state says how many it read).
 *
 * State in: `{ "maxPages"?: number, "digestLength"?: number }`; state out adds
 * `{ "pages", "errors", "truncated" }`.
 */

/** FETCH path at which an agent host serves this code (ATP draft §6.1.3). */
export const INDEXING_AGENT_PATH = "/agents/heed-indexer.js";

/** Pages one agent indexes unless its state says fewer. */
export const DEFAULT_AGENT_MAX_PAGES = 100_000;
/** Characters of visible text kept as a page's digest. */
export const DEFAULT_DIGEST_LENGTH = 280;

export const INDEXING_AGENT_SOURCE = String.raw`"use strict";
(function () {
  const start = heed.getState() || {};
  const maxPages = typeof start.maxPages === "number" ? start.maxPages : ${DEFAULT_AGENT_MAX_PAGES};
  const digestLength = typeof start.digestLength === "number" ? start.digestLength : ${DEFAULT_DIGEST_LENGTH};
  const site = heed.info.site;
  const HTML = /\.(?:html?|xhtml)$/i;
  const TEXT = /\.(?:txt|md|csv|json|xml)$/i;
  let pages = 0;
  let errors = 0;
  let truncated = false;

  const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  function decode(text) {
    return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, function (whole, name) {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
      }
      const known = ENTITIES[name.toLowerCase()];
      return known === undefined ? whole : known;
    });
  }
  function squeeze(text) {
    return text.replace(/\s+/g, " ").trim();
  }
  function visibleText(html) {
    return squeeze(decode(html
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<[^>]*>/g, " ")));
  }
  // RFC 3986 §5.2 reference resolution, enough for hrefs: QuickJS has no URL class.
  function removeDots(path) {
    const out = [];
    const parts = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part === "..") { if (out.length > 1) out.pop(); if (i === parts.length - 1) out.push(""); }
      else if (part === ".") { if (i === parts.length - 1) out.push(""); }
      else out.push(part);
    }
    const joined = out.join("/");
    return joined.startsWith("/") ? joined : "/" + joined;
  }
  function resolve(base, href) {
    href = href.trim();
    const hash = href.indexOf("#");
    if (hash >= 0) href = href.slice(0, hash);
    if (href === "") return null;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return /^https?:/i.test(href) ? href : null;
    const origin = /^([a-z][a-z0-9+.-]*:\/\/[^\/?#]*)/i.exec(base)[1];
    if (href.startsWith("//")) return origin.split("//")[0] + href;
    const query = href.indexOf("?");
    const pathPart = query >= 0 ? href.slice(0, query) : href;
    const search = query >= 0 ? href.slice(query) : "";
    if (pathPart.startsWith("/")) return origin + removeDots(pathPart) + search;
    const basePath = base.slice(origin.length).split("?")[0];
    const dir = basePath.slice(0, basePath.lastIndexOf("/") + 1);
    if (pathPart === "") return origin + basePath + search;
    return origin + removeDots(dir + pathPart) + search;
  }
  function attr(tag, name) {
    const m = new RegExp("\\s" + name + "\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s>]+))", "i").exec(tag);
    return m === null ? null : decode(m[1] !== undefined ? m[1] : m[2] !== undefined ? m[2] : m[3]);
  }
  // <meta name=robots> or one naming the robot that sent the agent: noindex, nofollow, none.
  function metaRobots(html) {
    const robot = heed.info.robot.toLowerCase();
    const out = { noindex: false, nofollow: false };
    const re = /<meta\b[^>]*>/gi;
    let m;
    while ((m = re.exec(html)) !== null) {
      const name = (attr(m[0], "name") || "").toLowerCase();
      if (name !== "robots" && name !== robot) continue;
      const content = (attr(m[0], "content") || "").toLowerCase();
      if (/\b(?:noindex|none)\b/.test(content)) out.noindex = true;
      if (/\b(?:nofollow|none)\b/.test(content)) out.nofollow = true;
    }
    return out;
  }
  function linksOf(html, url) {
    const out = [];
    const seen = {};
    const re = /<(?:a|area|link)\b[^>]*>/gi;
    let m;
    while ((m = re.exec(html)) !== null) {
      const href = attr(m[0], "href");
      if (href === null) continue;
      // rel=nofollow: a polite robot does not follow it; rel=stylesheet and the like are not pages.
      const rel = (attr(m[0], "rel") || "").toLowerCase();
      if (/(?:^|\s)(?:nofollow|stylesheet|icon|preload|prefetch|dns-prefetch|preconnect|manifest)(?:\s|$)/.test(rel)) continue;
      const raw = href;
      const link = resolve(url, raw);
      if (link !== null && !seen[link]) { seen[link] = true; out.push(link); }
    }
    return out;
  }
  function index(path) {
    let page;
    try { page = heed.read(path); } catch (e) { errors++; heed.emit({ type: "error", path: path, error: String(e.message) }); return; }
    pages++;
    const html = HTML.test(path);
    const title = html ? /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(page.text) : null;
    const text = html ? visibleText(page.text) : TEXT.test(path) ? squeeze(page.text) : null;
    const meta = html ? metaRobots(page.text) : { noindex: false, nofollow: false };
    heed.emit({
      type: "page",
      url: page.url,
      title: title === null ? null : squeeze(decode(title[1])),
      digest: text === null ? null : text.slice(0, digestLength),
      sha256: page.sha256,
      links: html && !meta.nofollow ? linksOf(page.text, page.url) : [],
      noindex: meta.noindex,
      nofollow: meta.nofollow,
      lastmod: page.lastmod,
      size: page.size,
    });
  }

  const stack = [heed.info.path];
  while (stack.length > 0 && !truncated) {
    const dir = stack.pop();
    let entries;
    try { entries = heed.list(dir); } catch (e) {
      // Sent for one page rather than a directory: index that page.
      if (dir === heed.info.path && / is not a directory/.test(String(e.message))) { index(dir); continue; }
      errors++; heed.emit({ type: "error", path: dir, error: String(e.message) }); continue;
    }
    const subdirs = [];
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (entry.type === "directory") { subdirs.push(entry.path); continue; }
      if (pages >= maxPages) { truncated = true; break; }
      index(entry.path);
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
  heed.setState({ maxPages: maxPages, digestLength: digestLength, pages: pages, errors: errors, truncated: truncated, site: site });
})();
`;
