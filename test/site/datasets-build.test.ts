// The site side of /data.txt: the shape of CSV, TSV and JSON-lines files (rows over the whole
// file, columns and types from the header and a sample), `heed datasets build` with and
// without manifests, and its output read back by heed's own reader and robot.
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { MAX_ENTRIES, readDataTxt } from "../../src/protocol/datasets/index.js";
import { inferTable, MAX_FIELD_CHARS, MAX_JSON_LINE_CHARS } from "../../src/site/datasets/infer.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

describe("datasets build", { concurrency: false, timeout: 60_000 }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let n = 0;
  const file = async (name: string, text: string) => {
    const path = join(temp.dir, `${++n}-${name}`);
    await writeFile(path, text);
    return path;
  };
  before(async () => {
    temp = await tempDir("heed-datasets-build-");
  });
  after(async () => {
    await temp.cleanup();
  });

  describe("table shapes", () => {
    it("CSV (RFC 4180): quoted commas, quotes and line breaks stay in their field; CRLF; blank lines are not rows", async () => {
      const csv =
        'id,name,score,joined\r\n1,"Smith, J.",2.5,2020-01-02\r\n2,"say ""hi""\nthere",3,2021-05-06\r\n\r\n3,plain,4,2022-07-08T10:00:00Z\r\n';
      const shape = await inferTable(await file("a.csv", csv), "csv");
      assert.equal(shape.rows, 3);
      assert.equal(shape.cols, 4);
      assert.deepEqual(shape.columns, [
        { name: "id", type: "int" },
        { name: "name", type: "string" },
        { name: "score", type: "float" },
        { name: "joined", type: "datetime" },
      ]);
    });

    it("types widen: int with float is float, anything else mixed is string, empty cells are ignored", async () => {
      const csv = "a,b,c,d\n1,true,x,\n2.5,false,3,\n,TRUE,,\n";
      const shape = await inferTable(await file("b.csv", csv), "csv");
      assert.deepEqual(
        shape.columns.map((c) => c.type),
        ["float", "boolean", "string", "string"],
      );
    });

    it("rows are counted past the sample; types come from the sample only", async () => {
      const lines = ["n"];
      for (let i = 0; i < 50; i++) lines.push(String(i));
      lines.push("not a number");
      const path = await file("c.csv", lines.join("\n") + "\n");
      const sampled = await inferTable(path, "csv", 10);
      assert.equal(sampled.rows, 51);
      assert.equal(sampled.columns[0]?.type, "int");
      assert.equal((await inferTable(path, "csv", 100)).columns[0]?.type, "string");
    });

    it(`MAX_FIELD_CHARS (${MAX_FIELD_CHARS}): a longer field is typed by its start, the row still counted`, async () => {
      const csv = `big,n\n"${"7".repeat(MAX_FIELD_CHARS + 10)}x",1\n`;
      const shape = await inferTable(await file("d.csv", csv), "csv");
      assert.equal(shape.rows, 1);
      assert.equal(
        shape.columns[0]?.type,
        "int",
        "the cut field has only digits in its kept start",
      );
    });

    it("TSV (IANA text/tab-separated-values): tabs split, a quote is a character", async () => {
      const tsv = 'city\tpop\t"note"\nParis\t2100000\t"a, b"\nLyon\t500000\t\n';
      const shape = await inferTable(await file("e.tsv", tsv), "tsv");
      assert.equal(shape.rows, 2);
      assert.deepEqual(shape.columns, [
        { name: "city", type: "string" },
        { name: "pop", type: "int" },
        { name: '"note"', type: "string" },
      ]);
    });

    it("JSON lines: keys in order of first appearance, JSON types, lines that are not objects noted", async () => {
      const jsonl =
        '{"id":1,"t":2.5,"tags":["a"]}\n\n{"id":2,"ok":false,"t":3,"at":"2020-01-01"}\n[1,2]\nnot json\n';
      const shape = await inferTable(await file("f.jsonl", jsonl), "jsonl");
      assert.equal(shape.rows, 4);
      assert.deepEqual(shape.columns, [
        { name: "id", type: "int" },
        { name: "t", type: "float" },
        { name: "tags", type: "array" },
        { name: "ok", type: "boolean" },
        { name: "at", type: "date" },
      ]);
      assert.deepEqual(shape.notes, ["2 sampled lines are not a JSON object"]);
    });

    it(`MAX_JSON_LINE_CHARS (${MAX_JSON_LINE_CHARS}): a longer line is counted, not parsed`, async () => {
      const long = JSON.stringify({ big: "x".repeat(MAX_JSON_LINE_CHARS) });
      const shape = await inferTable(await file("g.jsonl", `${long}\n{"a":1}\n`), "jsonl");
      assert.equal(shape.rows, 2);
      assert.deepEqual(shape.columns, [{ name: "a", type: "int" }]);
      assert.match(shape.notes[0] ?? "", /longer than/);
    });
  });

  async function makeSite(root: string) {
    await mkdir(join(root, "census"), { recursive: true });
    await mkdir(join(root, "weather", "2024"), { recursive: true });
    await mkdir(join(root, ".git"), { recursive: true });
    await writeFile(join(root, "top.csv"), "a,b\n1,x\n");
    await writeFile(join(root, "census", "2020 final.csv"), "district,pop\nNorth,12\nSouth,9\n");
    await writeFile(join(root, "weather", "2024", "obs.jsonl"), '{"t":1.5}\n{"t":2}\n');
    await writeFile(join(root, "weather", "stations.tsv"), "id\tname\n1\tA\n");
    await writeFile(join(root, "index.html"), "<p>hi</p>");
    await writeFile(join(root, ".git", "x.csv"), "hidden\n");
  }

  it("heed datasets build: one catalog listing every data file with its shape", async () => {
    const root = join(temp.dir, "flat");
    await makeSite(root);
    const result = await runCli(["datasets", "build", root]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /data\.txt: 4 entries/);
    assert.match(result.stderr, /1 file not listed/);
    const read = readDataTxt(await readFile(join(root, "data.txt")), {
      url: "http://s.example/data.txt",
    });
    assert.deepEqual(read.diagnostics, []);
    assert.deepEqual(
      read.entries.map((e) => [e.path, e.type, e.rows, e.cols]),
      [
        ["census/2020%20final.csv", "csv", 2, 2],
        ["top.csv", "csv", 1, 2],
        ["weather/2024/obs.jsonl", "jsonl", 2, 1],
        ["weather/stations.tsv", "tsv", 1, 2],
      ],
    );
    assert.deepEqual(read.entries[0]?.urls, ["http://s.example/census/2020%20final.csv"]);
    assert.deepEqual(read.entries[0]?.columns, [
      { name: "district", type: "string" },
      { name: "pop", type: "int" },
    ]);
    // --out outside DIR and above none of it: the same catalog, said to be served from DIR.
    await mkdir(join(temp.dir, "elsewhere"), { recursive: true });
    const out = join(temp.dir, "elsewhere", "data.txt");
    const aside = await runCli(["datasets", "build", root, "--out", out]);
    assert.equal(aside.code, 0);
    assert.match(aside.stderr, /paths stay relative to .*flat: serve it as .*flat\/data\.txt/);
    assert.equal(await readFile(out, "utf8"), await readFile(join(root, "data.txt"), "utf8"));
    // --out in a folder above DIR: each path goes down through DIR, as a reader resolves it.
    const above = join(temp.dir, "data.txt");
    assert.equal((await runCli(["datasets", "build", root, "--out", above])).code, 0);
    const fromAbove = readDataTxt(await readFile(above), { url: "http://s.example/data.txt" });
    assert.deepEqual(
      fromAbove.entries.map((e) => e.urls[0]),
      [
        "http://s.example/flat/census/2020%20final.csv",
        "http://s.example/flat/top.csv",
        "http://s.example/flat/weather/2024/obs.jsonl",
        "http://s.example/flat/weather/stations.tsv",
      ],
    );
    const lint = await runCli(["lint", join(root, "data.txt")]);
    assert.equal(lint.code, 0, lint.stdout);
    assert.match(lint.stdout, /4 datasets; 0 errors, 0 warnings/);
  });

  it("--manifests: a data.txt per folder, the folders listed on top, and a robot reads it all back", async () => {
    const root = join(temp.dir, "manifests");
    await makeSite(root);
    const result = await runCli(["datasets", "build", root, "--manifests"]);
    assert.equal(result.code, 0, result.stderr);
    const top = readDataTxt(await readFile(join(root, "data.txt")));
    assert.deepEqual(
      top.entries.map((e) => [e.path, e.manifest]),
      [
        ["top.csv", false],
        ["census/", true],
        ["weather/", true],
      ],
    );
    // Each folder is one dataset, in the mapping form R pins reads in a dataset's folder.
    const weatherText = await readFile(join(root, "weather", "data.txt"), "utf8");
    assert.match(
      weatherText,
      /^path:\n {2}- 2024\/obs\.jsonl\n {2}- stations\.tsv\nname: weather\n/m,
    );
    const weather = readDataTxt(weatherText);
    assert.equal(weather.shape, "mapping");
    assert.deepEqual(
      weather.entries.map((e) => [e.path, e.type, e.columns]),
      [[["2024/obs.jsonl", "stations.tsv"], "files", null]],
    );
    // One file, or files of the same columns: rows, cols and columns are the folder's.
    const census = readDataTxt(await readFile(join(root, "census", "data.txt")));
    assert.equal(census.entries[0]?.rows, 2);
    assert.ok((census.entries[0]?.columns?.length ?? 0) > 0);

    // Served as is by a static server, the robot side finds every file through the manifests.
    const server = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      readFile(join(root, ...path.split("/").filter((s) => s !== "" && s !== "..")))
        .then((body) => {
          res.writeHead(200, { "content-type": "text/plain" });
          res.end(body);
        })
        .catch(() => {
          res.writeHead(404);
          res.end();
        });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const listed = await runCli(["datasets", origin, "--json"]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        jsonLines(listed.stdout).map((o) => [o.urls, o.via, o.rows, o.name]),
        [
          [[`${origin}/top.csv`], "data.txt", 1, "top"],
          [[`${origin}/census/2020%20final.csv`], "manifest", 2, "census"],
          [
            [`${origin}/weather/2024/obs.jsonl`, `${origin}/weather/stations.tsv`],
            "manifest",
            null,
            "weather",
          ],
        ],
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it(`a folder of more than MAX_ENTRIES (${MAX_ENTRIES}) files: refused whole, with --manifests named`, async () => {
    const root = join(temp.dir, "too-many");
    await mkdir(root, { recursive: true });
    for (let i = 0; i <= MAX_ENTRIES; i++) await writeFile(join(root, `${i}.json`), "{}");
    const result = await runCli(["datasets", "build", root], { timeoutMs: 60_000 });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      new RegExp(`would list more than ${MAX_ENTRIES} datasets; --manifests splits it by folder`),
    );
    await assert.rejects(readFile(join(root, "data.txt")), { code: "ENOENT" });
  });

  it("bad input: a missing folder, a bad --sample-rows: exit 2", async () => {
    const missing = await runCli(["datasets", "build", join(temp.dir, "nope")]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such folder/);
    const bad = await runCli(["datasets", "build", temp.dir, "--sample-rows", "0"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--sample-rows/);
  });
});
