// The HTML crawl report (src/crawler/report-html.ts) as text: self-contained (no script, no
// outside resource), everything from the log escaped, one chart series per host up to
// MAX_SERIES. How it renders is checked in real Chromium by test/cli/report.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_SERIES, escapeHtml, reportHtml } from "../../src/crawler/report-html.js";
import { summarize } from "../../src/crawler/report.js";
import type { CrawlRecord } from "../../src/store/types.js";

const T0 = Date.UTC(2026, 2, 5, 12, 0, 0);

function rec(origin: string, i: number, fields: Partial<CrawlRecord> = {}): CrawlRecord {
  return {
    url: `${origin}/${i}`,
    origin,
    at: T0 + i * 250,
    ms: 20,
    status: 200,
    bytes: 100,
    outcome: "fetched",
    detail: null,
    ...fields,
  };
}

/** The series of one chart: `chart` (requests so far) or `rate` (requests per bucket). */
function series(html: string, id = "chart") {
  const start = html.indexOf(`<svg id="${id}"`);
  if (start === -1) return [];
  const svg = html.slice(start, html.indexOf("</svg>", start));
  return [...svg.matchAll(/<g class="series" data-origin="([^"]*)"/g)];
}

describe("HTML report", () => {
  it("is self-contained: no script, no outside resource, a CSP that allows none", () => {
    const html = reportHtml(summarize([rec("https://a.example", 0), rec("https://a.example", 1)]), {
      source: "./heed-crawl.db",
      generatedAt: T0,
    });
    assert.match(html, /^<!doctype html>/);
    assert.doesNotMatch(html, /<script|<link|<img|<iframe|\ssrc=|@import|url\(/i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.match(html, /<svg id="chart"/);
    assert.equal(series(html).length, 1);
    assert.equal(series(html, "rate").length, 1);
  });

  it("escapes every text from the log: origins, outcomes, messages, the store's name", () => {
    const evil = `https://x.example/"><script>alert(1)</script>`;
    const html = reportHtml(
      summarize([
        rec(evil, 0, { outcome: "<b>odd</b>" }),
        rec(evil, 1, {
          status: null,
          outcome: "error",
          detail: `<img src=x onerror="alert('1')">`,
        }),
      ]),
      { source: "<store & co>" },
    );
    assert.doesNotMatch(html, /<script|<img|<b>odd/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;img src=x onerror=&quot;alert\(&#39;1&#39;\)&quot;&gt;/);
    assert.match(html, /store &lt;store &amp; co&gt;/);
    assert.equal(series(html)[0]?.[1], escapeHtml(evil));
  });

  it(`draws one series per host, up to ${MAX_SERIES}; past that the least busy are summed into one`, () => {
    const hosts = (n: number) =>
      Array.from({ length: n }, (_, h) => `https://h${String(h).padStart(2, "0")}.example`);
    const records = (n: number) =>
      hosts(n).flatMap((origin, h) =>
        Array.from({ length: 30 - h }, (_, i) => rec(origin, i, { at: T0 + i * 500 + h })),
      );
    assert.deepEqual(
      series(reportHtml(summarize(records(3)))).map((m) => m[1]),
      hosts(3),
    );
    const html = reportHtml(summarize(records(14)));
    const many = series(html).map((m) => m[1]);
    assert.deepEqual(
      series(html, "rate").map((m) => m[1]),
      many,
    );
    assert.equal(many.length, MAX_SERIES);
    assert.deepEqual(many.slice(0, MAX_SERIES - 1), hosts(MAX_SERIES - 1));
    assert.equal(many[MAX_SERIES - 1], "5 other hosts, mean per host");
  });

  it("an empty log still makes a page, saying there were no requests", () => {
    const html = reportHtml(summarize([]));
    assert.match(html, /No requests in this log/);
    assert.equal(series(html).length, 0);
  });

  it("marks a host whose gaps fell below the required ones", () => {
    const html = reportHtml(
      summarize([
        rec("https://ok.example", 0),
        rec("https://ok.example", 1, { at: T0 + 1020, gapMs: 1000, requiredGapMs: 1000 }),
        rec("https://rude.example", 0),
        rec("https://rude.example", 1, { gapMs: 10, requiredGapMs: 1000 }),
      ]),
    );
    const gaps = html.slice(html.indexOf('<table id="gaps">'));
    assert.match(gaps, /<tr class="bad"><th>https:\/\/rude\.example<\/th>/);
    assert.doesNotMatch(gaps.slice(0, gaps.indexOf("</table>")), /class="bad"><th>https:\/\/ok/);
    assert.match(html, /data-card="gaps below required"><dt>[^<]*<\/dt><dd>1<\/dd>/);
  });
});
