/**
 * A site's datasets as one robot may see them (seeds/002; docs/data-txt.md): robots.txt first,
 * then /data.txt in either form, the folders' manifests one level down, and on a 404 the
 * fallback of seeds/002 §3.1 — sitemap entries and home-page links that look like data, each
 * marked as a guess. Every URL is asked of robots.txt; one that it forbids is listed as not
 * fetchable, with the line that forbids it. Every request is paced by the site's rules.
 */
import { fetchDataTxt } from "../../net/data-txt-fetch.js";
import type { HttpClient } from "../../net/http-client.js";
import { openSitemap, readSitemaps } from "../../net/sitemap-fetch.js";
import {
  type DataTxt,
  type DataTxtForm,
  type DatasetEntry,
  type Diagnostic,
  type DraftRule,
  looksLikeData,
  offeredTo,
  readDataTxt,
  resolveDatasetPath,
} from "../../protocol/datasets/index.js";
import { sitemapsFromRobots } from "../../protocol/sitemap/index.js";
import { forEachStartTag } from "../html-tags.js";
import { type Permission, readSiteAccess, type SiteAccess } from "./site-access.js";
import { SitePacer } from "./site-pacer.js";

/** Manifests followed on one site; a catalog of more folders than this is listed, not followed. */
export const MAX_MANIFESTS = 100;
/** Guesses kept from the fallback; more would drown the listing. */
export const MAX_GUESSES = 1_000;
/** Sitemap entries looked at in the fallback (sitemaps.org allows 50,000 per file). */
export const MAX_SITEMAP_URLS_SCANNED = 200_000;
/** Sitemap files read by the fallback: the robots.txt's own and an index's first few; a guess is worth no more. */
export const MAX_FALLBACK_SITEMAPS = 10;
/** Bytes of the home page read for links. */
export const MAX_HOME_PAGE_BYTES = 4 * 1024 * 1024;

export type DatasetVia = "data.txt" | "manifest" | "sitemap" | "link";

/** One file of a dataset, and whether the robot may fetch it. */
export interface DatasetFile {
  readonly url: string;
  /** robots.txt allows it and the data.txt record does not close it. */
  readonly fetchable: boolean;
  readonly why: string;
}

export interface SiteDataset {
  readonly entry: DatasetEntry;
  readonly via: DatasetVia;
  /** The URL of the file that listed it (data.txt, a manifest, a sitemap, the home page). */
  readonly source: string;
  /** The form of the file that listed it; null for guesses. */
  readonly form: DataTxtForm | null;
  /** Found by the fallback, not listed by the site. */
  readonly guess: boolean;
  /** Why it was taken for data (guesses only). */
  readonly guessWhy: string | null;
  /** Draft form: the Disallow line of data.txt that closes it to harvesting. */
  readonly closedBy: DraftRule | null;
  readonly files: readonly DatasetFile[];
  /** At least one file is fetchable. */
  readonly fetchable: boolean;
}

export interface SourcedNote extends Diagnostic {
  /** The URL the note is about (data.txt, a manifest, a sitemap). */
  readonly source: string;
}

export interface SiteCatalog {
  readonly site: string;
  readonly agent: string;
  readonly robots: {
    readonly url: string;
    readonly status: number | null;
    readonly action: SiteAccess["action"];
    readonly why: string;
  };
  readonly dataTxt: {
    readonly url: string;
    readonly outcome: "found" | "missing" | "failed" | "forbidden";
    readonly status: number | null;
    readonly form: DataTxtForm | null;
    readonly formReason: string | null;
    readonly message: string | null;
  };
  readonly datasets: readonly SiteDataset[];
  readonly notes: readonly SourcedNote[];
}

export interface DiscoverOptions {
  readonly client: HttpClient;
  /** The robot's name token, matched in robots.txt and in data.txt's draft form. */
  readonly agent: string;
  /**
   * The site's pace: give one opened on the crawl's store so that its reservation is shared.
   * Default: a new pacer of this process alone, returned in {@link Discovery}; close it when done.
   */
  readonly pacer?: SitePacer;
  readonly now?: () => number;
  /** robots.txt's total deadline in ms (default 30 s); other requests have the client's. */
  readonly deadlineMs?: number;
  /** Default {@link MAX_MANIFESTS}. */
  readonly maxManifests?: number;
  /** Default {@link MAX_GUESSES}. */
  readonly maxGuesses?: number;
  /** Default {@link MAX_SITEMAP_URLS_SCANNED}. */
  readonly maxSitemapUrls?: number;
}

export interface Discovery {
  readonly catalog: SiteCatalog;
  /** What robots.txt allows, for downloads that follow. */
  readonly access: SiteAccess;
  readonly pacer: SitePacer;
}

export async function discoverDatasets(site: string, options: DiscoverOptions): Promise<Discovery> {
  const origin = new URL(site).origin;
  const pacer =
    options.pacer ??
    (await SitePacer.open(origin, options.now === undefined ? {} : { now: options.now }));
  const access = await readSiteAccess(origin, {
    client: options.client,
    agent: options.agent,
    pacer,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
  });
  const run = new Run(origin, options, access, pacer);
  const catalog = await run.catalog();
  return { catalog, access, pacer };
}

class Run {
  private readonly notes: SourcedNote[] = [];
  private readonly datasets: SiteDataset[] = [];
  private manifests = 0;
  private guesses = 0;
  private guessesCapped = false;

  constructor(
    private readonly origin: string,
    private readonly options: DiscoverOptions,
    private readonly access: SiteAccess,
    private readonly pacer: SitePacer,
  ) {}

  async catalog(): Promise<SiteCatalog> {
    const dataTxtUrl = `${this.origin}/data.txt`;
    const robots = {
      url: this.access.robotsUrl,
      status: this.access.status,
      action: this.access.action,
      why: this.access.why,
    };
    const finish = (dataTxt: SiteCatalog["dataTxt"]): SiteCatalog => ({
      site: this.origin,
      agent: this.options.agent,
      robots,
      dataTxt,
      datasets: this.datasets,
      notes: this.notes,
    });
    const permission = this.access.check(dataTxtUrl);
    if (!permission.allowed) {
      return finish({
        url: dataTxtUrl,
        outcome: "forbidden",
        status: null,
        form: null,
        formReason: null,
        message: `not fetched: ${permission.why}`,
      });
    }
    const answer = await this.fetchText(dataTxtUrl);
    if (answer.kind === "missing") {
      await this.fallback();
      return finish({
        url: dataTxtUrl,
        outcome: "missing",
        status: answer.status,
        form: null,
        formReason: null,
        message: `${answer.status}: the site has no /data.txt; datasets below are guesses from its sitemaps and links (docs/data-txt.md)`,
      });
    }
    if (answer.kind === "failed") {
      return finish({
        url: dataTxtUrl,
        outcome: "failed",
        status: answer.status,
        form: null,
        formReason: null,
        message: answer.message,
      });
    }
    if (isHtmlPage(answer.contentType, answer.body)) {
      // seeds/002 §5.2: sites unaware of the file answer with a page ("What are you looking
      // for?") instead of a 404. Such a page is not a catalog: treated as the 404 it stands for.
      await this.fallback();
      return finish({
        url: answer.url,
        outcome: "missing",
        status: answer.status,
        form: null,
        formReason: null,
        message: `${answer.status} with an HTML page, not a data.txt (docs/data-txt.md): read as a 404; datasets below are guesses from its sitemaps and links`,
      });
    }
    const dataTxt = readDataTxt(answer.body, { url: answer.url });
    this.note(answer.url, dataTxt.diagnostics);
    await this.addOffered(dataTxt, answer.url, "data.txt", true);
    return finish({
      url: answer.url,
      outcome: "found",
      status: answer.status,
      form: dataTxt.form,
      formReason: dataTxt.formReason,
      message: null,
    });
  }

  private fetchText(url: string) {
    return fetchDataTxt(url, {
      client: this.options.client,
      beforeRequest: () => this.pacer.before(),
      afterRequest: () => this.pacer.after(),
      mayFetch: (u) => this.access.check(u),
    });
  }

  private async addOffered(
    dataTxt: DataTxt,
    source: string,
    via: DatasetVia,
    followManifests: boolean,
  ): Promise<void> {
    const offer = offeredTo(dataTxt, this.options.agent);
    if (dataTxt.form === "draft" && offer.record === null) {
      this.notes.push({
        source,
        line: null,
        severity: "info",
        code: "no-record",
        message: `no record names ${this.options.agent} and there is no "User-agent: *" record: no dataset is offered to it`,
      });
    }
    for (const { entry, closedBy } of offer.datasets) {
      // A folder the draft form closes is not harvested, its manifest included.
      const follow = entry.manifest && followManifests && closedBy === null;
      if (follow && (await this.followManifest(entry, source))) continue;
      if (entry.manifest && !followManifests) {
        this.notes.push({
          source,
          line: entry.line,
          severity: "info",
          code: "manifest-not-followed",
          message: `${entry.urls[0] ?? ""} is a folder with its own manifest; manifests are followed one level only`,
        });
      }
      this.datasets.push(this.dataset(entry, via, source, closedBy, dataTxt.form, null));
    }
  }

  /** True when the folder's manifest was read and its entries listed in the folder's place. */
  private async followManifest(entry: DatasetEntry, source: string): Promise<boolean> {
    const folder = entry.urls[0];
    if (folder === undefined) return false;
    const url = folder.replace(/[?#].*$/, "").endsWith("/")
      ? new URL("data.txt", folder).href
      : folder;
    if (this.manifests >= (this.options.maxManifests ?? MAX_MANIFESTS)) {
      this.notes.push({
        source,
        line: entry.line,
        severity: "warning",
        code: "manifest-limit",
        message: `more than ${this.options.maxManifests ?? MAX_MANIFESTS} manifests; ${url} was not read`,
      });
      return false;
    }
    this.manifests++;
    const answer = await this.fetchText(url);
    if (answer.kind !== "found") {
      this.notes.push({
        source,
        line: entry.line,
        severity: answer.kind === "missing" ? "info" : "warning",
        code: "manifest-unread",
        message:
          answer.kind === "missing"
            ? `${url}: ${answer.status}, no manifest; the folder is listed as it is`
            : `${url}: ${answer.message}; the folder is listed as it is`,
      });
      return false;
    }
    if (isHtmlPage(answer.contentType, answer.body)) {
      this.notes.push({
        source,
        line: entry.line,
        severity: "info",
        code: "manifest-unread",
        message: `${url}: an HTML page, not a manifest; the folder is listed as it is`,
      });
      return false;
    }
    const read = readDataTxt(answer.body, { url: answer.url });
    this.note(answer.url, read.diagnostics);
    // A folder's own data.txt written as one dataset's mapping (as R pins writes it) often
    // leaves its name and description to the index: what it does not say, the index says.
    const manifest =
      read.shape === "mapping"
        ? {
            ...read,
            entries: read.entries.map((e) => ({
              ...e,
              name: e.name ?? entry.name,
              title: e.title ?? entry.title,
              description: e.description ?? entry.description,
              license: e.license ?? entry.license,
            })),
          }
        : read;
    await this.addOffered(manifest, answer.url, "manifest", false);
    return true;
  }

  private dataset(
    entry: DatasetEntry,
    via: DatasetVia,
    source: string,
    closedBy: DraftRule | null,
    form: DataTxtForm | null,
    guessWhy: string | null,
  ): SiteDataset {
    const files = entry.urls.map((url): DatasetFile => {
      const permission: Permission = this.access.check(url);
      if (!permission.allowed) return { url, fetchable: false, why: permission.why };
      if (closedBy !== null) {
        return {
          url,
          fetchable: false,
          why: `closed to harvesting by data.txt line ${closedBy.line}: Disallow: ${closedBy.path}`,
        };
      }
      return { url, fetchable: true, why: permission.why };
    });
    return {
      entry,
      via,
      source,
      form,
      guess: guessWhy !== null,
      guessWhy,
      closedBy,
      files,
      fetchable: files.some((f) => f.fetchable),
    };
  }

  private note(source: string, diagnostics: readonly Diagnostic[]): void {
    for (const d of diagnostics) this.notes.push({ ...d, source });
  }

  // -------------------------------------------------------------------------------------------
  // The 404 fallback (seeds/002 §3.1)

  private async fallback(): Promise<void> {
    const seen = new Set<string>();
    await this.guessFromSitemaps(seen);
    await this.guessFromHomePage(seen);
  }

  private addGuess(
    url: string,
    via: DatasetVia,
    source: string,
    why: string,
    seen: Set<string>,
  ): void {
    if (seen.has(url)) return;
    if (this.guesses >= (this.options.maxGuesses ?? MAX_GUESSES)) {
      if (!seen.has(url) && !this.guessesCapped) {
        this.guessesCapped = true;
        this.notes.push({
          source,
          line: null,
          severity: "warning",
          code: "guess-limit",
          message: `more than ${this.options.maxGuesses ?? MAX_GUESSES} guesses; the rest are not listed`,
        });
      }
      return;
    }
    const resolved = resolveDatasetPath(url, `${this.origin}/`);
    if (!resolved.ok) return; // other sites' files are not this site's datasets
    seen.add(url);
    this.guesses++;
    const path = new URL(resolved.url);
    const entry: DatasetEntry = {
      path: path.pathname + path.search,
      urls: [resolved.url],
      name: null,
      title: null,
      description: null,
      license: null,
      type: null,
      rows: null,
      cols: null,
      columns: null,
      extra: {},
      line: 0,
      manifest: false,
      agents: null,
      record: null,
    };
    this.datasets.push(this.dataset(entry, via, source, null, null, why));
  }

  private async guessFromSitemaps(seen: Set<string>): Promise<void> {
    const found = sitemapsFromRobots(this.access.policy, this.access.robotsUrl);
    const locations = found.sitemaps.map((s) => s.url);
    let scanned = 0;
    const events = readSitemaps(locations, {
      maxDepth: 1,
      maxSitemaps: MAX_FALLBACK_SITEMAPS,
      // sitemaps.org "Sitemaps & Cross Submits": a sitemap the host's robots.txt names may list
      // any path of the host.
      robotsTxtHosts: found.fromRobots ? [this.origin] : [],
      open: async (location, fetchOptions) => {
        const permission = this.access.check(location);
        if (!permission.allowed) return { ok: false, message: permission.why, status: null };
        await this.pacer.before();
        try {
          return await openSitemap(location, { ...fetchOptions, client: this.options.client });
        } finally {
          this.pacer.after();
        }
      },
    });
    for await (const event of events) {
      if (event.kind === "url") {
        scanned++;
        const hint = looksLikeData(event.url.loc, event.url.type === "data" ? "data" : null);
        if (hint.data) this.addGuess(event.url.loc, "sitemap", event.source, hint.why, seen);
        if (scanned >= (this.options.maxSitemapUrls ?? MAX_SITEMAP_URLS_SCANNED)) {
          this.notes.push({
            source: event.source,
            line: null,
            severity: "warning",
            code: "sitemap-scan-limit",
            message: `more than ${this.options.maxSitemapUrls ?? MAX_SITEMAP_URLS_SCANNED} sitemap entries; the rest were not looked at`,
          });
          break;
        }
      } else if (event.kind === "diagnostic" && event.diagnostic.code === "too-many-sitemaps") {
        this.notes.push({
          source: event.source,
          line: null,
          severity: "warning",
          code: "sitemap-limit",
          message: `more than ${MAX_FALLBACK_SITEMAPS} sitemaps; the rest were not read for guesses`,
        });
      } else if (
        event.kind === "diagnostic" &&
        event.diagnostic.code === "fetch-failed" &&
        found.fromRobots
      ) {
        this.notes.push({
          source: event.source,
          line: null,
          severity: "warning",
          code: "sitemap-unread",
          message: event.diagnostic.message,
        });
      }
    }
  }

  private async guessFromHomePage(seen: Set<string>): Promise<void> {
    const home = `${this.origin}/`;
    if (!this.access.check(home).allowed) return;
    await this.pacer.before();
    const page = await this.options.client.fetchPage(home);
    this.pacer.after();
    if (page.kind !== "response" || page.status !== 200 || page.body === null) return;
    if (page.contentType !== null && !page.contentType.includes("html")) return;
    const html = new TextDecoder().decode(page.body.subarray(0, MAX_HOME_PAGE_BYTES));
    for (const link of dataLinks(html, home)) {
      this.addGuess(link.url, "link", home, link.why, seen);
    }
  }
}

/** An HTML page where a data.txt was asked for: by its media type, or by its first bytes. */
function isHtmlPage(contentType: string | null, body: Uint8Array): boolean {
  if (contentType !== null && /html/i.test(contentType)) return true;
  const head = new TextDecoder().decode(body.subarray(0, 512)).trimStart().toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html");
}

/** `<a href>` and `<link href>` of a page that look like data, by their `type` or their name. */
const DATA_LINK_TAGS: ReadonlySet<string> = new Set(["a", "base", "link"]);

function dataLinks(html: string, pageUrl: string): { url: string; why: string }[] {
  const found: { url: string; why: string }[] = [];
  let base = pageUrl;
  // Start tags only (html-tags.ts): time linear in the size whatever the nesting.
  forEachStartTag(
    html,
    (name, attributes) => {
      if (name === "base" && attributes.href !== undefined) {
        try {
          base = new URL(attributes.href, pageUrl).href;
        } catch {
          // a broken <base> changes nothing
        }
        return;
      }
      if (name !== "a" && name !== "link") return;
      const href = attributes.href;
      if (href === undefined) return;
      let url: string;
      try {
        const parsed = new URL(href.trim(), base);
        parsed.hash = "";
        url = parsed.href;
      } catch {
        return;
      }
      const hint = looksLikeData(url, attributes.type ?? null);
      if (hint.data) found.push({ url, why: hint.why });
    },
    DATA_LINK_TAGS,
  );
  return found;
}
