// fetch.ts: what a page request sends. The site's REGP Cookie line (seeds/003 §3.2.10) first,
// the crawler author's cookie after it; validators as conditional headers (RFC 9110 §13.1);
// heed's own headers win over the author's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EMPTY_PLAN } from "../../../src/protocol/robots/plan.js";
import { pageHeaders, sameRule } from "../../../src/crawler/stages/fetch.js";

const base = {
  userAgent: "HeedTest/1",
  siteCookie: null,
  userCookie: null,
  extra: null,
  validators: null,
};

describe("pageHeaders", () => {
  it("sends nothing but what heed always sends when nothing asks more", () => {
    const { headers, sent } = pageHeaders(base);
    assert.deepEqual(headers, {});
    assert.deepEqual(sent, { "user-agent": "HeedTest/1", "accept-encoding": "gzip, deflate, br" });
  });

  it("joins the site's cookie and the author's, the site's first", () => {
    const { headers } = pageHeaders({ ...base, siteCookie: "a=1", userCookie: "b=2" });
    assert.equal(headers.cookie, "a=1; b=2");
    assert.equal(pageHeaders({ ...base, userCookie: "b=2" }).headers.cookie, "b=2");
    assert.equal(
      pageHeaders({ ...base, siteCookie: "", userCookie: "" }).headers.cookie,
      undefined,
    );
  });

  it("asks conditionally with the validators kept, and the author's headers cannot replace heed's", () => {
    const { headers, sent } = pageHeaders({
      ...base,
      extra: { "user-agent": "Other/1", "x-a": "1" },
      validators: {
        url: "https://a.example/",
        etag: '"e"',
        lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
        fetchedAt: 0,
        status: 200,
      },
    });
    assert.equal(headers.ifNoneMatch, '"e"');
    assert.equal(headers.ifModifiedSince, "Wed, 21 Oct 2015 07:28:00 GMT");
    assert.equal(sent["user-agent"], "HeedTest/1");
    assert.equal(sent["x-a"], "1");
  });
});

describe("sameRule", () => {
  it("tells plans that ask the same of the reservation from those that do not", () => {
    assert.equal(sameRule(EMPTY_PLAN, { ...EMPTY_PLAN }, 2), true);
    // Rules not known yet: one request at a time; known and unpaced: perHost.
    assert.equal(sameRule(null, EMPTY_PLAN, 2), false);
    assert.equal(sameRule(null, EMPTY_PLAN, 1), true);
    const delayed = { ...EMPTY_PLAN, delaySeconds: 1, crawlDelay: { value: 1, line: 2 } };
    assert.equal(sameRule(EMPTY_PLAN, delayed, 2), false);
  });
});
