// A crawl whose storage fills up mid-crawl, on a real small filesystem (a tmpfs of a few
// hundred KiB): a WARC output, and an SQLite store. Each ends with exit 3 and words naming the
// file and the cause, where the WARC output exited 2 and the SQLite store spun on its errors
// forever. The WARC files end at their last whole record (read back whole by warcio), no empty
// file is left, and no page is lost: run again with room, the crawl fetches what is missing.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { WARCParser } from "warcio";
import { tempDir } from "../helpers/crawl-harness.js";
import { onMountedDisk } from "../helpers/mounted-disk.js";
import { runCli } from "../helpers/run-cli.js";
import { mountSmallDisk } from "../helpers/small-disk.js";
import { pageHtml, pagePath, startSite, type SiteOptions } from "../helpers/synthetic-site.js";

const PAGES = 40;
/** Random text a page: it does not compress, so the disk fills after about twenty pages. */
const PAGE_NOISE_BYTES = 12 * 1024;
const DISK_KIB = 256;
/** A site whose crawl log and frontier outgrow {@link STORE_DISK_KIB}. */
const STORE_PAGES = 1500;
/** Room for the store's schema and its first few hundred records. */
const STORE_DISK_KIB = 1024;

/** A site of {@link PAGES} pages, each with incompressible text. */
function noisySite() {
  const options: SiteOptions = { pages: PAGES, links: 5 };
  return startSite({
    ...options,
    route: (req, res) => {
      const match = /^\/(?:page\/(\d+)\.html)?$/.exec(req.url ?? "");
      if (match === null) return false;
      const html = pageHtml(Number(match[1] ?? 0), options).replace(
        "</body>",
        `<p>${randomBytes(PAGE_NOISE_BYTES).toString("base64")}</p></body>`,
      );
      res.writeHead(200, { "content-type": "text/html" }).end(html);
      return true;
    },
  });
}

/** The URLs of the 200 responses in every WARC file of `dir`; each file read to its end. */
async function archivedPages(dir: string): Promise<Set<string>> {
  const urls = new Set<string>();
  for (const name of (await readdir(dir)).filter((n) => n.endsWith(".warc.gz"))) {
    const path = join(dir, name);
    assert.ok((await stat(path)).size > 0, `${name} is empty`);
    for await (const record of WARCParser.iterRecords(createReadStream(path))) {
      await record.readFully();
      const status = record.httpHeaders?.statusCode;
      const url = record.warcTargetURI;
      if (record.warcType === "response" && status === 200 && typeof url === "string")
        urls.add(url);
    }
  }
  return urls;
}

describe("heed crawl when its storage fails", { timeout: 240_000 }, () => {
  it("a WARC output that fills the disk: exit 3, the files whole, no page lost", async (t) => {
    const temp = await tempDir("heed-cli-full-");
    const site = await noisySite();
    const mount = () => mountSmallDisk(join(temp.dir, "small"), DISK_KIB);
    await onMountedDisk({ t, temp, site, mount }, async (disk) => {
      const args = ["crawl", `${site.origin}/`, "--agent", "heedtest", "--no-sitemaps"];
      const store = ["--store", join(temp.dir, "full.db")];
      const full = await runCli([...args, ...store, "--out", disk.dir, "--json"], {
        timeoutMs: 100_000,
      });
      assert.equal(full.code, 3, full.stderr);
      assert.match(full.stderr, /no space left/);
      assert.match(full.stderr, new RegExp(`${disk.dir}/heed-[0-9-]+\\.warc\\.gz`));
      const first = await archivedPages(disk.dir);
      assert.ok(first.size > 0 && first.size < PAGES, `${first.size} pages archived`);
      assert.match(full.stderr, /\d+ fetched, \d+ skipped, \d+ failed in [\d.]+ s; then the WARC/);
      await disk.unmount();

      const roomy = join(temp.dir, "roomy");
      const again = await runCli([...args, ...store, "--out", roomy, "--json"], {
        timeoutMs: 100_000,
      });
      assert.equal(again.code, 0, again.stderr);
      const second = await archivedPages(roomy);
      const every = Array.from({ length: PAGES }, (_, n) => `${site.origin}${pagePath(n)}`);
      const lost = every.filter((url) => !first.has(url) && !second.has(url));
      assert.deepEqual(lost, []);
    });
  });

  it("an SQLite store that fills the disk: exit 3 naming it, and the crawl resumes", async (t) => {
    const temp = await tempDir("heed-cli-full-db-");
    const site = await startSite({ pages: STORE_PAGES, links: 20 });
    const mount = () => mountSmallDisk(join(temp.dir, "small"), STORE_DISK_KIB);
    await onMountedDisk({ t, temp, site, mount }, async (disk) => {
      const db = join(disk.dir, "crawl.db");
      const args = [
        "crawl",
        `${site.origin}/`,
        "--agent",
        "heedtest",
        "--no-sitemaps",
        "--max-pages",
        String(STORE_PAGES),
        "--concurrency",
        "4",
        "--per-host",
        "4",
        "--json",
        "--store",
        db,
      ];
      const full = await runCli(args, { timeoutMs: 100_000 });
      assert.equal(full.code, 3, full.stderr);
      assert.match(full.stderr, new RegExp(`the store ${db} cannot be written: .*SQLITE_FULL`));
      await disk.grow(STORE_DISK_KIB * 16);
      const again = await runCli(args, { timeoutMs: 200_000 });
      assert.equal(again.code, 0, again.stderr);
      const summary = JSON.parse(again.stdout) as { done: number; queued: number };
      assert.deepEqual([summary.done, summary.queued], [STORE_PAGES, 0]);
      const pages = new Set(site.paths().filter((path) => path !== "/robots.txt"));
      assert.equal(pages.size, STORE_PAGES);
    });
  });
});
