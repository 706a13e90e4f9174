// The modification report (seeds/001 §3.2), written and read.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  formatReport,
  collapseChanges,
  groupChanges,
  MAX_REPORT_BYTES,
  MAX_REPORT_LINES,
  MAX_REPORT_PATHS,
  parseReport,
  REPORT_WRAP,
} from "../../../src/protocol/rup/index.js";

const T = Date.UTC(2026, 10, 21, 8, 0, 0);

describe("formatReport and parseReport", () => {
  it("writes the seeds/001 §3.2 layout: two header lines, a blank line, change lines", () => {
    const text = formatReport({
      sequenceNumber: 7,
      urlBase: "http://www.example.org/",
      changes: groupChanges([
        { kind: "New", at: T, path: "/a.html" },
        { kind: "New", at: T + 400, path: "/b.html" },
        { kind: "Change", at: T + 60_000, path: "/index.html" },
        { kind: "Delete", at: T + 120_000, path: "/old.html" },
      ]),
    });
    assert.equal(
      text,
      "SequenceNumber: 7\nURLBase: http://www.example.org/\n\n" +
        "New[2026-11-21T08:00:00Z]: /a.html, /b.html\n" +
        "Change[2026-11-21T08:01:00Z]: /index.html\n" +
        "Delete[2026-11-21T08:02:00Z]: /old.html\n",
    );
    const back = parseReport(text);
    assert.deepEqual(back.diagnostics, []);
    assert.equal(back.report?.sequenceNumber, 7);
    assert.equal(back.report?.urlBase, "http://www.example.org/");
    assert.deepEqual(back.report?.changes, [
      { kind: "New", at: T, paths: ["/a.html", "/b.html"] },
      { kind: "Change", at: T + 60_000, paths: ["/index.html"] },
      { kind: "Delete", at: T + 120_000, paths: ["/old.html"] },
    ]);
  });

  it("an empty report is a header and a blank line", () => {
    const text = formatReport({ sequenceNumber: 1, urlBase: "http://h/", changes: [] });
    assert.equal(text, "SequenceNumber: 1\nURLBase: http://h/\n\n");
    assert.deepEqual(parseReport(text).report?.changes, []);
  });

  it("reads CRLF, case-insensitive keys, RFC 822 dates and a leading blank line (mail paths)", () => {
    const r = parseReport(
      "\r\nsequencenumber: 3\r\nurlbase: http://h/\r\n\r\nchange[Sat, 21 Nov 2026 08:00:00 GMT]: /x\r\n",
    );
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.report?.changes, [{ kind: "Change", at: T, paths: ["/x"] }]);
  });

  it("wraps long lines before REPORT_WRAP characters, same kind and date", () => {
    const changes = Array.from({ length: 200 }, (_, i) => ({
      kind: "New" as const,
      at: T,
      path: `/dir/page-${i}.html`,
    }));
    const text = formatReport({
      sequenceNumber: 1,
      urlBase: "http://h/",
      changes: groupChanges(changes),
    });
    const lines = text.split("\n");
    assert.ok(
      lines.every((l) => l.length <= REPORT_WRAP),
      "a line is too long",
    );
    assert.ok(lines.length > 4);
    const paths = parseReport(text).report?.changes.flatMap((c) => c.paths);
    assert.deepEqual(
      paths,
      changes.map((c) => c.path),
    );
  });

  // Bad reports: the code, line and field of each (content never throws).
  const BAD: readonly [
    name: string,
    text: string,
    code: string,
    line: number | null,
    usable: boolean,
  ][] = [
    ["no sequence number", "URLBase: http://h/\n\n", "missing-sequence-number", 1, false],
    [
      "a sequence number that is no number",
      "SequenceNumber: seven\nURLBase: http://h/\n\n",
      "bad-sequence-number",
      1,
      false,
    ],
    [
      "no URLBase",
      "SequenceNumber: 1\n\nNew[2026-11-21T08:00:00Z]: /a\n",
      "missing-url-base",
      2,
      false,
    ],
    [
      "a URLBase that is not http",
      "SequenceNumber: 1\nURLBase: ftp://h/\n\n",
      "bad-url-base",
      2,
      false,
    ],
    [
      "no blank line",
      "SequenceNumber: 1\nURLBase: http://h/\nNew[2026-11-21T08:00:00Z]: /a\n",
      "missing-blank-line",
      3,
      true,
    ],
    [
      "a bad date",
      "SequenceNumber: 1\nURLBase: http://h/\n\nNew[yesterday]: /a\n",
      "bad-date",
      4,
      true,
    ],
    [
      "an unknown line",
      "SequenceNumber: 1\nURLBase: http://h/\n\nMoved[2026-11-21T08:00:00Z]: /a\n",
      "bad-change-line",
      4,
      true,
    ],
  ];
  for (const [name, text, code, line, usable] of BAD) {
    it(`${name}: ${code} at line ${String(line)}`, () => {
      const r = parseReport(text);
      const d = r.diagnostics.find((x) => x.code === code);
      assert.ok(d, JSON.stringify(r.diagnostics));
      assert.equal(d.line, line);
      assert.equal(r.report !== null, usable);
    });
  }

  it("limit: MAX_REPORT_LINES change lines", () => {
    const text = `SequenceNumber: 1\nURLBase: http://h/\n\n${"New[2026-11-21T08:00:00Z]: /a\n".repeat(MAX_REPORT_LINES + 5)}`;
    const r = parseReport(text);
    assert.ok(r.diagnostics.some((d) => d.code === "too-many-lines"));
    assert.ok((r.report?.changes.length ?? 0) <= MAX_REPORT_LINES);
  });

  it("limit: MAX_REPORT_PATHS paths in all", () => {
    const line = `New[2026-11-21T08:00:00Z]: ${Array.from({ length: 3000 }, () => "/p").join(", ")}\n`;
    const lines = Math.ceil(MAX_REPORT_PATHS / 3000) + 1;
    const r = parseReport(`SequenceNumber: 1\nURLBase: http://h/\n\n${line.repeat(lines)}`);
    assert.ok(r.diagnostics.some((d) => d.code === "too-many-paths"));
    assert.ok((r.report?.changes.reduce((n, c) => n + c.paths.length, 0) ?? 0) <= MAX_REPORT_PATHS);
  });

  it("limit: MAX_REPORT_BYTES characters", () => {
    const text = `SequenceNumber: 1\nURLBase: http://h/\n\nNew[2026-11-21T08:00:00Z]: /${"a".repeat(MAX_REPORT_BYTES)}\n`;
    assert.ok(parseReport(text).diagnostics.some((d) => d.code === "too-large"));
  });
});

describe("collapseChanges", () => {
  // What a robot must do after each history of one path within a report's period.
  const CASES: readonly [history: string, expected: string | null][] = [
    ["New", "New"],
    ["Change", "Change"],
    ["Delete", "Delete"],
    ["New Change Change", "New"],
    ["Change Delete", "Delete"],
    ["New Delete", null],
    ["Delete New", "Change"],
    ["New Delete New", "New"],
  ];
  for (const [history, expected] of CASES) {
    it(`${history} → ${expected ?? "nothing"}`, () => {
      const kinds = history.split(" ") as ("New" | "Change" | "Delete")[];
      const out = collapseChanges(kinds.map((kind, i) => ({ kind, at: T + i * 1000, path: "/p" })));
      assert.deepEqual(
        out,
        expected === null
          ? []
          : [{ kind: expected, at: T + (kinds.length - 1) * 1000, path: "/p" }],
      );
    });
  }
  it("orders by time, then path", () => {
    const out = collapseChanges([
      { kind: "New", at: T + 5, path: "/b" },
      { kind: "New", at: T, path: "/c" },
      { kind: "New", at: T + 5, path: "/a" },
    ]);
    assert.deepEqual(
      out.map((c) => c.path),
      ["/c", "/a", "/b"],
    );
  });
});
