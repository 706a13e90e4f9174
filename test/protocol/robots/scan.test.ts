// The fast scan (scan.ts) that parseRobots uses for Koster 1996 and RFC 9309 must read every
// file as the line reader plus buildGroups do: same groups, agents, rules, delays, sitemaps and
// extension lines. Checked on both benchmark corpora (real-world shapes and dirt) and on
// random text built from the pieces robots.txt lines are made of.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildCorpus } from "../../../bench/corpus.js";
import { buildWebCorpus } from "../../../bench/web-corpus.js";
import { decode } from "../../../src/protocol/robots/line-reader.js";
import { buildGroups, type Grouping } from "../../../src/protocol/robots/groups.js";
import { parseRobots, readRobotsText } from "../../../src/protocol/robots/index.js";
import { MAX_LINE_LENGTH, MAX_ROBOTS_BYTES } from "../../../src/protocol/robots/limits.js";
import { scanGroups } from "../../../src/protocol/robots/scan.js";
import { scanProperties } from "./scan-properties.js";

const PATTERNS = { wildcards: true, ignoreCase: false } as const;

function shape(grouping: Grouping): unknown {
  return {
    groups: grouping.groups.map((g) => ({
      agents: g.agents,
      rules: g.rules.map((r) => [r.allow, r.source, r.line, r.text]),
      delay: [g.crawlDelay, g.crawlDelayLine],
      extensions: g.extensions.map((l) => [l.number, l.key, l.value]),
    })),
    sitemaps: grouping.sitemaps,
    extensions: grouping.extensions.map((l) => [l.number, l.kind, l.key, l.value, l.text]),
  };
}

function assertSame(input: string | Uint8Array, label: string): void {
  const full = buildGroups(readRobotsText(input, { commentStyle: "hash" }).lines, PATTERNS);
  const fast = scanGroups(decode(input, MAX_ROBOTS_BYTES).text, PATTERNS);
  assert.deepEqual(shape(fast), shape(full), label);
}

describe("fast scan reads as the line reader does", () => {
  it("every file of the web-shaped benchmark corpus", () => {
    for (const f of buildWebCorpus(0x5ca7, 400)) assertSame(f.bytes, f.name);
  });
  it("every file of the large-files benchmark corpus (BOM, Latin-1, CR, misspellings, no colon, long lines, over the limit)", () => {
    for (const f of buildCorpus()) assertSame(f.bytes, f.name);
  });

  const PIECES = [
    "User-agent",
    "user-agent",
    "USER-AGENT",
    "useragent",
    "User agent",
    "Allow",
    "allow",
    "Disallow",
    "DISALLOW",
    "dissallow",
    "Sitemap",
    "Crawl-delay",
    "crawl delay",
    "Robot-version",
    "Host",
    "X-Key",
    ":",
    ": ",
    " ",
    "\t",
    "\u00a0",
    "\ufeff",
    "\u2003",
    "\u000b",
    "#",
    "# c",
    "/",
    "/a",
    "*",
    "$",
    "bot",
    "MJ12bot*",
    "2.5",
    "x",
    "é",
    "\n",
    "\r\n",
    "\r",
    "{",
  ];
  scanProperties(assertSame, PIECES, "robots.txt");
  it("every text of up to four pieces of line ends, blanks and rule keys cut short", () => {
    // The scan knows CRLF from its own LF and CR searches, reads a line's first character once
    // and compares `Disallow:` and `Allow:` a character at a time: each at the text's end, a
    // line's end and a key cut anywhere.
    const edges = [
      "Disallow:",
      "Allow:",
      "Disallo",
      "Allow",
      "A",
      "D",
      " ",
      "\t",
      "\r",
      "\n",
      "/x",
      "User-agent: a",
    ];
    let texts = [""];
    for (let n = 0; n < 4; n++) {
      texts = texts.flatMap((t) => [t, ...edges.map((e) => t + e)]);
    }
    for (const text of new Set(texts)) assertSame(text, JSON.stringify(text));
  });

  it("every text of up to three hostile pieces around the keys the scan compares in place", () => {
    // NUL, BOMs, U+FFFD, blanks only `trim` knows, look-alike letters, keys in other cases.
    const hostile = [
      "Disallow:",
      "Allow:",
      "D\u0131sallow:",
      "DISALLOW:",
      "User-agent:",
      "\ufeff",
      "\u0000",
      "\ufffd",
      "\u00a0",
      "\u2028",
      "\r",
      "\n",
      " ",
      "/x",
    ];
    let texts = [""];
    for (let n = 0; n < 3; n++) texts = texts.flatMap((t) => [t, ...hostile.map((h) => t + h)]);
    for (const text of new Set(texts)) assertSame(text, JSON.stringify(text));
  });

  it("bytes that are not UTF-8, a BOM and characters cut short, before and after the keys", () => {
    const encode = (s: string): number[] => [...new TextEncoder().encode(s)];
    const pieces = [
      encode("Disallow:"),
      encode("Allow:/a"),
      encode("User-agent: *"),
      [0xef, 0xbb, 0xbf],
      [0xff],
      [0xc3],
      [0xe2, 0x80],
      [0xf0, 0x9f, 0x98],
      [0x0d],
      [0x0a],
    ];
    let inputs: number[][] = [[]];
    for (let n = 0; n < 4; n++)
      inputs = inputs.flatMap((t) => [t, ...pieces.map((p) => [...t, ...p])]);
    for (const bytes of inputs) assertSame(new Uint8Array(bytes), JSON.stringify(bytes));
  });

  it("a line over the length limit is read as the line reader reads it", () => {
    const long = `User-agent: *\nDisallow: /${"a".repeat(MAX_LINE_LENGTH + 10)}\nAllow: /${"b".repeat(MAX_LINE_LENGTH)}\n# ${"c".repeat(MAX_LINE_LENGTH)}\nDisallow: /x # ${"d".repeat(MAX_LINE_LENGTH)}\n`;
    assertSame(long, "long lines");
  });

  it("long runs of lines without a colon, a `#` or a CR before the one that has it", () => {
    // The scan keeps the next of each character it looks for until it is passed: each search
    // starts where the last one ended, and a file of 480 KiB of bare lines reads in one pass.
    const bare = "word\n".repeat(32_000);
    const text = `User-agent: *\n${bare}Disallow: /x # c\r\n${bare}Allow: /y\r${bare}Disallow: /z\n`;
    assertSame(text, "bare lines");
    const policy = parseRobots(text);
    assert.deepEqual(
      policy.groups[0]?.rules.map((r) => [r.line, r.text]),
      [
        [32_002, "Disallow: /x"],
        [64_003, "Allow: /y"],
        [96_004, "Disallow: /z"],
      ],
    );
  });

  it("lint sees every diagnostic of a file parseRobots read by the fast scan", () => {
    const text =
      "Disallow: /early\nUser-agent: *\nDisallow x\nDisallow: nope\nCrawl-delay: soon\nfoo bar\n";
    const policy = parseRobots(text);
    const codes = policy.diagnostics.map((d) => d.code).sort();
    assert.deepEqual(codes, [
      "bad-crawl-delay",
      "bad-path",
      "bad-path",
      "invalid-line",
      "missing-colon",
      "rule-outside-group",
    ]);
    assert.equal(policy.text.lines.length, 6);
  });
});
