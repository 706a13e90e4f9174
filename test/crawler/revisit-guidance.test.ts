// The revisit interval and frontier order from the site's guidance, as pure functions:
// sitemaps.org <changefreq>/<priority>/<lastmod> and REGP Index-page / Change-* (seeds/003
// §3.2.14-3.2.15).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EMPTY_PLAN, type AccessPlan } from "../../src/protocol/robots/plan.js";
import type { ChangeFreq } from "../../src/protocol/sitemap/types.js";
import {
  changedSince,
  INDEX_PAGE_REVISIT_MS,
  REVISIT_AFTER_MS,
  revisitOf,
  sitemapEntryPriority,
} from "../../src/crawler/revisit.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function plan(change: ChangeFreq | null, indexPage: string | null = null): AccessPlan {
  return {
    ...EMPTY_PLAN,
    change: change === null ? null : { value: change, line: 7 },
    indexPage: indexPage === null ? null : { value: indexPage, line: 5 },
  };
}

describe("revisitOf", () => {
  const cases: {
    name: string;
    change: ChangeFreq | null;
    index: string | null;
    sitemap: ChangeFreq | null;
    afterMs: number | null;
    basis?: RegExp;
  }[] = [
    { name: "nothing said", change: null, index: null, sitemap: null, afterMs: null },
    {
      name: "Change-daily",
      change: "daily",
      index: null,
      sitemap: null,
      afterMs: DAY,
      basis: /^Change-daily \(line 7\)$/,
    },
    { name: "Change-never alone", change: "never", index: null, sitemap: null, afterMs: null },
    {
      name: "Index-page",
      change: null,
      index: "/news/",
      sitemap: null,
      afterMs: INDEX_PAGE_REVISIT_MS,
      basis: /^Index-page \/news\/ \(line 5\)$/,
    },
    {
      name: "sitemap weekly",
      change: null,
      index: null,
      sitemap: "weekly",
      afterMs: 7 * DAY,
      basis: /sitemap changefreq weekly/,
    },
    {
      name: "shortest wins: sitemap hourly over Change-monthly",
      change: "monthly",
      index: null,
      sitemap: "hourly",
      afterMs: HOUR,
      basis: /sitemap/,
    },
    {
      name: "shortest wins: Change-always over Index-page",
      change: "always",
      index: "/",
      sitemap: null,
      afterMs: 15 * 60_000,
      basis: /Change-always/,
    },
    {
      name: "never does not cancel another's interval",
      change: "never",
      index: null,
      sitemap: "yearly",
      afterMs: 365 * DAY,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = revisitOf({ plan: plan(c.change, c.index), changefreq: c.sitemap });
      assert.equal(r?.afterMs ?? null, c.afterMs);
      if (c.basis !== undefined) assert.match(r?.basis ?? "", c.basis);
    });
  }

  it("every change frequency but never brings a page back, the shorter word sooner", () => {
    const order: ChangeFreq[] = ["always", "hourly", "daily", "weekly", "monthly", "yearly"];
    const values = order.map((f) => REVISIT_AFTER_MS[f] ?? Infinity);
    assert.deepEqual(
      [...values].sort((a, b) => a - b),
      values,
    );
    assert.equal(REVISIT_AFTER_MS.never, null);
  });
});

describe("sitemapEntryPriority", () => {
  const now = Date.UTC(2026, 0, 31);
  it("the <priority> band comes first, then the newer <lastmod>", () => {
    const high = sitemapEntryPriority(0.9, now - 300 * DAY, now);
    const fresh = sitemapEntryPriority(0.5, now - DAY, now);
    const stale = sitemapEntryPriority(0.5, now - 60 * DAY, now);
    const none = sitemapEntryPriority(null, null, now);
    assert.ok(high > fresh && fresh > stale && stale > none);
    assert.equal(none, 15, "the default priority 0.5");
    assert.ok(sitemapEntryPriority(0, null, now) >= 10, "above every link (0)");
    assert.ok(sitemapEntryPriority(1, now, now) < 50, "below Index-page paths");
  });
});

describe("changedSince", () => {
  it("only a lastmod after the fetch", () => {
    assert.equal(changedSince(null, 100), false);
    assert.equal(changedSince(100, 100), false);
    assert.equal(changedSince(101, 100), true);
  });
});
