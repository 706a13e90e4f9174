/**
 * Nesting depth against time, in the same run: heed's readers on flat and on deeply nested
 * documents of the same size, and htmlparser2's Parser (what heed read with before; its
 * open-element stack grows with Array#unshift) on the same deep text.
 *
 * - HTML: `extractLinks` (crawler pages; html-tags.ts, the Tokenizer alone) on a page at the
 *   crawler's 16 MiB body limit, flat (`<div><a href>…</a></div>` repeated) and nested (`<div>`
 *   x n then `</div>` x n); the Parser on nested pages of growing depth, for the curve.
 * - Sitemaps: `parseSitemapText` on a flat 50,000-URL file, on the 2.1 MB file of 300,000 nested
 *   elements (stops at MAX_XML_DEPTH with xml-too-deep), and on the worst case the bound still
 *   reads: every URL holding an extension element nested MAX_XML_DEPTH - 2 deep, so that every
 *   element opened meets the deepest stack the reader allows.
 *
 *   node dist/bench/html-depth.bench.js [--quick]
 *
 * Every loop is bounded by a run count; the Parser runs only at depths it finishes in seconds.
 * Times are medians of CPU time; ratios compare contenders measured in this run.
 */
import { Parser } from "htmlparser2";
import { forEachStartTag } from "../src/crawler/html-tags.js";
import { extractLinks } from "../src/crawler/links.js";
import { MAX_BODY_BYTES } from "../src/net/http-client.js";
import {
  MAX_XML_DEPTH,
  parseSitemapText,
  SITEMAP_NAMESPACE,
} from "../src/protocol/sitemap/index.js";
import { fmt, median, printTable } from "./report.js";

const QUICK = process.argv.includes("--quick");
const RUNS = QUICK ? 3 : 5;

/**
 * Median CPU time of `run`, in ms: the process's own user and system time, so that other work on
 * a shared machine does not count (wall time on a loaded 2-core machine ran up to ten times it).
 */
function time(run: () => void): number {
  const times: number[] = [];
  run(); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    times.push((used.user + used.system) / 1000);
  }
  return median(times);
}

function fill(unit: string, bytes: number): string {
  return unit.repeat(Math.floor(bytes / unit.length));
}

function nestedHtml(depth: number): string {
  return "<div>".repeat(depth) + '<a href="/deepest">x</a>' + "</div>".repeat(depth);
}

function parserLinks(html: string): number {
  let links = 0;
  new Parser(
    {
      onopentag(name) {
        if (name === "a") links++;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  ).end(html);
  return links;
}

// ---- HTML ---------------------------------------------------------------------------------

const pageBytes = QUICK ? 4 * 1024 * 1024 : MAX_BODY_BYTES;
const flatPage = fill('<div><a href="/p">x</a></div>\n', pageBytes);
const deepPage = nestedHtml(Math.floor(pageBytes / 11));
let n = 0;
const distinctPage = (() => {
  const parts: string[] = [];
  let size = 0;
  while (size < pageBytes) {
    const part = `<div><a href="/p/${n++}">x</a></div>\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("");
})();
const mb = (text: string) => text.length / (1024 * 1024);
const pages = [
  ["flat, one href repeated", flatPage],
  [`flat, ${n.toLocaleString("en-US")} distinct hrefs`, distinctPage],
  [`nested ${Math.floor(pageBytes / 11).toLocaleString("en-US")} deep`, deepPage],
] as const;
const pageRows: string[][] = [];
let flatPerMb = 0;
for (const [label, text] of pages) {
  const ms = time(() => extractLinks(text, "https://a.example/", "bot"));
  const perMb = ms / mb(text);
  if (flatPerMb === 0) flatPerMb = perMb;
  pageRows.push([label, fmt(mb(text)), fmt(ms), fmt(perMb), fmt(perMb / flatPerMb, 2)]);
}
printTable(
  `extractLinks on ${fmt(mb(flatPage))} MB pages (the crawler's body limit is ${fmt(MAX_BODY_BYTES / 1048576, 0)} MiB)`,
  ["page", "MB", "CPU ms", "CPU ms per MB", "per MB / first"],
  pageRows,
);

const depths = QUICK ? [5_000, 10_000] : [5_000, 10_000, 20_000];
const rows: string[][] = [];
for (const depth of depths) {
  const html = nestedHtml(depth);
  const parserMs = time(() => parserLinks(html));
  const tagsMs = time(() => forEachStartTag(html, () => undefined));
  rows.push([
    depth.toLocaleString("en-US"),
    fmt(html.length / 1024, 0),
    fmt(parserMs),
    fmt(tagsMs, 2),
    fmt(parserMs / tagsMs, 0),
  ]);
}
printTable(
  "nested <div>: htmlparser2's Parser (before) against the start-tag reader (now), same text",
  ["depth", "KB", "Parser CPU ms", "start tags CPU ms", "Parser / start tags"],
  rows,
);

// ---- Sitemaps -----------------------------------------------------------------------------

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:e="urn:e">\n`;
const url = (i: number, extra = "") =>
  `<url><loc>https://a.example/item-${i}.html</loc><lastmod>2024-05-01</lastmod>${extra}</url>\n`;
const URLS = 50_000;
let flatMap = HEAD;
for (let i = 0; i < URLS; i++) flatMap += url(i);
flatMap += "</urlset>\n";
// Deepest the reader reads: urlset (1) > url (2) > e:x … to MAX_XML_DEPTH.
const levels = MAX_XML_DEPTH - 2;
const deepest = `${"<e:x>".repeat(levels)}${"</e:x>".repeat(levels)}`;
let boundMap = HEAD;
for (let i = 0; i < URLS; i++) boundMap += url(i, deepest);
boundMap += "</urlset>\n";
const nestedMap = `${HEAD}${url(0)}${"<x>".repeat(300_000)}${"</x>".repeat(300_000)}</urlset>\n`;

const mapRows: string[][] = [];
let flatMapPerMb = 0;
for (const [label, text] of [
  ["flat, 50,000 URLs", flatMap],
  [`every URL ${MAX_XML_DEPTH} deep, 50,000 URLs`, boundMap],
  ["300,000 nested (xml-too-deep)", nestedMap],
] as const) {
  let result: ReturnType<typeof parseSitemapText> | null = null;
  const ms = time(() => {
    result = parseSitemapText(text);
  });
  const done = result as ReturnType<typeof parseSitemapText> | null;
  const perMb = ms / mb(text);
  if (flatMapPerMb === 0) flatMapPerMb = perMb;
  mapRows.push([
    label,
    fmt(mb(text)),
    (done?.urls.length ?? 0).toLocaleString("en-US"),
    done?.summary.stoppedBy ?? "-",
    fmt(ms),
    fmt(perMb),
    fmt(perMb / flatMapPerMb, 2),
  ]);
}
printTable(
  "parseSitemapText",
  ["sitemap", "MB", "URLs", "stopped by", "CPU ms", "CPU ms per MB", "per MB / flat"],
  mapRows,
);
