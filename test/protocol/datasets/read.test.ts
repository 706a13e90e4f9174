// Reading /data.txt in both forms (docs/data-txt.md): the YAML catalog of practice and the
// robots.txt grammar of seeds/002 §3.2-3.3; every limit, every refused construct, and each
// diagnostic naming its line.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type DataTxt,
  detectForm,
  MAX_COLUMNS,
  MAX_DATA_TXT_BYTES,
  MAX_ENTRIES,
  MAX_FILES_PER_ENTRY,
  MAX_YAML_DEPTH,
  offeredTo,
  readDataTxt,
  writeDataTxt,
} from "../../../src/protocol/datasets/index.js";

const URL_ = "https://data.example/data.txt";
const codes = (d: DataTxt): string[] => d.diagnostics.map((x) => x.code);
const find = (d: DataTxt, code: string) => {
  const found = d.diagnostics.find((x) => x.code === code);
  assert.ok(found, `expected a ${code} diagnostic, got ${JSON.stringify(d.diagnostics)}`);
  return found;
};

describe("form detection from the content (seeds/002 §3.1: both forms are text/plain)", () => {
  const TABLE: readonly [string, string, string][] = [
    ["- path: a.csv\n", "yaml", "a list item"],
    ["# catalog\n\n- path: a.csv\n", "yaml", "comments first"],
    ["---\n- path: a.csv\n", "yaml", "a document marker"],
    ["User-agent: *\nAllow: /a.csv\n", "draft", "seeds/002 §3.2: a record starts with User-agent"],
    ["# data\nuser-agent: bot\nallow: /x\n", "draft", "field names are case-insensitive"],
    [
      "Name: census\nUser-agent: *\nAllow: /c.csv\n",
      "draft",
      "an annotation before the first User-agent",
    ],
    ["path: a.csv\nname: x\n", "yaml", "a mapping (read as YAML, then refused as not a list)"],
    ["# only comments\n\n", "empty", "blank lines and comments only"],
    ["", "empty", "nothing"],
  ];
  for (const [text, form, why] of TABLE) {
    it(`${why} → ${form}`, () => assert.equal(detectForm(text).form, form));
  }
});

describe("YAML form", () => {
  const CATALOG = [
    "# the site's data",
    "- path: census/2020.csv",
    "  name: census-2020",
    "  title: Census 2020",
    "  description: One row per district",
    "  license: CC-BY-4.0",
    "  type: csv",
    "  rows: 412",
    "  cols: 3",
    "  columns:",
    "    district: string",
    "    population: int",
    "    area: float",
    "- path: [/parts/a.jsonl, /parts/b.jsonl]",
    "  name: parts",
    "- path: weather/",
    "  title: Weather stations",
    "",
  ].join("\n");

  it("maps every field to a typed entry, resolving paths against the file's URL", () => {
    const d = readDataTxt(CATALOG, { url: URL_ });
    assert.equal(d.form, "yaml");
    assert.deepEqual(d.diagnostics, []);
    assert.equal(d.entries.length, 3);
    const [census, parts, weather] = d.entries;
    assert.deepEqual(census, {
      path: "census/2020.csv",
      urls: ["https://data.example/census/2020.csv"],
      name: "census-2020",
      title: "Census 2020",
      description: "One row per district",
      license: "CC-BY-4.0",
      type: "csv",
      rows: 412,
      cols: 3,
      columns: [
        { name: "district", type: "string" },
        { name: "population", type: "int" },
        { name: "area", type: "float" },
      ],
      extra: {},
      line: 2,
      manifest: false,
      agents: null,
      record: null,
    });
    assert.deepEqual(parts?.urls, [
      "https://data.example/parts/a.jsonl",
      "https://data.example/parts/b.jsonl",
    ]);
    assert.deepEqual(parts?.path, ["/parts/a.jsonl", "/parts/b.jsonl"]);
    assert.equal(weather?.manifest, true, "a folder path is a manifest to follow");
    assert.equal(parts?.manifest, false);
  });

  it("a manifest's relative paths resolve inside its folder", () => {
    const d = readDataTxt("- path: 2021.csv\n- path: /top.csv\n", {
      url: "https://data.example/census/data.txt",
    });
    assert.deepEqual(
      d.entries.map((e) => e.urls[0]),
      ["https://data.example/census/2021.csv", "https://data.example/top.csv"],
    );
  });

  it("scalars stay strings: no dates, floats or booleans are made behind the catalog's back", () => {
    const d = readDataTxt("- path: a.csv\n  name: 2020-01-01\n  title: yes\n  license: 1.0\n", {
      url: URL_,
    });
    const e = d.entries[0];
    assert.equal(e?.name, "2020-01-01");
    assert.equal(e?.title, "yes");
    assert.equal(e?.license, "1.0");
  });

  it("malformed YAML: a clear diagnostic with its line, and no entry read", () => {
    const d = readDataTxt("- path: a.csv\n  name: [unclosed\n- path: b.csv\n", { url: URL_ });
    const syntax = find(d, "yaml-syntax");
    assert.equal(syntax.severity, "error");
    assert.ok(syntax.line !== null && syntax.line >= 2, `line ${syntax.line}`);
    assert.ok(codes(d).includes("yaml-unreadable"));
    assert.deepEqual(d.entries, []);
  });

  it("duplicate keys are an error (a second `path` would silently win otherwise)", () => {
    const d = readDataTxt("- path: a.csv\n  path: b.csv\n", { url: URL_ });
    assert.equal(find(d, "yaml-syntax").line, 2);
  });

  it("anchors and aliases: the entries using them are left out, the rest stand", () => {
    const text = [
      "- path: a.csv",
      "  license: &l CC0",
      "- path: b.csv",
      "  license: *l",
      "- path: c.csv",
      "",
    ].join("\n");
    const d = readDataTxt(text, { url: URL_ });
    assert.deepEqual(
      d.entries.map((e) => e.path),
      ["c.csv"],
    );
    assert.equal(find(d, "yaml-anchor").line, 2);
    assert.equal(find(d, "yaml-alias").line, 4);
    const refused = d.diagnostics.filter((x) => x.code === "entry-refused");
    assert.deepEqual(
      refused.map((x) => x.line),
      [1, 3],
    );
    assert.match(refused[0]?.message ?? "", /anchor/);
  });

  it("tags, standard or custom, are refused with their line", () => {
    const d = readDataTxt(
      "- path: a.csv\n  rows: !!int 3\n- path: !custom b.csv\n- path: c.csv\n",
      {
        url: URL_,
      },
    );
    const tags = d.diagnostics.filter((x) => x.code === "yaml-tag");
    assert.deepEqual(
      tags.map((x) => x.line),
      [2, 3],
    );
    assert.match(tags[1]?.message ?? "", /!custom/);
    assert.deepEqual(
      d.entries.map((e) => e.path),
      ["c.csv"],
    );
  });

  it("an anchor on the list itself refuses the whole file", () => {
    const d = readDataTxt("--- &all\n- path: a.csv\n", { url: URL_ });
    assert.ok(codes(d).includes("yaml-refused"));
    assert.deepEqual(d.entries, []);
  });

  it("a path outside the site: an error naming the line; the entry is left out", () => {
    const text =
      "- path: ok.csv\n- path: https://elsewhere.example/x.csv\n- path: //evil.example/y\n";
    const d = readDataTxt(text, { url: URL_ });
    const outside = d.diagnostics.filter((x) => x.code === "outside-site");
    assert.deepEqual(
      outside.map((x) => x.line),
      [2, 3],
    );
    assert.match(outside[0]?.message ?? "", /outside the site https:\/\/data\.example/);
    assert.deepEqual(
      d.entries.map((e) => e.path),
      ["ok.csv"],
    );
  });

  it("a full URL on the same site is accepted", () => {
    const d = readDataTxt("- path: https://data.example/z.csv\n", { url: URL_ });
    assert.deepEqual(d.entries[0]?.urls, ["https://data.example/z.csv"]);
  });

  it("without a known site (a local file), full URLs are warned about, not refused", () => {
    const d = readDataTxt("- path: https://data.example/z.csv\n");
    assert.equal(find(d, "absolute-url").severity, "warning");
    assert.equal(d.entries.length, 1);
  });

  it("the mapping form (a dataset folder's own data.txt, as R pins writes it): one dataset", () => {
    // The layout of a legacy R pins board: path list, then the pin's fields, `metadata` nested.
    const text = [
      "path:",
      "- data.csv",
      "- data.rds",
      "description: Motor Trend cars",
      "type: table",
      "rows: 32",
      "cols: 2",
      "columns:",
      "  mpg: numeric",
      "  cyl: numeric",
      "metadata:",
      "  license: CC0-1.0",
      "  source: 1974 Motor Trend",
      "",
    ].join("\n");
    const d = readDataTxt(text, { url: "https://data.example/pins/mtcars/data.txt" });
    assert.equal(d.form, "yaml");
    assert.equal(d.shape, "mapping");
    assert.equal(d.entries.length, 1);
    const e = d.entries[0];
    assert.deepEqual(e?.path, ["data.csv", "data.rds"]);
    assert.deepEqual(e?.urls, [
      "https://data.example/pins/mtcars/data.csv",
      "https://data.example/pins/mtcars/data.rds",
    ]);
    assert.equal(e?.description, "Motor Trend cars");
    assert.equal(e?.type, "table");
    assert.equal(e?.rows, 32);
    assert.deepEqual(e?.columns, [
      { name: "mpg", type: "numeric" },
      { name: "cyl", type: "numeric" },
    ]);
    // What `metadata` says is read as if at the top, unless the top says it already.
    assert.equal(e?.license, "CC0-1.0");
    assert.deepEqual(e?.extra, { source: "1974 Motor Trend" });
    assert.equal(find(d, "mapping-form").line, 1);
    assert.deepEqual(
      d.diagnostics.filter((x) => x.severity === "error"),
      [],
    );
    // A single path, as a one-file pin is written; and a list is still a list.
    const one = readDataTxt("path: data.csv\ntype: files\n", { url: URL_ });
    assert.equal(one.shape, "mapping");
    assert.deepEqual(one.entries[0]?.urls, ["https://data.example/data.csv"]);
    assert.equal(readDataTxt("- path: a.csv\n", { url: URL_ }).shape, "list");
    // A mapping whose metadata is not a mapping: said, and the rest read.
    const bad = readDataTxt("path: a.csv\nmetadata: [x]\n", { url: URL_ });
    assert.equal(bad.entries.length, 1);
    assert.equal(find(bad, "bad-field").line, 2);
  });

  it("shape errors: not a list, no path, a count that is not a number, columns not a mapping", () => {
    assert.equal(find(readDataTxt("name: a\ntype: csv\n", { url: URL_ }), "not-a-list").line, 1);
    assert.equal(find(readDataTxt("just text\n", { url: URL_ }), "not-a-list").line, 1);
    const d = readDataTxt(
      "- name: nothing\n- path: a.csv\n  rows: many\n  columns: [a, b]\n  extra_field: kept\n",
      { url: URL_ },
    );
    assert.equal(find(d, "missing-path").line, 1);
    assert.equal(find(d, "bad-count").line, 3);
    assert.equal(find(d, "bad-columns").line, 4);
    assert.equal(d.entries.length, 1);
    assert.equal(d.entries[0]?.rows, null);
    assert.deepEqual(d.entries[0]?.extra, { extra_field: "kept" });
  });

  describe("limits (limits.ts)", () => {
    it(`MAX_DATA_TXT_BYTES (${MAX_DATA_TXT_BYTES}): a bigger YAML file is refused whole`, () => {
      const line = "- path: a.csv\n  description: " + "x".repeat(200) + "\n";
      const big = line.repeat(Math.ceil((MAX_DATA_TXT_BYTES + 1) / line.length));
      const d = readDataTxt(big, { url: URL_ });
      const size = find(d, "size-limit");
      assert.equal(size.severity, "error");
      assert.match(size.message, new RegExp(`${MAX_DATA_TXT_BYTES}`));
      assert.deepEqual(d.entries, []);
      // One byte under: read.
      assert.equal(readDataTxt("- path: a.csv\n", { url: URL_, maxBytes: 14 }).entries.length, 1);
      assert.ok(
        codes(readDataTxt("- path: a.csv\n", { url: URL_, maxBytes: 13 })).includes("size-limit"),
      );
    });

    it(`MAX_YAML_DEPTH (${MAX_YAML_DEPTH}): deeper collections refuse their entry`, () => {
      let nested = "x";
      for (let i = 0; i < MAX_YAML_DEPTH; i++) nested = `[${nested}]`;
      const d = readDataTxt(`- path: a.csv\n  deep: ${nested}\n- path: b.csv\n`, { url: URL_ });
      assert.ok(codes(d).includes("depth-limit"));
      assert.deepEqual(
        d.entries.map((e) => e.path),
        ["b.csv"],
      );
      // One level less is read (the unknown field is then ignored as not a plain value).
      let shallower = "x";
      for (let i = 0; i < MAX_YAML_DEPTH - 3; i++) shallower = `[${shallower}]`;
      const ok = readDataTxt(`- path: a.csv\n  deep: ${shallower}\n`, { url: URL_ });
      assert.ok(!codes(ok).includes("depth-limit"));
      assert.equal(ok.entries.length, 1);
    });

    it("a very deeply nested input (100,000 levels) gives diagnostics, not a crash", () => {
      const d = readDataTxt("[".repeat(100_000) + "]".repeat(100_000), { url: URL_ });
      assert.ok(d.diagnostics.some((x) => x.severity === "error"));
      assert.deepEqual(d.entries, []);
    });

    it(`MAX_ENTRIES (${MAX_ENTRIES}): entries after it are not read, and that is said`, () => {
      const text = "- path: a.csv\n".repeat(MAX_ENTRIES + 2);
      const d = readDataTxt(text, { url: URL_ });
      assert.equal(d.entries.length, MAX_ENTRIES);
      assert.equal(find(d, "entry-limit").line, MAX_ENTRIES + 1);
    });

    it(`MAX_FILES_PER_ENTRY (${MAX_FILES_PER_ENTRY}): a longer path list is cut, and that is said`, () => {
      const files = Array.from({ length: MAX_FILES_PER_ENTRY + 5 }, (_, i) => `f${i}.csv`);
      const d = readDataTxt(`- path: [${files.join(", ")}]\n`, { url: URL_ });
      assert.equal(d.entries[0]?.urls.length, MAX_FILES_PER_ENTRY);
      assert.ok(codes(d).includes("path-limit"));
    });

    it(`MAX_COLUMNS (${MAX_COLUMNS}): more columns are cut, and that is said`, () => {
      const cols = Array.from({ length: MAX_COLUMNS + 1 }, (_, i) => `c${i}: int`);
      const d = readDataTxt(`- path: a.csv\n  columns: {${cols.join(", ")}}\n`, { url: URL_ });
      assert.equal(d.entries[0]?.columns?.length, MAX_COLUMNS);
      assert.ok(codes(d).includes("column-limit"));
    });
  });

  it("writeDataTxt output reads back to the same entries", () => {
    const text = writeDataTxt(
      [
        {
          path: "a b/x.csv",
          name: "2020",
          description: "quotes ' \" and: colons # not a comment",
          rows: 3,
          cols: 2,
          columns: [
            { name: "__proto__", type: "string" },
            { name: "n", type: "int" },
          ],
        },
        { path: ["p/1.jsonl", "p/2.jsonl"], type: "jsonl" },
      ],
      { comment: "written by a test" },
    );
    const d = readDataTxt(text, { url: URL_ });
    assert.deepEqual(d.diagnostics, []);
    assert.equal(d.entries[0]?.name, "2020");
    assert.equal(d.entries[0]?.description, "quotes ' \" and: colons # not a comment");
    assert.deepEqual(d.entries[0]?.columns, [
      { name: "__proto__", type: "string" },
      { name: "n", type: "int" },
    ]);
    assert.equal(d.entries[0]?.rows, 3);
    assert.deepEqual(d.entries[1]?.path, ["p/1.jsonl", "p/2.jsonl"]);
  });
});

describe("draft form (seeds/002 §3.2-3.3 through the robots.txt reader)", () => {
  const TWO_RECORDS = [
    "# /data.txt for data.example",
    "User-agent: harvester",
    "Name: full dump",
    "License: CC0-1.0",
    "Allow: /dumps/all.csv.gz",
    "Allow: /dumps/extra/",
    "Disallow: /dumps/extra/private.csv",
    "",
    "User-agent: *",
    "Description: the open sample",
    "Rows: 100",
    "Disallow: /samples/draft.csv",
    "Allow: /samples/",
    "Allow: /samples/draft.csv",
    "",
  ].join("\n");

  it("Allow lines are datasets, annotated by the record's other fields", () => {
    const d = readDataTxt(TWO_RECORDS, { url: URL_ });
    assert.equal(d.form, "draft");
    assert.equal(d.records.length, 2);
    assert.deepEqual(
      d.entries.map((e) => [e.path, e.line, e.agents]),
      [
        ["/dumps/all.csv.gz", 5, ["harvester"]],
        ["/dumps/extra/", 6, ["harvester"]],
        ["/samples/", 13, ["*"]],
        ["/samples/draft.csv", 14, ["*"]],
      ],
    );
    assert.equal(d.entries[0]?.name, "full dump");
    assert.equal(d.entries[0]?.license, "CC0-1.0");
    assert.equal(d.entries[2]?.description, "the open sample");
    assert.equal(d.entries[2]?.rows, 100);
    assert.equal(d.entries[1]?.manifest, true);
  });

  it("seeds/002 §3.2.1: the first record naming the robot (substring, any case), else `*`", () => {
    const d = readDataTxt(TWO_RECORDS, { url: URL_ });
    const TABLE: readonly [string, number | null][] = [
      ["harvester", 0],
      ["Harvester/2.1 (+https://bot.example)", 0],
      ["HARVEST", 0], // seeds/002 §3.2.1: the value contains the token as a substring
      ["otherbot", 1],
    ];
    for (const [agent, record] of TABLE) assert.equal(offeredTo(d, agent).record, record, agent);
    assert.deepEqual(
      offeredTo(d, "harvester").datasets.map((x) => x.entry.path),
      ["/dumps/all.csv.gz", "/dumps/extra/"],
    );
  });

  it("seeds/002 §3.2.2: the first matching line decides; a Disallow before the Allow closes it", () => {
    const d = readDataTxt(TWO_RECORDS, { url: URL_ });
    const offer = offeredTo(d, "otherbot");
    const closed = offer.datasets.map((x) => [x.entry.path, x.closedBy?.line ?? null]);
    assert.deepEqual(closed, [
      ["/samples/", null],
      ["/samples/draft.csv", 12],
    ]);
  });

  it("no record for the robot and no `*` record: no dataset is offered", () => {
    const d = readDataTxt("User-agent: harvester\nAllow: /a.csv\n", { url: URL_ });
    assert.deepEqual(offeredTo(d, "other").datasets, []);
  });

  it("a path outside the site is refused with its line; a robots.txt line-reader warning keeps its line", () => {
    const d = readDataTxt("User-agent: *\nAllow: /ok.csv\nAllow: //evil.example/x\nDisallow /z\n", {
      url: URL_,
    });
    assert.equal(find(d, "outside-site").line, 3);
    assert.equal(find(d, "missing-colon").line, 4);
    assert.deepEqual(
      d.entries.map((e) => e.path),
      ["/ok.csv"],
    );
  });

  it("the size limit keeps whole lines and says so", () => {
    const text = "User-agent: *\n" + "Allow: /a.csv\n".repeat(100);
    const d = readDataTxt(text, { url: URL_, maxBytes: 14 + 14 * 10 });
    assert.equal(d.entries.length, 10);
    assert.ok(codes(d).includes("size-limit"));
  });

  it("fields before any record annotate nothing, and that is said", () => {
    const d = readDataTxt("Name: orphan\nUser-agent: *\nAllow: /a.csv\n", { url: URL_ });
    assert.equal(find(d, "field-outside-record").line, 1);
    assert.equal(d.entries[0]?.name, null);
  });
});
