// The 404 fallback's guess (seeds/002 §3.1: datasets "discovered by other methods"): by the
// declared type first, else by the file's extension, compressed or not.
import assert from "node:assert/strict";
import { it } from "node:test";
import { looksLikeData } from "../../../src/protocol/datasets/index.js";

const TABLE: readonly [url: string, type: string | null, data: boolean][] = [
  ["https://s.example/a.csv", null, true],
  ["https://s.example/A.CSV", null, true],
  ["https://s.example/x/y.tsv", null, true],
  ["https://s.example/t.parquet", null, true],
  ["https://s.example/t.jsonl", null, true],
  ["https://s.example/t.csv.gz", null, true],
  ["https://s.example/t.json.zst", null, true],
  ["https://s.example/t.gz", null, false], // compressed what?
  ["https://s.example/report.pdf", null, false],
  ["https://s.example/page.html", null, false],
  ["https://s.example/csv", null, false],
  ["https://s.example/page.csv/", null, false], // a folder named like a file
  ["https://s.example/get?format=csv", null, false],
  ["https://s.example/get?id=3", "text/csv", true],
  ["https://s.example/get?id=3", "text/csv; charset=utf-8", true],
  ["https://s.example/export", "data", true], // REGP <type>data</type> (seeds/003 §3.2.12)
  ["https://s.example/a.csv", "text/html", true], // the name still says data
  ["not a url", null, false],
];

for (const [url, type, data] of TABLE) {
  it(`${url}${type === null ? "" : ` (${type})`} → ${data ? "data" : "not data"}`, () => {
    assert.equal(looksLikeData(url, type).data, data);
  });
}
