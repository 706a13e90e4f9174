/**
 * A generated corpus with the shape of the robots.txt files the web really serves (issue 17's
 * measurements of 2,551 crawled files), where bench/corpus.ts has the shapes of large and
 * unusual files. What it matches:
 *
 *   files 2,551, about 11 MB; file size p10 63 B, median 628 B, p90 6.6 KB, p99 57 KB,
 *   max 877 KB, 44% of bytes in files over 100 KiB; lines per file median 25, p90 188,
 *   p99 1,182; line length mean 38, median 25, p90 65; lines: 66% Allow/Disallow (20% of them
 *   with `*` or `$`), 4% User-agent, 3% comments, 9% blank, 17% other keys; 137 HTML pages;
 *   50 queries a file from the file's own rules, crawled-looking URLs and common paths.
 *
 * Deterministic: the same seed gives the same bytes everywhere (bench/corpus.ts's Rng).
 */
import { type CorpusFile, type Query, Rng } from "./corpus.js";

export const WEB_FILES = 2551;
const HTML_FILES = 137;
const QUERIES_PER_FILE = 50;
export const WEB_SEED = 0x17_2026;

const AGENTS_SEEN = [
  "Googlebot",
  "Googlebot-Image",
  "bingbot",
  "Slurp",
  "Baiduspider",
  "YandexBot",
  "AhrefsBot",
  "SemrushBot",
  "MJ12bot",
  "DotBot",
  "GPTBot",
  "CCBot",
  "Applebot",
  "facebookexternalhit",
  "PetalBot",
  "Bytespider",
  "Mediapartners-Google",
  "AdsBot-Google",
  "ia_archiver",
  "BLEXBot",
];
const QUERY_AGENTS = ["Googlebot", "bingbot", "Googlebot-Image", "NovaCrawler/1.4", "GPTBot"];

const DIRS = [
  "wp-admin",
  "wp-includes",
  "cgi-bin",
  "admin",
  "search",
  "cart",
  "checkout",
  "account",
  "login",
  "private",
  "tmp",
  "includes",
  "modules",
  "themes",
  "user",
  "api",
  "catalog",
  "product",
  "category",
  "tag",
  "media",
  "images",
  "static",
  "node",
  "comment",
  "print",
  "feed",
  "archive",
  "en",
  "de",
  "fr",
  "es",
  "index.php",
  "core",
  "profiles",
  "scripts",
];
const WORDS = [
  "report",
  "summer",
  "sale",
  "news",
  "contact",
  "about",
  "help",
  "faq",
  "terms",
  "privacy",
  "list",
  "view",
  "edit",
  "compare",
  "wishlist",
  "review",
  "download",
  "page",
  "filter",
  "sort",
];
const PARAMS = ["sort", "filter", "page", "sessionid", "ref", "utm_source", "q", "color", "size"];
const OTHER_KEYS: readonly (readonly [string, (rng: Rng, origin: string) => string])[] = [
  [
    "Sitemap",
    (rng, origin) =>
      `${origin}/${rng.pick(["sitemap", "sitemap_index", "post-sitemap", "page-sitemap"])}${rng.int(0, 3) === 0 ? rng.int(1, 40) : ""}.xml`,
  ],
  ["Crawl-delay", (rng) => String(rng.pick([1, 2, 5, 10, 0.5, 30]))],
  ["Host", (_rng, origin) => origin.replace(/^https?:\/\//, "")],
  ["Clean-param", (rng) => `${rng.pick(PARAMS)}&${rng.pick(PARAMS)} /${rng.pick(DIRS)}/`],
  ["Noindex", (rng) => `/${rng.pick(DIRS)}/`],
  ["Request-rate", (rng) => `1/${rng.int(1, 10)}s`],
  ["Visit-time", () => "0400-0845"],
  ["Content-Signal", () => "search=yes, ai-train=no"],
];
const COMMENTS = [
  "# robots.txt",
  "# See https://www.robotstxt.org/robotstxt.html",
  "# Block crawlers from the admin area",
  "#",
  "# Directories",
  "# Files",
  "# Paths (clean URLs)",
  "# Paths (no clean URLs)",
  "# This file is to prevent the crawling and indexing of certain parts of your site.",
  "# ---------------------------------------------------------------",
];

/** Standard normal by Box-Muller, from two draws. */
function normal(rng: Rng): number {
  const u = Math.max(rng.float(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

/** Log-normal line count with the measured median 25 and p90 188. */
function lineCount(rng: Rng): number {
  const n = Math.round(Math.exp(Math.log(25) + 1.45 * normal(rng)));
  return Math.min(Math.max(n, 1), 1500);
}

/** A path of the length real rules have: median about 15 characters after the key. */
function path(rng: Rng): string {
  const r = rng.float();
  if (r < 0.05) return "/";
  if (r < 0.25) return `/${rng.pick(DIRS)}/`;
  if (r < 0.5)
    return `/${rng.pick(DIRS)}/${rng.pick(WORDS)}${rng.pick(["", "/", ".php", ".html"])}`;
  if (r < 0.72)
    return `/${rng.pick(DIRS)}/${rng.pick(DIRS)}/${rng.pick(WORDS)}-${rng.int(1, 999)}/`;
  // The long tail: deep paths and product pages.
  return `/${rng.pick(DIRS)}/${rng.pick(WORDS)}/${rng.pick(WORDS)}-${rng.pick(WORDS)}-${rng.pick(WORDS)}-${rng.pick(WORDS)}-${rng.int(1000, 99999)}/${rng.pick(WORDS)}-${rng.pick(WORDS)}.html`;
}

function wildcardPath(rng: Rng): string {
  const r = rng.float();
  if (r < 0.3) return `/*?${rng.pick(PARAMS)}=`;
  if (r < 0.5) return `/*${rng.pick([".pdf$", ".php$", ".json$", ".xml$", ".js$", ".css$"])}`;
  if (r < 0.7) return `/${rng.pick(DIRS)}/*/${rng.pick(WORDS)}`;
  if (r < 0.85) return `/*/${rng.pick(DIRS)}/*`;
  return `/${rng.pick(DIRS)}/*?*${rng.pick(PARAMS)}=*`;
}

function keyForm(rng: Rng, canonical: string): string {
  const r = rng.float();
  if (r < 0.85) return canonical;
  if (r < 0.95) return canonical.toLowerCase();
  return canonical.toUpperCase();
}

interface Written {
  readonly text: string;
  readonly patterns: readonly string[];
  readonly agents: readonly string[];
}

/** A robots.txt of `lines` lines in the measured mix of kinds. */
function robotsFile(rng: Rng, origin: string, lines: number): Written {
  const out: string[] = [];
  const patterns: string[] = [];
  const agents: string[] = [];
  const agent = (value: string): void => {
    out.push(`${keyForm(rng, "User-agent")}: ${value}`);
    agents.push(value);
  };
  agent(rng.chance(0.8) ? "*" : rng.pick(AGENTS_SEEN));
  const sep = rng.chance(0.9) ? ": " : ":";
  while (out.length < lines) {
    const r = rng.float();
    if (r < 0.72) {
      const wild = rng.chance(0.2);
      const value = wild ? wildcardPath(rng) : path(rng);
      const allow = rng.chance(0.12);
      out.push(`${keyForm(rng, allow ? "Allow" : "Disallow")}${sep}${value}`);
      patterns.push(value);
    } else if (r < 0.75) {
      // A new group: often after a blank line, sometimes several agents in a row.
      if (rng.chance(0.5)) out.push("");
      agent(rng.chance(0.3) ? "*" : rng.pick(AGENTS_SEEN));
      if (rng.chance(0.2)) agent(rng.pick(AGENTS_SEEN));
    } else if (r < 0.78) {
      out.push(rng.pick(COMMENTS));
    } else if (r < 0.855) {
      out.push("");
    } else {
      const [key, value] = rng.pick(OTHER_KEYS);
      out.push(`${key}: ${value(rng, origin)}`);
    }
  }
  const end = rng.chance(0.1) ? "\r\n" : "\n";
  return { text: out.join(end) + end, patterns, agents };
}

/** An HTML page served as robots.txt (a soft 404, a CMS page). */
function htmlPage(rng: Rng): Written {
  const parts = [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${rng.pick(WORDS)} | Example</title>`,
    '<link rel="stylesheet" href="/static/css/site.css"><script src="/static/js/app.js"></script>',
    "</head><body>",
  ];
  for (let i = rng.int(10, 300); i > 0; i--) {
    parts.push(
      `<div class="row"><a href="/${rng.pick(DIRS)}/${rng.pick(WORDS)}">${rng.pick(WORDS)} ${rng.pick(WORDS)}</a></div>`,
    );
  }
  parts.push("</body></html>");
  return { text: `${parts.join("\n")}\n`, patterns: [], agents: [] };
}

function queryPath(rng: Rng, patterns: readonly string[]): string {
  const r = rng.float();
  if (r < 0.5 && patterns.length > 0) {
    // From the file's own rules: the pattern with its wildcards filled in, often extended.
    let p = rng.pick(patterns).replace(/\$$/, "");
    p = p.replace(/\*/g, () =>
      rng.pick(["", rng.pick(WORDS), `${rng.pick(DIRS)}/${rng.pick(WORDS)}`]),
    );
    if (rng.chance(0.6))
      p += rng.pick([rng.pick(WORDS), `${rng.pick(WORDS)}.html`, `?${rng.pick(PARAMS)}=1`]);
    return p.startsWith("/") ? p : `/${p}`;
  }
  if (r < 0.85) {
    // Crawled-looking URLs.
    const q = rng.chance(0.3)
      ? `?${rng.pick(PARAMS)}=${rng.int(1, 500)}&${rng.pick(PARAMS)}=${rng.pick(WORDS)}`
      : "";
    return `/${rng.pick(DIRS)}/${rng.pick(WORDS)}-${rng.pick(WORDS)}-${rng.int(1, 99999)}${rng.pick(["", "/", ".html"])}${q}`;
  }
  return rng.pick([
    "/",
    "/index.html",
    "/favicon.ico",
    "/robots.txt",
    "/sitemap.xml",
    "/about/",
    "/contact",
    "/wp-login.php",
    "/search?q=x",
  ]);
}

const utf8 = new TextEncoder();

/** The corpus: {@link WEB_FILES} files, deterministic for a seed. */
export function buildWebCorpus(seed = WEB_SEED, files = WEB_FILES): CorpusFile[] {
  const root = new Rng(seed);
  const corpus: CorpusFile[] = [];
  // The HTML pages are spread through the corpus, as a crawl meets them.
  const htmlEvery = Math.floor(files / HTML_FILES);
  // 44% of the bytes are in files over 100 KiB: a few very long files, as big sites serve.
  for (let i = 0; i < files; i++) {
    const rng = root.fork();
    const origin = `https://${rng.chance(0.7) ? "www." : ""}site-${i}.example`;
    const isHtml = i % htmlEvery === htmlEvery - 1 && Math.floor(i / htmlEvery) < HTML_FILES;
    const big = !isHtml && i % 130 === 13;
    const written = isHtml
      ? htmlPage(rng)
      : robotsFile(
          rng,
          origin,
          big ? (i === 13 ? 26_000 : rng.logInt(3000, 17000)) : lineCount(rng),
        );
    const queries: Query[] = [];
    for (let q = 0; q < QUERIES_PER_FILE; q++) {
      queries.push({
        agent: rng.pick(QUERY_AGENTS),
        url: origin + queryPath(rng, written.patterns),
      });
    }
    corpus.push({
      name: `site-${i}`,
      kind: isHtml ? "html" : big ? "huge" : "hand-written",
      origin,
      robotsUrl: `${origin}/robots.txt`,
      bytes: utf8.encode(written.text),
      traits: [],
      queries,
    });
  }
  return corpus;
}

/** The statistics issue 17 gives, measured on a corpus, for printing beside the aims. */
export function corpusShape(corpus: readonly CorpusFile[]): Record<string, string> {
  const sizes = corpus.map((f) => f.bytes.length).sort((a, b) => a - b);
  const q = (sorted: readonly number[], p: number): number =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  const total = sizes.reduce((a, b) => a + b, 0);
  const big = sizes.filter((s) => s > 100 * 1024).reduce((a, b) => a + b, 0);
  const lineCounts: number[] = [];
  const lengths: number[] = [];
  const kinds = { rule: 0, wild: 0, agent: 0, comment: 0, blank: 0, other: 0 };
  const decoder = new TextDecoder();
  for (const f of corpus) {
    const lines = decoder.decode(f.bytes).split(/\r\n|\n|\r/);
    if (lines[lines.length - 1] === "") lines.pop();
    lineCounts.push(lines.length);
    for (const line of lines) {
      lengths.push(line.length);
      const t = line.trim();
      if (t === "") kinds.blank++;
      else if (t.startsWith("#")) kinds.comment++;
      else if (/^(dis)?allow\s*:/i.test(t)) {
        kinds.rule++;
        if (/[*$]/.test(t.slice(t.indexOf(":")))) kinds.wild++;
      } else if (/^user-agent\s*:/i.test(t)) kinds.agent++;
      else kinds.other++;
    }
  }
  lineCounts.sort((a, b) => a - b);
  const n = lengths.length;
  const meanLength = lengths.reduce((a, b) => a + b, 0) / n;
  lengths.sort((a, b) => a - b);
  const pct = (k: number): string => `${Math.round((100 * k) / n)}%`;
  return {
    files: String(corpus.length),
    MB: (total / 1e6).toFixed(1),
    "size p10/median/p90/p99/max": `${q(sizes, 0.1)} B / ${q(sizes, 0.5)} B / ${(q(sizes, 0.9) / 1000).toFixed(1)} KB / ${(q(sizes, 0.99) / 1000).toFixed(0)} KB / ${(q(sizes, 1) / 1000).toFixed(0)} KB`,
    "bytes in files > 100 KiB": `${Math.round((100 * big) / total)}%`,
    "lines/file median/p90/p99": `${q(lineCounts, 0.5)} / ${q(lineCounts, 0.9)} / ${q(lineCounts, 0.99)}`,
    "line length mean/median/p90": `${meanLength.toFixed(0)} / ${q(lengths, 0.5)} / ${q(lengths, 0.9)}`,
    "rules/agent/comment/blank/other": `${pct(kinds.rule)} (${Math.round((100 * kinds.wild) / Math.max(kinds.rule, 1))}% wild) / ${pct(kinds.agent)} / ${pct(kinds.comment)} / ${pct(kinds.blank)} / ${pct(kinds.other)}`,
    "HTML pages": String(corpus.filter((f) => f.kind === "html").length),
  };
}
