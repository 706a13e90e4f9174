// sitemaps.ts: which sites are read for sitemaps. seeds/003 §3.2.11: a site that sends the
// robot to a mirror is crawled there, its own sitemaps unread; --no-sitemaps, a --queued run
// that does not follow, and --max-depth 0 read none.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EMPTY_PLAN } from "../../../src/protocol/robots/plan.js";
import type { SiteView } from "../../../src/crawler/site-rules.js";
import { wantsSitemaps } from "../../../src/crawler/stages/sitemaps.js";
import type { Verdict } from "../../../src/crawler/verdict.js";

const open: SiteView = { kind: "open", detail: "404" };
const allowed: Verdict = { allowed: true, plan: EMPTY_PLAN, rule: null };
type Site = Parameters<typeof wantsSitemaps>[0];
const ok: Site = { view: open, base: allowed, sitemaps: true, following: true, maxDepth: 5 };

describe("wantsSitemaps", () => {
  const table: [string, Partial<Site>, boolean][] = [
    ["a site open to the robot", {}, true],
    [
      "a closed site",
      { view: { kind: "closed", detail: "503", retryAt: 0, forbidden: false } },
      false,
    ],
    [
      "a site refusing the robot",
      { base: { allowed: false, why: "x", retryAt: null, plan: EMPTY_PLAN } },
      false,
    ],
    [
      "a site sending it to a mirror",
      {
        base: {
          ...allowed,
          plan: { ...EMPTY_PLAN, mirror: { value: "m.example", line: 3 } } as typeof EMPTY_PLAN,
        },
      },
      false,
    ],
    ["--no-sitemaps", { sitemaps: false }, false],
    ["--queued without --follow", { following: false }, false],
    ["--max-depth 0", { maxDepth: 0 }, false],
  ];
  for (const [name, change, wanted] of table)
    it(name, () => assert.equal(wantsSitemaps({ ...ok, ...change }), wanted));
});
