// A /data.txt within the byte limit but built to be costly (issue 14 §2): the reader counts
// values and lines before parsing (yaml-scan.ts, the draft form's line count) and stops at the
// limits, each stop a finding with its line. Work is bounded by counts, never by a clock: each
// test asserts what was read and what was said, for files of up to 8 MiB.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import {
  type DataTxt,
  MAX_DATA_TXT_BYTES,
  MAX_DRAFT_LINES,
  MAX_ENTRIES,
  MAX_ENTRY_VALUES,
  MAX_UNSPLIT_VALUES,
  MAX_YAML_VALUES,
  readDataTxt,
} from "../../src/protocol/datasets/index.js";
import { scanYaml } from "../../src/protocol/datasets/yaml-scan.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";

const URL_ = "https://data.example/data.txt";
const LIMIT = MAX_DATA_TXT_BYTES - 64;
const errors = (d: DataTxt) =>
  d.diagnostics.filter((x) => x.severity === "error").map((x) => [x.code, x.line]);

/** `- path: [a,a,…,a]` filling the byte limit: four million items in one flow list. */
const hugeFlow = (prefix: string): string =>
  `${prefix}[${"a,".repeat((LIMIT - prefix.length - 4) / 2)}a]\n`;

describe("hostile: data.txt within the byte limit, read at bounded cost", () => {
  it("one flow list of four million items: that entry is left out unread, the others stand", () => {
    const text = `- path: first.csv\n${hugeFlow("- path: ")}- path: last.csv\n`;
    assert.ok(Buffer.byteLength(text) <= MAX_DATA_TXT_BYTES);
    const d = readDataTxt(text, { url: URL_ });
    assert.deepEqual(
      d.entries.map((e) => e.path),
      ["first.csv", "last.csv"],
    );
    assert.deepEqual(errors(d), [["entry-size-limit", 2]]);
    assert.match(
      d.diagnostics[0]?.message ?? "",
      new RegExp(`more than ${MAX_ENTRY_VALUES} values`),
    );
  });

  it("a mapping or flow document of millions of values is refused whole, unparsed", () => {
    for (const text of [hugeFlow("path: "), hugeFlow("")]) {
      const d = readDataTxt(text, { url: URL_ });
      assert.deepEqual(d.entries, []);
      assert.deepEqual(errors(d), [["value-limit", null]]);
      assert.match(d.diagnostics[0]?.message ?? "", new RegExp(`${MAX_UNSPLIT_VALUES} values`));
    }
  });

  it(`800,000 one-line entries: ${MAX_ENTRIES} read, the stop said at its line`, () => {
    const text = "- path: a\n".repeat(LIMIT / 10);
    const d = readDataTxt(text, { url: URL_ });
    assert.equal(d.entries.length, MAX_ENTRIES);
    assert.deepEqual(errors(d), [["entry-limit", MAX_ENTRIES + 1]]);
  });

  it("800,000 one-line entries: the scan keeps the places of the entries read, and counts all", () => {
    // Three arrays of 800,000 places were the largest part of reading such a file.
    const text = "- path: a\n".repeat(Math.floor(LIMIT / 10));
    const all = scanYaml(text);
    const kept = scanYaml(text, MAX_ENTRIES + 1);
    assert.equal(all.starts?.length, Math.floor(LIMIT / 10));
    assert.equal(kept.starts?.length, MAX_ENTRIES + 1);
    assert.equal(kept.lines.length, MAX_ENTRIES + 1);
    assert.equal(kept.values.length, MAX_ENTRIES + 1);
    assert.equal(kept.total, all.total);
    assert.deepEqual(kept.starts, all.starts?.slice(0, MAX_ENTRIES + 1));
    assert.deepEqual(kept.values, all.values.slice(0, MAX_ENTRIES + 1));
    assert.deepEqual(kept.lines, all.lines.slice(0, MAX_ENTRIES + 1));
    // Fewer entries than kept: the same scan either way.
    const few = "- path: a\n  name: x\n".repeat(50);
    assert.deepEqual(scanYaml(few, MAX_ENTRIES + 1), scanYaml(few));
    assert.deepEqual(scanYaml(few, 50), scanYaml(few));
    const cut = scanYaml(few, 3);
    assert.deepEqual(
      [cut.starts, cut.values, cut.total],
      [scanYaml(few).starts?.slice(0, 3), scanYaml(few).values.slice(0, 3), scanYaml(few).total],
    );
  });

  it(`MAX_YAML_VALUES (${MAX_YAML_VALUES}): entries past it are not read, and that is said`, () => {
    // Each entry just within MAX_ENTRY_VALUES: 4,001 items and their commas.
    const one = `- path: [${"a,".repeat(4_000)}a]\n`;
    const text = one.repeat(Math.floor(LIMIT / one.length));
    const perEntry = scanYaml(one).total;
    assert.ok(perEntry <= MAX_ENTRY_VALUES, `${perEntry} values in one entry`);
    const d = readDataTxt(text, { url: URL_ });
    const readable = Math.floor(MAX_YAML_VALUES / perEntry);
    assert.equal(d.entries.length, readable);
    const codes = errors(d).map(([code]) => code);
    assert.equal(codes.filter((c) => c === "value-limit").length, 1);
    const stop = d.diagnostics.find((x) => x.code === "value-limit");
    assert.equal(stop?.line, readable + 1);
  });

  it(`the draft form: ${MAX_DRAFT_LINES} lines read, the rest not, and that is said`, () => {
    const text = `User-agent: *\n${"Allow: /a\n".repeat(LIMIT / 10 - 2)}`;
    const d = readDataTxt(text, { url: URL_ });
    assert.equal(d.form, "draft");
    assert.equal(d.entries.length, MAX_ENTRIES);
    const stop = d.diagnostics.find((x) => x.code === "line-limit");
    assert.equal(stop?.line, MAX_DRAFT_LINES + 1);
  });

  it("entries read one by one mean what the whole document means", () => {
    // Structure hidden in quotes, block scalars, comments and plain scalars must not cut an
    // entry, and an entry cut must not change what the others say.
    const CASES = [
      '- path: a.csv\n  description: "two\n   - lines, [x"\n- path: b.csv\n',
      "- path: a.csv\n  description: |\n    - not an item\n    [ not a list\n- path: b.csv\n",
      "# a comment\n- path: a.csv  # inline\n  title: x [y, z\n- path: b.csv\n",
      "---\n- path: a.csv\n  description: it's, [fine] ok\n-   path: b.csv\n",
      "%YAML 1.2\n---\n- {path: a.csv, title: '- x'}\n- path: [b.csv, c.csv]\n",
      "- path: a.csv\r\n- path: b.csv\r\n",
      "- path: 'a.csv'\n  description: >\n\n    folded\n\n- path: b.csv\n",
    ];
    for (const text of CASES) {
      const d = readDataTxt(text, { url: URL_ });
      const expected = (parse(text) as { path: unknown }[]).map((e) => e.path);
      assert.deepEqual(
        d.entries.map((e) => e.path),
        expected,
        JSON.stringify(text),
      );
      assert.notEqual(scanYaml(text).starts, null, `read entry by entry: ${JSON.stringify(text)}`);
    }
    // Line numbers are the file's, not the entry's.
    const d = readDataTxt("- path: a.csv\n\n- path: //evil.example/x\n", { url: URL_ });
    assert.equal(d.diagnostics.find((x) => x.code === "outside-site")?.line, 3);
  });

  it("a syntax error in any entry still means no entries", () => {
    const d = readDataTxt("- path: a.csv\n- path: b.csv\n  title: [unclosed\n- path: c.csv\n", {
      url: URL_,
    });
    assert.deepEqual(d.entries, []);
    assert.ok(d.diagnostics.some((x) => x.code === "yaml-unreadable"));
  });

  describe("heed lint --kind data", () => {
    let temp: Awaited<ReturnType<typeof tempDir>>;
    before(async () => {
      temp = await tempDir("heed-hostile-datatxt-");
    });
    after(async () => {
      await temp.cleanup();
    });

    it("an 8 MB flow list is a finding, not minutes of work", async () => {
      const file = join(temp.dir, "data.txt");
      await writeFile(file, hugeFlow("- path: "));
      const result = await runCli(["lint", file, "--kind", "data"], { timeoutMs: 60_000 });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /entry-size-limit/);
    });
  });
});
