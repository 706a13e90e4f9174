// The crawl report's aggregation (src/crawler/report.ts) on hand-made records: every count
// worked out by hand from the records below, then properties that hold for any log (sums,
// the timeline's buckets) checked on random ones, and the bounds that keep a long log's
// report small.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  MAX_CHART_BUCKETS,
  MAX_ERROR_MESSAGES,
  STATUS_CLASSES,
  VIA_KEYS,
  formatBytes,
  formatDuration,
  isRequest,
  linkedFrom,
  reportBuilder,
  statusClass,
  summarize,
  summarizeBatches,
  type CrawlReport,
  type ReportPart,
} from "../../src/crawler/report.js";
import { DISCOVERIES } from "../../src/store/crawl-log.js";
import type { CrawlRecord } from "../../src/store/types.js";

const T0 = Date.UTC(2026, 2, 5, 12, 0, 0);
const A = "https://a.example";
const B = "http://b.example:8080";

function rec(origin: string, path: string, fields: Partial<CrawlRecord>): CrawlRecord {
  return {
    url: `${origin}${path}`,
    origin,
    at: T0,
    ms: 10,
    status: 200,
    bytes: 100,
    outcome: "fetched",
    detail: null,
    ...fields,
  };
}

/** Site A: a seed, links, a sitemap page, a 404, a redirect, a 503, a network error, a disallowed URL. */
const SITE_A: CrawlRecord[] = [
  rec(A, "/", { at: T0, ms: 20, bytes: 1000, via: "seed", requiredGapMs: 1000, waitedMs: 0 }),
  rec(A, "/p1", {
    at: T0 + 1020,
    ms: 30,
    bytes: 500,
    via: "link",
    gapMs: 1000,
    requiredGapMs: 1000,
    waitedMs: 1000,
  }),
  rec(A, "/secret", {
    at: T0 + 1100,
    ms: 0,
    status: null,
    bytes: 0,
    outcome: "disallowed",
    detail: "rule: line 2: Disallow: /secret",
    via: "link",
  }),
  rec(A, "/p2", {
    at: T0 + 2050,
    ms: 50,
    bytes: 700,
    via: "sitemap",
    gapMs: 1000,
    requiredGapMs: 1000,
    waitedMs: 1000,
    canonical: `${A}/p2-canonical`,
  }),
  rec(A, "/gone", {
    at: T0 + 3100,
    ms: 10,
    status: 404,
    bytes: 50,
    via: "link",
    gapMs: 1000,
    requiredGapMs: 1000,
    canonical: null,
  }),
  rec(A, "/moved", {
    at: T0 + 4110,
    ms: 10,
    status: 301,
    bytes: 0,
    outcome: "redirect",
    detail: `${A}/p3`,
    via: "link",
    gapMs: 900,
    requiredGapMs: 1000,
    waitedMs: 500,
  }),
  rec(A, "/busy", {
    at: T0 + 5120,
    ms: 5,
    status: 503,
    bytes: 20,
    outcome: "error",
    detail: "HTTP 503",
    via: "link",
    gapMs: 1010,
    requiredGapMs: 1000,
  }),
  rec(A, "/busy", {
    at: T0 + 6125,
    ms: 5,
    status: 503,
    bytes: 20,
    outcome: "error",
    detail: "HTTP 503",
    via: "link",
    gapMs: 1000,
    requiredGapMs: 1000,
  }),
  rec(A, "/reset", {
    at: T0 + 7130,
    ms: 3,
    status: null,
    bytes: 0,
    outcome: "error",
    detail: "ECONNRESET",
    via: "link",
    gapMs: 1000,
    requiredGapMs: 1000,
  }),
  rec(A, "/p2", {
    at: T0 + 8133,
    ms: 10,
    bytes: 700,
    canonical: `${A}/p2`,
    via: "revisit",
    gapMs: 1000,
    requiredGapMs: 1000,
  }),
];

/** Site B: an older crawl whose records give no gaps or discovery: gaps come from the log. */
const SITE_B: CrawlRecord[] = [
  rec(B, "/", { at: T0 + 500, ms: 100, bytes: 2048 }),
  rec(B, "/x", { at: T0 + 700, ms: 50, bytes: 2048 }), // 100 ms after / ended
  rec(B, "/y", { at: T0 + 760, ms: 40, bytes: 2048 }), // 10 ms after /x ended
  rec(B, "/z", { at: T0 + 780, ms: 20, status: null, bytes: 0, outcome: "error", detail: null }), // overlaps /y: 0
  rec(B, "", {
    at: T0 + 800,
    ms: 0,
    status: null,
    bytes: 0,
    outcome: "canonical-host",
    detail: "www.b.example",
  }),
];

/** The two sites interleaved as a crawl log would have them (by time). */
const LOG = [...SITE_A, ...SITE_B].sort((x, y) => x.at - y.at);

function origin(report: CrawlReport, name: string) {
  const found = report.origins.find((o) => o.origin === name);
  assert.ok(found, name);
  return found;
}

describe("crawl report: counts, by hand", () => {
  const report = summarize(LOG);

  it("records, requests (a status, or an error with none), bytes; hosts most requests first", () => {
    assert.deepEqual(
      report.origins.map((o) => [o.origin, o.records, o.requests, o.bytes]),
      [
        [A, 10, 9, 2990],
        [B, 5, 4, 6144],
      ],
    );
    assert.equal(report.overall.records, 15);
    assert.equal(report.overall.requests, 13);
    assert.equal(report.overall.bytes, 9134);
  });

  it("requests by status class and exact status; records by outcome", () => {
    const a = origin(report, A);
    assert.deepEqual(a.byStatusClass, {
      "1xx": 0,
      "2xx": 4,
      "3xx": 1,
      "4xx": 1,
      "5xx": 2,
      other: 0,
      none: 1,
    });
    assert.deepEqual(a.byStatus, [
      { key: 200, count: 4 },
      { key: 301, count: 1 },
      { key: 404, count: 1 },
      { key: 503, count: 2 },
      { key: null, count: 1 },
    ]);
    assert.deepEqual(a.byOutcome, [
      { key: "fetched", count: 5 },
      { key: "error", count: 3 },
      { key: "disallowed", count: 1 },
      { key: "redirect", count: 1 },
    ]);
    assert.deepEqual(report.overall.byOutcome, [
      { key: "fetched", count: 8 },
      { key: "error", count: 4 },
      { key: "canonical-host", count: 1 },
      { key: "disallowed", count: 1 },
      { key: "redirect", count: 1 },
    ]);
    assert.equal(report.overall.byStatusClass["2xx"], 7);
    assert.equal(report.overall.byStatusClass.none, 2);
  });

  it("requests by how they were found; a record that does not say is `unknown`", () => {
    assert.deepEqual(origin(report, A).byVia, {
      seed: 1,
      link: 6,
      sitemap: 1,
      srcloc: 0,
      redirect: 0,
      revisit: 1,
      mirror: 0,
      unknown: 0,
    });
    assert.equal(origin(report, B).byVia.unknown, 4);
    assert.deepEqual(Object.keys(report.overall.byVia), [...DISCOVERIES, "unknown"]);
  });

  it("errors: outcome `error`, top messages most first, a null detail named", () => {
    assert.deepEqual(origin(report, A).errors, {
      count: 3,
      top: [
        { message: "HTTP 503", count: 2 },
        { message: "ECONNRESET", count: 1 },
      ],
      untracked: 0,
    });
    assert.deepEqual(origin(report, B).errors.top, [{ message: "(no detail)", count: 1 }]);
    assert.equal(report.overall.errors.count, 4);
  });

  it("gaps from the records against the required ones: min, median, below required, worst shortfall", () => {
    assert.deepEqual(origin(report, A).gaps, {
      // The seed gives no gap; the disallowed URL is no request.
      count: 8,
      fromRecords: 8,
      minMs: 900,
      // 900, 1000 ×7 (one record gives 1010, the log 1000: the smaller counts).
      medianMs: 1000,
      maxMs: 1000,
      requiredMinMs: 1000,
      requiredMaxMs: 1000,
      compared: 8,
      belowRequired: 1,
      worstShortfallMs: 100,
    });
  });

  it("gaps a record does not give come from the log: end of the previous request to this start, 0 on overlap", () => {
    assert.deepEqual(origin(report, B).gaps, {
      count: 3,
      fromRecords: 0,
      minMs: 0,
      medianMs: 10,
      maxMs: 100,
      requiredMinMs: null,
      requiredMaxMs: null,
      compared: 0,
      belowRequired: 0,
      worstShortfallMs: null,
    });
  });

  it("time waited, canonical URLs elsewhere, first and last request", () => {
    const a = origin(report, A);
    assert.equal(a.waitedMs, 2500);
    assert.equal(a.waitedRecords, 4);
    assert.equal(a.canonicalElsewhere, 1);
    assert.equal(a.firstAt, T0);
    assert.equal(a.lastAt, T0 + 8143);
    assert.equal(origin(report, B).firstAt, T0 + 500);
    assert.equal(origin(report, B).lastAt, T0 + 800);
    assert.equal(report.overall.firstAt, T0);
    assert.equal(report.overall.lastAt, T0 + 8143);
  });

  it("the timeline: 100 ms buckets over 8.2 s, each request in the bucket of its start", () => {
    assert.deepEqual(report.timeline, { startAt: T0, bucketMs: 100, buckets: 82 });
    const a = origin(report, A).timeline;
    assert.equal(a.length, 82);
    assert.deepEqual(
      a.flatMap((n, i) => (n > 0 ? [[i, n]] : [])),
      [
        [0, 1],
        [10, 1],
        [20, 1],
        [31, 1],
        [41, 1],
        [51, 1],
        [61, 1],
        [71, 1],
        [81, 1],
      ],
    );
    assert.deepEqual(
      origin(report, B).timeline.flatMap((n, i) => (n > 0 ? [[i, n]] : [])),
      [
        [5, 1],
        [7, 3],
      ],
    );
  });

  it("the same report from batches (a store's scan) and from a builder fed one at a time", async () => {
    async function* batches() {
      for (let i = 0; i < LOG.length; i += 4) yield LOG.slice(i, i + 4);
    }
    assert.deepEqual(await summarizeBatches(batches()), report);
  });
});

describe("crawl report: which records are requests", () => {
  const table: [Partial<CrawlRecord>, boolean][] = [
    [{ status: 200, outcome: "fetched" }, true],
    [{ status: 304, outcome: "not-modified" }, true],
    [{ status: 503, outcome: "error" }, true],
    [{ status: null, outcome: "error" }, true],
    [{ status: null, outcome: "disallowed" }, false],
    [{ status: null, outcome: "canonical-host" }, false],
  ];
  for (const [fields, expected] of table) {
    it(`${fields.outcome} with status ${fields.status}: ${expected ? "a request" : "no request"}`, () => {
      assert.equal(isRequest(rec(A, "/", fields)), expected);
    });
  }
  it("status classes", () => {
    assert.deepEqual([100, 204, 399, 404, 599, 600, 42, null].map(statusClass), [
      "1xx",
      "2xx",
      "3xx",
      "4xx",
      "5xx",
      "other",
      "other",
      "none",
    ]);
  });
});

describe("crawl report: an empty log", () => {
  it("has zeros, nulls, no hosts and a timeline of no buckets", () => {
    const report = summarize([]);
    assert.deepEqual(report.origins, []);
    assert.deepEqual(report.timeline, { startAt: 0, bucketMs: 100, buckets: 0 });
    assert.equal(report.overall.records, 0);
    assert.equal(report.overall.gaps.medianMs, null);
    assert.equal(report.overall.firstAt, null);
    assert.deepEqual(report.overall.timeline, []);
  });
});

describe("crawl report: bounded however long the log", () => {
  it("a crawl of a day at one request a second: at most MAX_CHART_BUCKETS buckets, sums kept", () => {
    const builder = reportBuilder();
    const day = 86_400;
    for (let i = 0; i < day; i++) {
      builder.add(rec(i % 3 === 0 ? A : B, `/${i}`, { at: T0 + i * 1000 + 7, ms: 5, gapMs: 995 }));
    }
    const report = builder.finish();
    assert.ok(report.timeline.buckets <= MAX_CHART_BUCKETS, String(report.timeline.buckets));
    assert.equal(report.timeline.bucketMs, 1_800_000);
    assert.equal(report.timeline.buckets, 48);
    assert.equal(
      report.overall.timeline.reduce((s, n) => s + n, 0),
      day,
    );
    assert.equal(
      origin(report, A).timeline.reduce((s, n) => s + n, 0),
      day / 3,
    );
    assert.equal(origin(report, A).gaps.medianMs, 995);
  });

  it(`counts at most ${MAX_ERROR_MESSAGES} distinct error messages per host; the rest as untracked`, () => {
    const records = Array.from({ length: MAX_ERROR_MESSAGES + 50 }, (_, i) =>
      rec(A, `/${i}`, { status: null, outcome: "error", detail: `timeout ${i}` }),
    );
    records.push(rec(A, "/0", { status: null, outcome: "error", detail: "timeout 0" }));
    const { errors } = summarize(records).overall;
    assert.equal(errors.count, MAX_ERROR_MESSAGES + 51);
    assert.equal(errors.untracked, 50);
    assert.deepEqual(errors.top[0], { message: "timeout 0", count: 2 });
    assert.equal(errors.top.length, 5);
  });
});

describe("crawl report: properties of any log", () => {
  const record = fc.record({
    origin: fc.constantFrom(A, B, "https://c.example"),
    at: fc.integer({ min: T0, max: T0 + 3 * 86_400_000 }),
    ms: fc.integer({ min: 0, max: 5000 }),
    status: fc.option(fc.constantFrom(200, 204, 301, 304, 404, 410, 500, 503, 999), { nil: null }),
    bytes: fc.integer({ min: 0, max: 1e6 }),
    outcome: fc.constantFrom("fetched", "error", "disallowed", "redirect", "not-modified"),
    via: fc.option(fc.constantFrom(...DISCOVERIES), { nil: null }),
    gapMs: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
    requiredGapMs: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
    waitedMs: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
  });
  const sum = (values: readonly number[]) => values.reduce((s, n) => s + n, 0);
  const additive = (p: ReportPart) => [
    p.records,
    p.requests,
    p.bytes,
    p.errors.count,
    p.gaps.count,
    p.gaps.belowRequired,
    p.waitedMs,
    ...STATUS_CLASSES.map((c) => p.byStatusClass[c]),
    ...VIA_KEYS.map((v) => p.byVia[v]),
    ...p.timeline,
  ];

  it("tables add up; the hosts add up to the whole; each request is in the bucket of its start", () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 300 }), (fields) => {
        const records = fields.map((f, i) => ({ ...f, url: `${f.origin}/${i}`, detail: null }));
        const report = summarize(records);
        const { overall, timeline } = report;
        const requests = records.filter(isRequest);
        assert.equal(overall.requests, requests.length);
        assert.equal(sum(STATUS_CLASSES.map((c) => overall.byStatusClass[c])), overall.requests);
        assert.equal(sum(overall.byStatus.map((s) => s.count)), overall.requests);
        assert.equal(sum(VIA_KEYS.map((v) => overall.byVia[v])), overall.requests);
        assert.equal(sum(overall.byOutcome.map((o) => o.count)), overall.records);
        const columns = additive(overall).map((_, i) =>
          sum(report.origins.map((o) => additive(o)[i] ?? 0)),
        );
        assert.deepEqual(columns, additive(overall));
        assert.ok(timeline.buckets <= MAX_CHART_BUCKETS);
        const expected = new Array<number>(timeline.buckets).fill(0);
        for (const r of requests) {
          const b = Math.floor((r.at - timeline.startAt) / timeline.bucketMs);
          assert.ok(b >= 0 && b < timeline.buckets, `${r.at} in ${JSON.stringify(timeline)}`);
          expected[b] = (expected[b] ?? 0) + 1;
        }
        assert.deepEqual(overall.timeline, expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe("crawl report: numbers for people", () => {
  it("formatBytes", () => {
    assert.deepEqual([0, 1023, 1024, 1536, 150 * 1024, 5 * 1024 ** 3].map(formatBytes), [
      "0 B",
      "1023 B",
      "1.0 KiB",
      "1.5 KiB",
      "150 KiB",
      "5.0 GiB",
    ]);
  });
  it("formatDuration", () => {
    assert.deepEqual(
      [0, 950, 1000, 12_300, 60_000, 125_000, 7_200_000, 7_500_000, 90_000_000].map(formatDuration),
      ["0 ms", "950 ms", "1 s", "12.3 s", "1 min", "2 min 5 s", "2 h", "2 h 5 min", "1 d 1 h"],
    );
  });
});

describe("crawl report: gaps over every process's requests", () => {
  it("two processes each kept 1000 ms, but the site saw 10 ms between them: the report says so", () => {
    const A2 = "https://shared.example";
    const records: CrawlRecord[] = [
      { ...rec(A2, "/robots.txt", { at: T0, ms: 5, outcome: "robots" }) },
      rec(A2, "/1", { at: T0 + 1005, ms: 5, gapMs: 1000, requiredGapMs: 1000 }),
      // The other process: its own previous request was long before; the site's was 10 ms ago.
      rec(A2, "/2", { at: T0 + 1020, ms: 5, gapMs: 5000, requiredGapMs: 1000 }),
    ];
    const gaps = summarize(records).origins.find((o) => o.origin === A2)?.gaps;
    assert.equal(gaps?.minMs, 10);
    assert.equal(gaps?.belowRequired, 1);
  });
});

describe("crawl report: where a broken URL came from", () => {
  it("names the linking page, or says it came from a seed or a sitemap", () => {
    const O = "https://a.example";
    const report = summarize([
      rec(O, "/gone", { status: 404, outcome: "fetched", via: "link", referrer: `${O}/` }),
      rec(O, "/listed", { status: 410, outcome: "fetched", via: "sitemap", referrer: null }),
      rec(O, "/start", { status: 404, outcome: "fetched", via: "seed", referrer: null }),
      rec(O, "/old", { status: 404, outcome: "fetched", referrer: null }),
    ]);
    assert.deepEqual(
      report.overall.brokenLinks.map((b) => [new URL(b.url).pathname, linkedFrom(b)]),
      [
        ["/gone", `${O}/`],
        ["/listed", "(a sitemap)"],
        ["/old", "(no page recorded)"],
        ["/start", "(a seed)"],
      ],
    );
  });
});
