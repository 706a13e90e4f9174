/**
 * The module of seeds/003 §4.1 that "automatically maintain[s] sitemap.xml and generates
 * snapshots for specific news pages" (Figs. 2-3): releasing news writes its snapshot under
 * /html/ and adds its entry to the sitemap; a new comment writes the snapshot again and moves
 * the entry's `<lastmod>`. Files live in the site's directory and are replaced atomically, so
 * a crawler reading while they change gets the old file or the new one.
 *
 * Which URL goes where: §4.1's prose puts the item page in `<loc>` and the snapshot in
 * `<srcloc>`, but §3.2.12 defines `<srcloc>` as "the URL of the original page" of a crawler
 * page, and §5's sitemap entry writes `<loc>` …/html/news1.html, `<srcloc>` …/newsItem.do?id=1.
 * heed follows §3.2.12 and §5 (DESIGN §4): `<loc>` the snapshot, `<srcloc>` the item page.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { formatW3cDatetime, type SitemapUrlInput } from "../../protocol/sitemap/index.js";
import { updateSitemap, writeSitemaps } from "../sitemap-writer.js";
import type { NewsItem } from "./content.js";
import { itemPath, snapshotPage, snapshotPath } from "./pages.js";

export const SITEMAP_FILE = "sitemap.xml";

/** When an item last changed: its release, or its newest comment. */
export function itemLastmod(item: NewsItem): number {
  return item.comments.reduce((latest, c) => Math.max(latest, c.at), item.releasedAt);
}

/** The sitemap entry of an item, as §5 writes it (weekly, 0.5, `<type>data`). */
export function sitemapEntry(item: NewsItem, origin: string): SitemapUrlInput {
  return {
    loc: new URL(snapshotPath(item.id), origin).href,
    srcloc: new URL(itemPath(item.id), origin).href,
    // Whole seconds: a comment a second later still moves it, and the file reads cleanly.
    lastmod: formatW3cDatetime(Math.floor(itemLastmod(item) / 1000) * 1000),
    changefreq: "weekly",
    priority: 0.5,
    type: "data",
  };
}

export class Publisher {
  /** Changes are made one after another, in the order they were asked for. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly origin: string,
  ) {}

  /** Writes every item's snapshot and the whole sitemap: the site's state at startup. */
  async publishAll(items: readonly NewsItem[]): Promise<void> {
    await this.serial(async () => {
      await mkdir(join(this.dir, "html"), { recursive: true });
      for (const item of items) await this.writeSnapshot(item);
      await writeSitemaps(
        items.map((item) => sitemapEntry(item, this.origin)),
        { outDir: this.dir, baseUrl: `${this.origin}/`, name: "sitemap" },
      );
    });
  }

  /** Fig. 2 (a release) and Fig. 3 (a comment): the snapshot, then the sitemap entry. */
  async publish(item: NewsItem): Promise<void> {
    await this.serial(async () => {
      await this.writeSnapshot(item);
      await updateSitemap(join(this.dir, SITEMAP_FILE), sitemapEntry(item, this.origin), {
        baseUrl: `${this.origin}/`,
      });
    });
  }

  /** A file the site serves from its directory (`sitemap.xml`, `html/newsN.html`), or null. */
  async read(relative: string): Promise<Buffer | null> {
    try {
      return await readFile(join(this.dir, relative));
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return null;
      throw error;
    }
  }

  /** Settles when every change asked for so far is written. */
  async idle(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async writeSnapshot(item: NewsItem): Promise<void> {
    const path = join(this.dir, snapshotPath(item.id));
    const tmp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(tmp, snapshotPage(item, this.origin));
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }
}
