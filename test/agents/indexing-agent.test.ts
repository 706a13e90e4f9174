// heed's indexing agent (issue 9, "The robot side"), run by a real agent host over ATP: per page
// URL, title, text digest, content hash, links and lastmod, checked against the files; what
// robots.txt forbids and symlinks out of the subtree never appear.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { dispatchAgent } from "../../src/crawler/agents/dispatch.js";
import { AgentHost } from "../../src/site/agent-host/host.js";
import { type AgentSite, makeAgentSite, seedRobots } from "../helpers/agent-site.js";

const SITE = "http://www.fict.org";

interface Page {
  type: string;
  url: string;
  title: string | null;
  digest: string | null;
  sha256: string;
  links: string[];
  lastmod: string;
  size: number;
}

describe("the indexing agent", { timeout: 60_000 }, () => {
  let site: AgentSite;
  let host: AgentHost;
  let url: string;
  before(async () => {
    site = await makeAgentSite();
    await writeFile(
      join(site.root, "robots.txt"),
      seedRobots("atp://127.0.0.1:9", "atp://127.0.0.1:8"),
    );
    host = new AgentHost({ root: site.root, host: "127.0.0.1", port: 0, assign: ["/home/user1/"] });
    url = await host.listen();
  });
  after(async () => {
    await host.close();
    await site.cleanup();
  });

  const index = (state: Record<string, number> | null = null) =>
    dispatchAgent(url, {
      site: SITE,
      path: "/home/user1/",
      robot: "HeedBot",
      userAgent: "HeedBot/1",
      allowPrivate: true,
      ...(state === null ? {} : { state }),
    });

  it("records each page of the subtree, and only those robots.txt allows", async () => {
    const result = await index();
    assert.equal(result.status, "finished", JSON.stringify(result.error));
    const pages = result.records as unknown as Page[];
    assert.deepEqual(
      pages.map((p) => p.url),
      ["/home/user1/index.html", "/home/user1/notes.txt", "/home/user1/sub/a.html"].map(
        (p) => SITE + p,
      ),
    );
    for (const page of pages) {
      const path = new URL(page.url).pathname;
      const html = site.pages.get(path) as string;
      assert.equal(page.sha256, createHash("sha256").update(html).digest("hex"), path);
      assert.equal(page.size, Buffer.byteLength(html));
      assert.equal(page.lastmod, (await stat(join(site.root, path))).mtime.toISOString());
    }
    const [home, notes, deep] = pages;
    assert.equal(home?.title, "User & one");
    assert.equal(home?.digest, "User & one Hello from user one. a two other");
    assert.deepEqual(home?.links, [
      `${SITE}/home/user1/sub/a.html`,
      `${SITE}/home/user2/`,
      "https://other.example/x",
    ]);
    assert.deepEqual([notes?.title, notes?.digest, notes?.links], [null, "plain text notes", []]);
    // Script text is not part of the digest.
    assert.equal(deep?.digest, "A Deep page");
    assert.deepEqual(result.state, {
      maxPages: 100000,
      digestLength: 280,
      pages: 3,
      errors: 0,
      truncated: false,
      site: SITE,
    });
  });

  it("stops at maxPages and says it did", async () => {
    const result = await index({ maxPages: 1 });
    assert.equal(result.records.length, 1);
    assert.equal((result.state as { truncated: boolean }).truncated, true);
  });

  it("sent for one page, indexes that page", async () => {
    const result = await dispatchAgent(url, {
      site: SITE,
      path: "/home/user1/sub/a.html",
      robot: "HeedBot",
      userAgent: "HeedBot/1",
      allowPrivate: true,
    });
    assert.deepEqual(
      result.records.map((r) => (r as unknown as Page).url),
      [`${SITE}/home/user1/sub/a.html`],
    );
  });

  it("honours <meta name=robots>, one naming its robot, and rel=nofollow", async () => {
    const dir = join(site.root, "home/user1/meta");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "a.html"),
      '<meta name="robots" content="noindex"><a href="x.html">x</a>',
    );
    await writeFile(
      join(dir, "b.html"),
      '<meta name="HeedBot" content="nofollow"><a href="x.html">x</a>',
    );
    await writeFile(
      join(dir, "c.html"),
      '<meta name="OtherBot" content="none"><a rel="nofollow" href="x.html">x</a> <a href="y.html">y</a>',
    );
    const result = await dispatchAgent(url, {
      site: SITE,
      path: "/home/user1/meta/",
      robot: "HeedBot",
      userAgent: "HeedBot/1",
      allowPrivate: true,
    });
    const pages = result.records as unknown as (Page & { noindex: boolean; nofollow: boolean })[];
    assert.deepEqual(
      pages.map((p) => [new URL(p.url).pathname, p.noindex, p.nofollow, p.links]),
      [
        ["/home/user1/meta/a.html", true, false, [`${SITE}/home/user1/meta/x.html`]],
        ["/home/user1/meta/b.html", false, true, []],
        ["/home/user1/meta/c.html", false, false, [`${SITE}/home/user1/meta/y.html`]],
      ],
    );
  });
});
