// /rupinfo.txt read and written (seeds/001 §3.1.1).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  formatRupInfo,
  MAX_LATENCIES,
  MAX_LINE_LENGTH,
  MAX_PATTERNS,
  MAX_RUPINFO_BYTES,
  parseRupInfo,
} from "../../../src/protocol/rup/index.js";

const codes = (text: string): string[] => parseRupInfo(text).diagnostics.map((d) => d.code);

describe("parseRupInfo", () => {
  it("reads every field of the seeds/001 §3.1.1 grammar", () => {
    const { info, diagnostics } = parseRupInfo(
      "RUP-CGI: http://www.example.org/cgi-bin/rup\nAuthentifier: none\nLatency: day, week, month\nExclude: ^/tmp/, \\.cgi$\nIncludeOnly: ^/news/\nMaxQuerySpan: 2-month\n",
    );
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(info, {
      cgiUrl: "http://www.example.org/cgi-bin/rup",
      authentifier: "none",
      latencies: ["day", "week", "month"],
      exclude: ["^/tmp/", "\\.cgi$"],
      includeOnly: ["^/news/"],
      maxQuerySpan: { count: 2, unit: "month" },
      extensions: [],
    });
  });

  it("round-trips what formatRupInfo writes", () => {
    const text =
      "RUP-CGI: /rup\nAuthentifier: none\nLatency: hour, day\nExclude: ^/a/\nMaxQuerySpan: 1-month\n";
    const { info } = parseRupInfo(text);
    assert.ok(info);
    assert.equal(formatRupInfo(info), text);
  });

  it("only RUP-CGI is required; keys are case-insensitive; CRLF ends lines", () => {
    const { info, diagnostics } = parseRupInfo("rup-cgi: /rup\r\nlatency: week\r\n");
    assert.deepEqual(diagnostics, []);
    assert.equal(info?.cgiUrl, "/rup");
    assert.deepEqual(info?.latencies, ["week"]);
    assert.equal(info?.maxQuerySpan, null);
  });

  // Each bad line: its code, and the line and field it names.
  const BAD: readonly [
    name: string,
    text: string,
    code: string,
    line: number | null,
    field: string | null,
  ][] = [
    ["no RUP-CGI", "Latency: day\n", "missing-cgi", null, "RUP-CGI"],
    ["a line without a colon", "RUP-CGI: /rup\nLatency day\n", "missing-colon", 2, null],
    [
      "an unknown latency unit",
      "RUP-CGI: /rup\nLatency: day, fortnight\n",
      "bad-latency",
      2,
      "Latency",
    ],
    [
      "a pattern that is no regex",
      "RUP-CGI: /rup\nExclude: ^/a/, ([\n",
      "bad-pattern",
      2,
      "Exclude",
    ],
    [
      "MaxQuerySpan without a count",
      "RUP-CGI: /rup\nMaxQuerySpan: month\n",
      "bad-span",
      2,
      "MaxQuerySpan",
    ],
    [
      "a field given twice",
      "RUP-CGI: /rup\nLatency: day\nLatency: week\n",
      "duplicate-field",
      3,
      "Latency",
    ],
    ["an unknown field", "RUP-CGI: /rup\nColour: blue\n", "unknown-field", 2, "Colour"],
    [
      "an authentifier other than none",
      "RUP-CGI: /rup\nAuthentifier: pgp\n",
      "unknown-authentifier",
      2,
      "Authentifier",
    ],
    ["a CGI URL with spaces", "RUP-CGI: /a b\n", "bad-cgi", 1, "RUP-CGI"],
  ];
  for (const [name, text, code, line, field] of BAD) {
    it(`${name}: ${code} at line ${String(line)}`, () => {
      const d = parseRupInfo(text).diagnostics.find((x) => x.code === code);
      assert.ok(d, `expected ${code} in ${JSON.stringify(codes(text))}`);
      assert.equal(d.line, line);
      assert.equal(d.field, field);
    });
  }

  it("keeps the good values of a list with a bad one", () => {
    assert.deepEqual(
      parseRupInfo("RUP-CGI: /rup\nLatency: day, fortnight, week\n").info?.latencies,
      ["day", "week"],
    );
  });

  it("limit: stops reading after MAX_RUPINFO_BYTES", () => {
    const text = `RUP-CGI: /rup\n${"X-Pad: y\n".repeat(MAX_RUPINFO_BYTES / 8)}Latency: day\n`;
    const r = parseRupInfo(text);
    assert.ok(r.diagnostics.some((d) => d.code === "too-large"));
    assert.deepEqual(r.info?.latencies, []);
  });

  it("limit: at most MAX_PATTERNS patterns and MAX_LATENCIES latencies", () => {
    const patterns = Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => `^/p${i}/`).join(", ");
    const r = parseRupInfo(`RUP-CGI: /rup\nExclude: ${patterns}\n`);
    assert.equal(r.info?.exclude.length, MAX_PATTERNS);
    assert.ok(r.diagnostics.some((d) => d.code === "too-many" && d.field === "Exclude"));
    const lats = Array.from({ length: MAX_LATENCIES + 1 }, () => "day").join(", ");
    const l = parseRupInfo(`RUP-CGI: /rup\nLatency: ${lats}\n`);
    assert.equal(l.info?.latencies.length, MAX_LATENCIES);
  });
});

describe("parseRupInfo: line length", () => {
  it("limit: a line longer than MAX_LINE_LENGTH is cut and reported", () => {
    const r = parseRupInfo(`RUP-CGI: /rup\nExclude: ^/a/, ^/${"b".repeat(MAX_LINE_LENGTH)}/\n`);
    const d = r.diagnostics.find((x) => x.code === "line-too-long");
    assert.equal(d?.line, 2);
  });
});
