// issue 27, row 5: a REGP `Mirror-site` line is a link like any other. A mirror outside the
// crawl's scope is not followed: no request reaches it, the seed's own pages are fetched, and the
// crawl log says why (`mirror-out-of-scope`). Private addresses are allowed per host the user
// named: a loopback seed opens its own host name, not every name that resolves to a private
// address (`localhost` here stands for a name resolving to 169.254.169.254).
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Crawler } from "heed";
import { createHttpClient } from "../../src/net/http-client.js";
import { openStore } from "../../src/store/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { startSite } from "../helpers/synthetic-site.js";

describe("Mirror-site through the crawl's scope", () => {
  it("a mirror on another origin is not followed; the seed's site is crawled where it is", async () => {
    const temp = await tempDir();
    const third = await startSite({ pages: 8, robots: "User-agent: *\nAllow: /\n" });
    const site = await startSite({
      pages: 3,
      links: 2,
      robots: `Robot-version: 3.0\n\nUser-agent: *\nDisallow: /private/\nMirror-site: ${third.origin}\n`,
    });
    try {
      const path = join(temp.dir, "crawl.db");
      const crawler = new Crawler({
        agent: "HeedTest",
        store: path,
        seeds: [`${site.origin}/?q=1`],
      });
      const summary = await crawler.run();
      assert.equal(summary.stoppedBy, "finished");
      assert.deepEqual(third.paths(), [], "nothing asked of the third party");
      assert.ok(site.paths().includes("/?q=1"), "the seed fetched where it is");
      const store = await openStore(path);
      try {
        const notes: string[] = [];
        for await (const batch of store.log.scan(100))
          for (const r of batch)
            if (r.outcome === "mirror-out-of-scope") notes.push(r.detail ?? "");
        assert.deepEqual(notes, [`${third.origin}/?q=1`]);
      } finally {
        await store.close();
      }
    } finally {
      await site.close();
      await third.close();
      await temp.cleanup();
    }
  });

  it("a private seed opens its own host name only: another name for a private address is refused", async () => {
    const site = await startSite({ pages: 1, robots: "User-agent: *\nAllow: /\n" });
    const port = new URL(site.origin).port;
    const client = createHttpClient({ userAgent: "HeedTest/1", privateHosts: ["127.0.0.1"] });
    try {
      const named = await client.fetchPage(`http://127.0.0.1:${port}/`);
      assert.equal(named.kind === "error" ? named.message : named.status, 200);
      const other = await client.fetchPage(`http://localhost:${port}/`);
      assert.equal(other.kind, "error");
      assert.match(
        other.kind === "error" ? other.message : "",
        /HEED_BLOCKED_ADDRESS|blocked|private|loopback/i,
      );
      assert.deepEqual(site.paths(), ["/"]);
    } finally {
      await client.close();
      await site.close();
    }
  });
});
