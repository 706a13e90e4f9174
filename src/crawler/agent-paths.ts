/**
 * `heed crawl --agents` (issue 9, "The robot side"): for a URL whose site names an agent host
 * for its path (seeds/000; DESIGN §5), the subtree is indexed by heed's indexing agent on that
 * host instead of fetched page by page. The first URL met under a Mobile-agent-server path
 * dispatches the agent for that path and retracts it; its pages then answer every URL of the
 * subtree, and are queued themselves so that unlinked pages reach the store too. When the record
 * says `none`, or the host is unreachable, refuses, or the agent fails, the URLs of that path are
 * fetched over HTTP as usual, and the crawl log says why once.
 */
import { dispatchAgent } from "./agents/dispatch.js";
import type { Json } from "../protocol/atp/agent-package.js";
import {
  MobileAgentServers,
  type MobileAgentRecord,
  type RobotsPolicy,
} from "../protocol/robots/index.js";
import type { CrawlStore } from "../store/types.js";
import { normalizeUrl, originOf } from "./url-normal.js";

/** A page as the agent indexed it (heed's indexing agent's record). */
export interface IndexedPage {
  readonly url: string;
  readonly title: string | null;
  readonly digest: string | null;
  readonly sha256: string;
  readonly links: readonly string[];
  readonly lastmod: string | null;
  readonly size: number;
  /** `<meta name=robots>` (or one naming the robot) says noindex: filed, not kept. */
  readonly noindex: boolean;
  /** The agent host that indexed it. */
  readonly host: string;
}

export interface AgentPathsOptions {
  /** The robot's name token. */
  readonly robot: string;
  readonly userAgent: string;
  readonly store: CrawlStore;
  /** Connect to agent hosts on private and loopback addresses, whatever their name. */
  readonly allowPrivate: boolean;
  /** Agent hosts that may be on private and loopback addresses: the seeds' private hosts. */
  readonly privateHosts?: readonly string[];
  readonly now: () => number;
  /** Most pages one agent indexes. */
  readonly maxPages?: number;
}

interface Subtree {
  readonly pages: ReadonlyMap<string, IndexedPage>;
}

export class AgentPaths {
  // Weak: a crawl reads robots.txt again as copies expire; old policies must not pile up here.
  private readonly servers = new WeakMap<RobotsPolicy, MobileAgentServers>();
  private readonly subtrees = new Map<string, Promise<Subtree | null>>();

  constructor(private readonly options: AgentPathsOptions) {}

  /**
   * The page as the site's agent host indexed it, or null: fetch it over HTTP. `onIndex` gets
   * every page of a subtree once, when its agent comes back. The caller holds the site's
   * reservation (DESIGN §2); `onExchange` is told when an exchange with the agent host made by
   * this call ends, so that the next gap counts from there.
   */
  async indexed(
    url: string,
    policy: RobotsPolicy,
    onIndex: (pages: readonly IndexedPage[]) => Promise<void>,
    onExchange?: () => Promise<void>,
  ): Promise<IndexedPage | null> {
    const answer = this.serversOf(policy).resolve(url);
    if (!answer.available) return null;
    const origin = originOf(url);
    const key = `${origin} ${answer.record.line}`;
    let subtree = this.subtrees.get(key);
    if (subtree === undefined) {
      subtree = this.run(origin, answer.host.text, answer.record, onIndex, onExchange);
      this.subtrees.set(key, subtree);
    }
    return (await subtree)?.pages.get(url) ?? null;
  }

  private serversOf(policy: RobotsPolicy): MobileAgentServers {
    let servers = this.servers.get(policy);
    if (servers === undefined) {
      servers = new MobileAgentServers(policy.text);
      this.servers.set(policy, servers);
    }
    return servers;
  }

  private async run(
    origin: string,
    host: string,
    record: MobileAgentRecord,
    onIndex: (pages: readonly IndexedPage[]) => Promise<void>,
    onExchange: (() => Promise<void>) | undefined,
  ): Promise<Subtree | null> {
    const at = this.options.now();
    try {
      const index = await dispatchAgent(host, {
        site: origin,
        path: record.path,
        robot: this.options.robot,
        userAgent: this.options.userAgent,
        allowPrivate: this.options.allowPrivate,
        ...(this.options.privateHosts === undefined
          ? {}
          : { privateHosts: this.options.privateHosts }),
        ...(this.options.maxPages === undefined
          ? {}
          : { state: { maxPages: this.options.maxPages } }),
      }).finally(() => onExchange?.());
      if (index.status !== "finished") {
        const why = index.error === null ? "failed" : `${index.error.code}: ${index.error.message}`;
        await this.note(
          origin,
          host,
          at,
          `the agent for ${record.path} failed (${why}); fetching over HTTP`,
        );
        return null;
      }
      const pages = new Map<string, IndexedPage>();
      for (const page of readPages(index.records, origin, host)) {
        pages.set(page.url, page);
        // A directory's URL is its index.html, as web servers answer it.
        if (page.url.endsWith("/index.html"))
          pages.set(page.url.slice(0, -"index.html".length), page);
      }
      await this.note(
        origin,
        host,
        at,
        `the agent indexed ${pages.size} URLs under ${record.path}`,
        "agent-index",
      );
      await onIndex([...new Set(pages.values())]);
      return { pages };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      await this.note(origin, host, at, `no agent for ${record.path} (${why}); fetching over HTTP`);
      return null;
    }
  }

  private note(
    origin: string,
    host: string,
    at: number,
    detail: string,
    outcome = "agent-unavailable",
  ): Promise<void> {
    return this.options.store.log.append({
      url: host,
      origin,
      at,
      ms: this.options.now() - at,
      status: null,
      bytes: 0,
      outcome,
      detail,
    });
  }
}

/** The agent's page records, on the site it was sent to, with URLs as the crawler writes them. */
function readPages(records: readonly Json[], origin: string, host: string): IndexedPage[] {
  const pages: IndexedPage[] = [];
  for (const record of records) {
    if (typeof record !== "object" || record === null || Array.isArray(record)) continue;
    const r = record as Record<string, Json>;
    if (r.type !== "page" || typeof r.url !== "string") continue;
    const url = normalizeUrl(r.url);
    // An agent speaks for its own site only.
    if (url === null || originOf(url) !== origin) continue;
    pages.push({
      url,
      title: typeof r.title === "string" ? r.title : null,
      digest: typeof r.digest === "string" ? r.digest : null,
      sha256: typeof r.sha256 === "string" ? r.sha256 : "",
      links: Array.isArray(r.links)
        ? r.links.filter((l): l is string => typeof l === "string")
        : [],
      lastmod: typeof r.lastmod === "string" ? r.lastmod : null,
      size: typeof r.size === "number" ? r.size : 0,
      noindex: r.noindex === true,
      host,
    });
  }
  return pages;
}
