// The fast REGP scan (regp/scan.ts) that parseRobots uses for REGP must read every file as the
// line reader plus layOut do: the same header, sequences, blocks, targets and commands, each
// line's value, text and number, and the same sitemaps. Checked on both benchmark corpora and
// on random text built from the pieces REGP lines are made of.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildCorpus } from "../../../../bench/corpus.js";
import { buildWebCorpus } from "../../../../bench/web-corpus.js";
import { sitemapsAndExtensions } from "../../../../src/protocol/robots/groups.js";
import { decode, readRobotsText } from "../../../../src/protocol/robots/line-reader.js";
import { MAX_LINE_LENGTH, MAX_ROBOTS_BYTES } from "../../../../src/protocol/robots/limits.js";
import { REGP_FIELDS } from "../../../../src/protocol/robots/regp/document.js";
import {
  type Directive,
  layOut,
  layOutSource,
  type RegpLayout,
} from "../../../../src/protocol/robots/regp/layout.js";
import { RegpLines } from "../../../../src/protocol/robots/regp/scan.js";
import { scanProperties } from "../scan-properties.js";

const FIELDS = new Set(REGP_FIELDS.map((f) => f.toLowerCase()));

/**
 * The layout without its diagnostics (the scan builds none: lint reads the file in full), a
 * key that is no Table 3 field written as "" (nothing reads its spelling: it is no command).
 */
function shape(layout: RegpLayout): string {
  // `at`, where the table found the text, is the scan's alone.
  const d = (x: Directive) => ({ ...x, key: FIELDS.has(x.key) ? x.key : "", at: undefined });
  return JSON.stringify({ ...layout, diagnostics: [] }, (_, v: unknown) =>
    v !== null && typeof v === "object" && "key" in v && "text" in v ? d(v as Directive) : v,
  );
}

function assertSame(input: string | Uint8Array, label: string): void {
  const full = readRobotsText(input, { commentStyle: "double-hash" });
  const lines = RegpLines.scan(decode(input, MAX_ROBOTS_BYTES).text);
  assert.equal(shape(layOutSource(lines)), shape(layOut(full.lines)), label);
  assert.deepEqual(lines.sitemaps, sitemapsAndExtensions(full.lines).sitemaps, label);
}

describe("the fast REGP scan reads as the line reader does", () => {
  it("every file of the web-shaped benchmark corpus, read as REGP", () => {
    for (const f of buildWebCorpus(0x5ca7, 400)) assertSame(f.bytes, f.name);
  });
  it("every file of the large-files benchmark corpus (BOM, Latin-1, CR, misspellings, no colon, long lines, over the limit)", () => {
    for (const f of buildCorpus()) assertSame(f.bytes, f.name);
  });

  const PIECES = [
    "Robot-version",
    "Last-modified",
    "User-agent",
    "useragent",
    "User agent",
    "Ip-allow",
    "IP-Disallow",
    "ip allow",
    "Allow",
    "DISALLOW",
    "dissallow",
    "Disallow /x",
    "Sitemap",
    "site-map",
    "Crawl-delay",
    "Visit-time",
    "Time-forbidden",
    "Request-rate",
    "Index-page",
    "Change-daily",
    "Host",
    "X-Key",
    ":",
    ": ",
    " ",
    "\t",
    "\u00a0",
    "\ufeff",
    "\u2003",
    "#",
    "##",
    "## c",
    "{",
    "}",
    " {",
    "} ",
    "/",
    "/a#b",
    "*",
    "$",
    "bot",
    "3.0",
    "10.0.0.1",
    "10.0.0.0-10.0.0.9",
    "2200-0600",
    "1/10s",
    "é",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
  ];
  scanProperties(assertSame, PIECES, "REGP");
  it("lines over the length limit, in and out of a brace block", () => {
    const a = "a".repeat(MAX_LINE_LENGTH + 10);
    const long = `Robot-version: 3.0\n\nUser-agent: *\nDisallow: /${a}\n{ Allow: /${a}\nCrawl-delay: 1 ## ${a}\n}\n## ${a}\nSitemap: /${a}\n`;
    assertSame(long, "long lines");
  });
});
