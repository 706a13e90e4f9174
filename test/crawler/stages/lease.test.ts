// lease.ts: a site closed for now (robots.txt 5xx or unreachable: RFC 9309 §2.3.1.4) is
// waited for, at most the run's site wait, then set aside with its URLs left queued.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { closedSiteWait } from "../../../src/crawler/stages/lease.js";

describe("closedSiteWait", () => {
  const table: [string, number, number, number, number, ReturnType<typeof closedSiteWait>][] = [
    ["waits until the site's retry moment", 0, 10, 1000, 100, { setAside: false, until: 100 }],
    ["never past the site wait", 0, 10, 50, 100, { setAside: false, until: 50 }],
    ["sets the site aside once the wait is spent", 0, 50, 50, 100, { setAside: true }],
    ["a site wait of 0 sets it aside at once", 5, 5, 0, 100, { setAside: true }],
  ];
  for (const [name, first, now, limit, retryAt, expected] of table)
    it(name, () => assert.deepEqual(closedSiteWait(first, now, limit, retryAt), expected));
});
