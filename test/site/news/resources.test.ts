// The rows of seeds/003 Tables 9-11 read from a request log: which class each path belongs
// to, what counts as fetched, and the smallest gap before a request of each class.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classify, resourceRows } from "../../../src/site/news/resources.js";
import type { LoggedRequest } from "../../../src/site/news/site.js";

describe("resource classes", () => {
  // seeds/003 §4.1 lists the site's pages; §5's tables sort them into four classes.
  const table = [
    ["/", { kind: "page", resource: "home page", key: "/" }],
    ["/login.do", { kind: "page", resource: "useless pages", key: "/login.do" }],
    ["/login.do?next=%2F", { kind: "page", resource: "useless pages", key: "/login.do" }],
    ["/reg.do", { kind: "page", resource: "useless pages", key: "/reg.do" }],
    ["/newsRelease.do", { kind: "page", resource: "useless pages", key: "/newsRelease.do" }],
    ["/news.do?q=bus", { kind: "page", resource: "search page", key: "/news.do" }],
    ["/newsItem.do?id=9", { kind: "news", id: 9, form: "item" }],
    ["/html/news9.html", { kind: "news", id: 9, form: "snapshot" }],
    ["/comments.do?id=9", { kind: "news", id: 9, form: "comments" }],
    ["/newsItem.do?id=0", { kind: "other" }],
    ["/newsItem.do?id=x", { kind: "other" }],
    ["/html/news0.html", { kind: "other" }],
    ["/robots.txt", { kind: "other" }],
    ["/sitemap.xml", { kind: "other" }],
  ] as const;
  for (const [path, expected] of table) {
    it(path, () => assert.deepEqual(classify(path), expected));
  }
});

function log(entries: readonly (readonly [number, string])[]): LoggedRequest[] {
  return entries.map(([at, path]) => ({
    at,
    path,
    method: "GET",
    status: 200,
    userAgent: null,
    cookie: null,
  }));
}

describe("rows from a log", () => {
  const ids = [1, 2, 3, 4, 5];
  const latest = [5, 4, 3];

  it("counts resources, not requests, and the gap before each request of a class", () => {
    const rows = resourceRows(
      // Out of order on purpose: the rows follow arrival times.
      log([
        [1_000, "/robots.txt"],
        [1_010, "/sitemap.xml"],
        [3_510, "/html/news1.html"],
        [1_510, "/"],
        [2_510, "/html/news5.html"],
        [4_600, "/html/news1.html"],
        [5_000, "/newsItem.do?id=2"],
        [5_003, "/comments.do?id=2"],
      ]),
      { ids, latest },
    );
    const byName = Object.fromEntries(rows.map((r) => [r.resource, r]));
    assert.deepEqual(byName["home page"], {
      resource: "home page",
      fetched: 1,
      total: 1,
      minGapSeconds: 0.5,
      requests: 1,
    });
    assert.deepEqual(byName["latest news"], {
      resource: "latest news",
      fetched: 1,
      total: 3,
      minGapSeconds: 1,
      requests: 1,
      viaSnapshot: 1,
      viaItemPage: 0,
      withComments: 1,
    });
    // Item 1 twice through its snapshot, item 2 through its page and its Ajax call.
    assert.deepEqual(byName["old news"], {
      resource: "old news",
      fetched: 2,
      total: 2,
      minGapSeconds: 0.003,
      requests: 4,
      viaSnapshot: 1,
      viaItemPage: 1,
      withComments: 2,
    });
    assert.equal(byName["useless pages"]?.fetched, 0);
    assert.equal(byName["useless pages"]?.minGapSeconds, null);
  });

  it("an item page without its Ajax call has no comments; the Ajax call alone is no fetch", () => {
    const rows = resourceRows(
      log([
        [0, "/newsItem.do?id=5"],
        [10, "/comments.do?id=4"],
      ]),
      { ids, latest },
    );
    const latestRow = rows.find((r) => r.resource === "latest news");
    assert.equal(latestRow?.fetched, 1);
    assert.equal(latestRow?.withComments, 0);
    assert.equal(latestRow?.minGapSeconds, 0.01, "the first request has no gap; the second has");
  });

  it("form posts are not fetches", () => {
    const rows = resourceRows(
      [{ at: 0, path: "/login.do", method: "POST", status: 303, userAgent: null, cookie: null }],
      { ids, latest },
    );
    assert.equal(rows.find((r) => r.resource === "useless pages")?.requests, 0);
  });
});
