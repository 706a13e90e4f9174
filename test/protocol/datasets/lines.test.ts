// Every finding the /data.txt reader makes names the line a person must mend, and the field
// at fault (docs/data-txt.md). Each case puts its fault on line 5, after a good first entry, and
// is read again with two lines before it (the split reading shifts each entry's lines).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataTxt } from "../../../src/protocol/datasets/index.js";

const GOOD = "- path: /a.csv\n  title: A\n- path: /b.csv\n  title: B\n";

/** [what, text, code, line, the field or value the message names]. */
const YAML_CASES: readonly (readonly [string, string, string, number, RegExp | null])[] = [
  // The yaml package reports these where it gave up (the next line, or the end of the file).
  [
    "an unclosed double quote",
    `${GOOD}  license: "CC0\n- path: /c.csv\n`,
    "yaml-syntax",
    5,
    /quote/,
  ],
  ["an unclosed double quote at the end", `${GOOD}  license: "CC0\n`, "yaml-syntax", 5, /quote/],
  ["an unclosed single quote", `${GOOD}  license: 'CC0\n`, "yaml-syntax", 5, /quote/],
  ["an unclosed flow list", `${GOOD}  rows: [1, 2\n- path: /c.csv\n`, "yaml-syntax", 5, /\]/],
  [
    "an unclosed flow mapping",
    `${GOOD}  columns: {a: int\n- path: /c.csv\n`,
    "yaml-syntax",
    5,
    /\}/,
  ],
  ["a field written twice", `${GOOD}  title: C\n`, "yaml-syntax", 5, /unique/],
  ["a tab as indentation", `${GOOD}\ttitle: C\n`, "yaml-syntax", 5, null],
  [
    "an alias",
    `- path: /a.csv\n  name: &n a\n- path: /b.csv\n  title: B\n  name: *n\n`,
    "yaml-alias",
    5,
    /\*n/,
  ],
  ["an anchor", `${GOOD}  name: &n b\n`, "yaml-anchor", 5, /&n/],
  ["a tag", `${GOOD}  name: !!str b\n`, "yaml-tag", 5, /!!str|tag:yaml/],
  ["a count that is not a number", `${GOOD}  rows: many\n`, "bad-count", 5, /rows/],
  ["a text field given a list", `${GOOD}  description: [a, b]\n`, "bad-field", 5, /description/],
  ["an unknown field", `${GOOD}  colour: red\n`, "unknown-field", 5, /colour/],
  ["a field name in capitals", `${GOOD}  Name: b\n`, "field-case", 5, /Name/],
  [
    "a path list item that is not a path",
    `${GOOD}- path: [/c.csv, {x: y}]\n`,
    "bad-path",
    5,
    /path/,
  ],
  ["a path that is a mapping", `${GOOD}- path: {x: y}\n`, "bad-path", 5, /path/],
  ["columns that are a list", `${GOOD}  columns: [a]\n`, "bad-columns", 5, /columns/],
  ["an entry without a path", `${GOOD}- title: C\n`, "missing-path", 5, /entry 3/],
  ["an entry that is a plain value", `${GOOD}- just text\n`, "bad-entry", 5, /entry 3/],
  [
    "a path on another site",
    `${GOOD}- path: https://other.example/c.csv\n`,
    "outside-site",
    5,
    null,
  ],
  ["a document that is one value", "# a\n# b\n# c\n\nonly text\n", "not-a-list", 5, /single value/],
];

const DRAFT_CASES: readonly (readonly [string, string, string, number, RegExp | null])[] = [
  [
    "a field written twice",
    "User-agent: *\nAllow: /a.csv\nName: a\n# note\nName: b\n",
    "duplicate-field",
    5,
    /Name/,
  ],
  [
    "a field before any User-agent",
    "# a\n# b\n# c\n\nName: a\nUser-agent: *\nAllow: /a.csv\n",
    "field-outside-record",
    5,
    /Name/,
  ],
  [
    "a Sitemap line",
    "User-agent: *\nAllow: /a.csv\n# a\n# b\nSitemap: /s.xml\n",
    "sitemap-line",
    5,
    null,
  ],
  [
    "a record with no Allow",
    "User-agent: *\nAllow: /a.csv\n\n# b\nUser-agent: bot\nDisallow: /\n",
    "no-datasets",
    5,
    /bot/,
  ],
];

function check(text: string, code: string, line: number, names: RegExp | null): void {
  const read = readDataTxt(text, { url: "https://data.example/data.txt" });
  const found = read.diagnostics.find((d) => d.code === code);
  assert.ok(found, `expected ${code}, got ${JSON.stringify(read.diagnostics)}`);
  assert.equal(found.line, line, found.message);
  if (names !== null) assert.match(found.message, names);
}

describe("data.txt findings name their line and field", () => {
  for (const [what, text, code, line, names] of YAML_CASES) {
    it(`YAML: ${what} (${code})`, () => {
      check(text, code, line, names);
      check(`# catalog\n\n${text}`, code, line + 2, names);
    });
  }
  for (const [what, text, code, line, names] of DRAFT_CASES) {
    it(`draft form: ${what} (${code})`, () => {
      check(text, code, line, names);
      check(`# catalog\n\n${text}`, code, line + 2, names);
    });
  }
});
