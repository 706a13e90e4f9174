// heed crawl --agents at the library level (crawler/agent-paths.ts and its hook in the crawler):
// pages an agent indexed are filed as if fetched, marked as the agent's, handed to onPage with
// the index record as their body, and a page whose meta robots says noindex is filed, not kept.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { AgentPaths } from "../../src/crawler/agent-paths.js";
import { crawl, type FetchedPage } from "../../src/crawler/crawler.js";
import { createHttpClient } from "../../src/net/http-client.js";
import { AgentHost } from "../../src/site/agent-host/host.js";
import { openStore } from "../../src/store/index.js";
import { type AgentSite, makeAgentSite } from "../helpers/agent-site.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { type StaticSite, serveDirectory } from "../helpers/static-site.js";

describe("crawling with agents", { timeout: 60_000 }, () => {
  let site: AgentSite;
  let http: StaticSite;
  let host: AgentHost;
  let hostUrl: string;

  before(async () => {
    site = await makeAgentSite();
    await mkdir(join(site.root, "home/user1/meta"), { recursive: true });
    await writeFile(
      join(site.root, "home/user1/meta/hidden.html"),
      '<meta name="robots" content="noindex"><title>Hidden</title>',
    );
    host = new AgentHost({ root: site.root, host: "127.0.0.1", port: 0, assign: ["/home/user1/"] });
    hostUrl = await host.listen();
    http = await serveDirectory(
      site.root,
      `User-agent: *\nDisallow: /home/user1/private/\nMobile-agent-server: /home/user1/ ${hostUrl}\n`,
    );
  });
  after(async () => {
    await http.close();
    await host.close();
    await site.cleanup();
  });

  it("files the agent's pages, hands them to onPage, keeps noindex pages out", async () => {
    const temp = await tempDir();
    const store = await openStore(join(temp.dir, "crawl.db"));
    const client = createHttpClient({ userAgent: "HeedTest/1", allowPrivateAddresses: true });
    const pages: FetchedPage[] = [];
    try {
      const summary = await crawl({
        seeds: [`${http.origin}/home/user1/`],
        agent: "HeedTest",
        userAgent: "HeedTest/1",
        store,
        client,
        maxPages: 100,
        maxDepth: 0,
        concurrency: 2,
        perHost: 1,
        scope: "prefix",
        agents: new AgentPaths({
          robot: "HeedTest",
          userAgent: "HeedTest/1",
          store,
          allowPrivate: true,
          now: Date.now,
        }),
        onPage: async (page) => {
          pages.push(page);
        },
      });
      const log = await store.log.list(100, 0);
      const byOutcome = (o: string) =>
        log
          .filter((r) => r.outcome === o)
          .map((r) => new URL(r.url).pathname)
          .sort();
      // maxDepth 0: no link is followed, yet every page of the index is filed.
      assert.deepEqual(byOutcome("indexed-by-agent"), [
        "/home/user1/",
        "/home/user1/index.html",
        "/home/user1/notes.txt",
        "/home/user1/sub/a.html",
      ]);
      assert.deepEqual(byOutcome("indexed-by-agent-noindex"), ["/home/user1/meta/hidden.html"]);
      assert.equal(summary.fetched, 5);
      // Over HTTP: robots.txt only, no page.
      // maxDepth 0 covers sitemap entries too: no sitemap is read.
      assert.deepEqual(http.requests.sort(), ["/robots.txt"]);
      const first = pages.find((p) => p.url.endsWith("/home/user1/index.html"));
      assert.equal(first?.headers["x-heed-indexed-by"], hostUrl);
      const record = JSON.parse(new TextDecoder().decode(first?.body ?? new Uint8Array())) as {
        title: string;
      };
      assert.equal(record.title, "User & one");
      assert.equal(
        pages.some((p) => p.url.endsWith("hidden.html")),
        false,
      );
      const validators = await store.pages.get(`${http.origin}/home/user1/notes.txt`);
      assert.equal(validators?.status, 200);
      assert.match(String(validators?.lastModified), /GMT$/);
    } finally {
      await client.close();
      await store.close();
      await temp.cleanup();
    }
  });
});
