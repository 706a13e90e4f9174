// Fuzzing /data.txt in both forms (YAML, list and mapping; the seeds/002 draft): no exception
// escapes, the output is bounded by the limits and the input, and a YAML list read entry by
// entry (yaml-scan.ts) means what the same document read whole means.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseDocument } from "yaml";
import { MAX_ENTRIES, readDataTxt } from "../../src/protocol/datasets/index.js";
import { readYamlForm } from "../../src/protocol/datasets/yaml-form.js";
import { HANG_GUARD_MS, anyText, fuzz, lineCount, pieceOf, textOf } from "./kit.js";

const YAML_WORDS = [
  "- path: a.csv",
  "- path: /b/",
  "- path: [c.csv, d.csv]",
  "- path:",
  "  - e.csv",
  "path: f.csv",
  "path: [g.csv]",
  "  name: x",
  "  description: it's, [fine] # not a comment?",
  '  description: "quoted\\n- not an item"',
  "  description: |",
  "    - inside a block",
  "  rows: 12",
  "  rows: many",
  "  cols: 3",
  "  columns:",
  "    a: int",
  "    b: [x]",
  "  columns: {a: int, b: string}",
  "  metadata:",
  "    license: CC0",
  "  license: CC-BY-4.0",
  "  &anchor path: h.csv",
  "- *anchor",
  "- !!str i.csv",
  "---",
  "...",
  "%YAML 1.2",
  "# comment",
  "[",
  "]",
  "{",
  "}",
  "- - nested",
  "-",
  "'",
  '"',
  "\t",
  "- path: //evil.example/x",
  "- path: https://data.example/ok.csv",
];
const DRAFT_WORDS = [
  "User-agent: *",
  "User-agent: heed",
  "Allow: /a.csv",
  "Allow: /dir/",
  "Disallow: /dir",
  "Disallow:",
  "Name: x",
  "License: CC0",
  "Sitemap: /sm.xml",
  "# c",
  "",
];
const yamlText = textOf(pieceOf(YAML_WORDS, 8), ["\n", "\n", "\r\n", " ", ""]);
const draftText = textOf(pieceOf(DRAFT_WORDS, 8), ["\n", "\r\n", "\r"]);
const URL_ = "https://data.example/data.txt";

describe("fuzz: data.txt", () => {
  it(
    "either form, any form asked for: no exception, entries and findings bounded",
    { timeout: HANG_GUARD_MS },
    () => {
      const input = fc.oneof(yamlText, draftText, anyText(200));
      const form = fc.constantFrom("auto" as const, "yaml" as const, "draft" as const);
      fuzz(fc.tuple(input, form), ([text, asked]) => {
        const read = readDataTxt(text, { url: URL_, form: asked });
        const lines = lineCount(text);
        assert.ok(read.entries.length <= Math.min(MAX_ENTRIES, 1000 * lines));
        assert.ok(
          read.diagnostics.length <= 8 * lines + 16,
          `${read.diagnostics.length} for ${lines} lines`,
        );
        for (const e of read.entries) assert.ok(e.urls.length >= 1);
      });
    },
  );

  it("bytes: no exception", { timeout: HANG_GUARD_MS }, () => {
    fuzz(fc.uint8Array({ maxLength: 2_000 }), (bytes) => {
      readDataTxt(bytes, { url: URL_ });
    });
  });

  it(
    "a YAML list read entry by entry means what it means read whole",
    { timeout: HANG_GUARD_MS },
    () => {
      fuzz(yamlText, (text) => {
        if (
          parseDocument(text, { schema: "failsafe", uniqueKeys: true, strict: true }).errors
            .length > 0
        )
          return;
        const context = { fileUrl: URL_, knownSite: true };
        const split = readYamlForm(text, context);
        const whole = readYamlForm(text, context, { split: false });
        const view = (r: typeof split) =>
          r.entries.map((e) => [e.path, e.urls, e.name, e.description, e.rows, e.columns, e.line]);
        assert.deepEqual(view(split), view(whole));
      });
    },
  );
});
