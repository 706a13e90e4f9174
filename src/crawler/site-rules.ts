/**
 * The robots.txt of every site a crawl visits: fetched before any other URL of the site,
 * kept in the store with its lifetime (DESIGN §3), fetched again when it expires, and read
 * for what the answer means: rules, a site open to all, or a site closed (for now).
 */
import type { RobotsFetchResult } from "../net/robots-fetch.js";
import {
  type DialectChoice,
  parseRobots,
  type RobotsPolicy,
  unreachableRule,
} from "../protocol/robots/index.js";
import type { CachedRobots, RobotsCache } from "../store/types.js";
import { OPEN_FILES_PAUSE_MS, OPEN_FILES_WAIT } from "./open-files-shortage.js";

/**
 * A robots.txt served with `no-cache` or `max-age=0` would be asked for again before every
 * page, doubling the load on the site: a crawl keeps any copy at least this long.
 */
export const MIN_ROBOTS_LIFETIME_MS = 5 * 60_000;

/** What a site's robots.txt means right now. */
export type SiteView =
  | { readonly kind: "rules"; readonly policy: RobotsPolicy; readonly detail: string }
  /** No robots.txt (other 4xx): no restrictions (RFC 9309 §2.3.1.3). */
  | { readonly kind: "open"; readonly detail: string }
  /**
   * 401/403: the whole site is disallowed until the answer expires (`retryAt`); 5xx or
   * unreachable: closed for now, asked again at `retryAt` (RFC 9309 §2.3.1.4).
   */
  | {
      readonly kind: "closed";
      readonly detail: string;
      readonly retryAt: number;
      readonly forbidden: boolean;
    };

/** A site's reservation held for a robots.txt request; released once the answer is stored. */
export interface RobotsTurn {
  /** `asked`: a request went out (its gap counts); `result`, its answer when one came. */
  release(asked: boolean, result: RobotsFetchResult | null): Promise<void>;
  /**
   * Before a redirect hop from `from` to `to`: the turn moves to the site the hop reaches (a
   * rejection ends the exchange as unreachable).
   */
  hop?(from: string, to: string): Promise<void>;
}

export interface SiteRulesOptions {
  readonly cache: RobotsCache;
  /** Fetches a robots.txt under `turn`, the reservation held for it (null: none). */
  readonly fetch: (robotsUrl: string, turn: RobotsTurn | null) => Promise<RobotsFetchResult>;
  /**
   * Takes the site's reservation before robots.txt is asked (DESIGN §2), given the copy held
   * (expired, or null); null when the crawl stopped. Once it is held, the store is read again:
   * another process may have just fetched robots.txt, and then it is not asked twice.
   */
  readonly reserve?: (origin: string, previous: CachedRobots | null) => Promise<RobotsTurn | null>;
  readonly now: () => number;
  readonly dialect?: DialectChoice;
  /** Parsed policies kept in memory; the store keeps them all. */
  readonly memory?: number;
}

interface Known {
  readonly entry: CachedRobots;
  readonly view: SiteView;
}

export class SiteRules {
  private readonly known = new Map<string, Known>();
  private readonly pending = new Map<string, Promise<SiteView>>();
  /** A site whose robots.txt reading waits on another site's (a redirect hop): site → other. */
  private readonly waitsOn = new Map<string, string>();
  private readonly memory: number;

  constructor(private readonly options: SiteRulesOptions) {
    this.memory = options.memory ?? 1024;
  }

  /** The site's rules if a fresh copy is in memory, without asking anything; else null. */
  peek(origin: string): SiteView | null {
    const known = this.known.get(origin);
    return known !== undefined && isFresh(known.entry, this.options.now()) ? known.view : null;
  }

  /** The site's rules, fetching robots.txt first when there is no fresh copy. */
  view(origin: string): Promise<SiteView> {
    const now = this.options.now();
    const known = this.known.get(origin);
    if (known !== undefined && isFresh(known.entry, now)) return Promise.resolve(known.view);
    // One fetch per site at a time, however many tasks ask.
    let pending = this.pending.get(origin);
    if (pending === undefined) {
      pending = this.load(origin).finally(() => this.pending.delete(origin));
      this.pending.set(origin, pending);
    }
    return pending;
  }

  /**
   * The rules of `origin`, asked while the robots.txt of `reading` is being read (a redirect
   * hop to `origin`): null, without waiting, when `origin`'s own reading waits on `reading`'s
   * (two robots.txt that redirect to each other would each wait for the other for ever).
   */
  async viewDuring(origin: string, reading: string): Promise<SiteView | null> {
    for (let at: string | undefined = origin; at !== undefined; at = this.waitsOn.get(at))
      if (at === reading) return null;
    this.waitsOn.set(reading, origin);
    try {
      return await this.view(origin);
    } finally {
      this.waitsOn.delete(reading);
    }
  }

  private async load(origin: string): Promise<SiteView> {
    const now = this.options.now();
    const stored = await this.options.cache.get(origin);
    const entry =
      stored !== null && isFresh(stored, now)
        ? stored
        : await this.reserveAndRefresh(origin, stored);
    // Not asked: this machine had no file left. Nothing is stored or remembered of the site.
    if (entry === null) return shortageView(this.options.now());
    const view = this.read(entry, now);
    if (this.known.size >= this.memory) this.known.delete(this.known.keys().next().value as string);
    this.known.set(origin, { entry, view });
    return view;
  }

  private async reserveAndRefresh(
    origin: string,
    stored: CachedRobots | null,
  ): Promise<CachedRobots | null> {
    const reserve = this.options.reserve;
    if (reserve === undefined) return this.refresh(origin, stored, this.options.now(), null);
    const turn = await reserve(origin, stored);
    if (turn === null) throw new Error("the crawl was stopped");
    try {
      const again = await this.options.cache.get(origin);
      const now = this.options.now();
      if (again !== null && isFresh(again, now)) {
        await turn.release(false, null);
        return again;
      }
      return await this.refresh(origin, again ?? stored, now, turn);
    } catch (error) {
      await turn.release(true, null);
      throw error;
    }
  }

  private async refresh(
    origin: string,
    previous: CachedRobots | null,
    now: number,
    turn: RobotsTurn | null,
  ): Promise<CachedRobots | null> {
    let result: RobotsFetchResult;
    try {
      result = await this.options.fetch(`${origin}/robots.txt`, turn);
    } catch (error) {
      await turn?.release(true, null);
      throw error;
    }
    if (result.openFilesShortage === true) {
      // No request left this machine: no gap to keep, nothing to log against the site.
      await turn?.release(false, null);
      return null;
    }
    // Stored before the reservation goes back: the next process to hold it finds the copy.
    const done = async (entry: CachedRobots) => {
      await this.options.cache.put(entry);
      await turn?.release(true, result);
      return entry;
    };
    const action = result.verdict.action === "follow" ? "unreachable" : result.verdict.action;
    const lastGood = previous?.body ?? previous?.lastGoodBody ?? null;
    if (action === "unreachable") {
      const firstFailureAt = previous?.firstFailureAt ?? now;
      const attempts =
        (previous !== null && previous.firstFailureAt !== null ? previous.attempts : 0) + 1;
      const rule = unreachableRule({
        firstFailureAt,
        now,
        attempts,
        hasGoodCopy: lastGood !== null,
      });
      const expiresAt = rule.use === "disallow-all" ? now + rule.retryInMs : now + 24 * 3600_000;
      const entry: CachedRobots = {
        origin,
        fetchedAt: now,
        expiresAt,
        status: result.status,
        action,
        body: null,
        lastGoodBody: lastGood,
        firstFailureAt,
        attempts,
      };
      return done(entry);
    }
    let body = action === "parse" ? result.body : null;
    // DESIGN §3: a REGP Last-modified older than the copy we hold means a stale answer.
    if (
      body !== null &&
      previous !== null &&
      previous.body !== null &&
      olderRegp(body, previous.body, this.options.dialect)
    ) {
      body = previous.body;
    }
    const entry: CachedRobots = {
      origin,
      fetchedAt: now,
      expiresAt: now + Math.max(result.lifetimeMs, MIN_ROBOTS_LIFETIME_MS),
      status: result.status,
      action,
      body,
      lastGoodBody: body ?? lastGood,
      firstFailureAt: null,
      attempts: 0,
    };
    return done(entry);
  }

  private read(entry: CachedRobots, now: number): SiteView {
    const status = entry.status === null ? "no answer" : `HTTP ${entry.status}`;
    switch (entry.action) {
      case "parse":
        return {
          kind: "rules",
          policy: parseRobots(entry.body ?? new Uint8Array(), this.parseOptions(entry.origin)),
          detail: `robots.txt ${status}`,
        };
      case "allow-all":
        return { kind: "open", detail: `robots.txt ${status}: no restrictions` };
      case "disallow-all":
        return {
          kind: "closed",
          detail: `robots.txt ${status}: the whole site is disallowed`,
          retryAt: entry.expiresAt,
          forbidden: true,
        };
      default: {
        const rule = unreachableRule({
          firstFailureAt: entry.firstFailureAt ?? now,
          now,
          attempts: entry.attempts,
          hasGoodCopy: entry.lastGoodBody !== null,
        });
        if (rule.use === "last-good-copy" && entry.lastGoodBody !== null) {
          return {
            kind: "rules",
            policy: parseRobots(entry.lastGoodBody, this.parseOptions(entry.origin)),
            detail: `robots.txt unreachable for 30 days: the last good copy`,
          };
        }
        if (rule.use === "allow-all")
          return { kind: "open", detail: "robots.txt unreachable for 30 days" };
        return {
          kind: "closed",
          detail: `robots.txt ${status}: the site is closed for now`,
          retryAt: entry.expiresAt,
          forbidden: false,
        };
      }
    }
  }

  private parseOptions(origin: string) {
    return {
      origin,
      ...(this.options.dialect === undefined ? {} : { dialect: this.options.dialect }),
    };
  }
}

/** A site whose robots.txt could not be asked for want of open files: it waits, then is asked. */
function shortageView(now: number): SiteView {
  return {
    kind: "closed",
    detail: OPEN_FILES_WAIT,
    retryAt: now + OPEN_FILES_PAUSE_MS,
    forbidden: false,
  };
}

function isFresh(entry: CachedRobots, now: number): boolean {
  return now < entry.expiresAt;
}

function olderRegp(
  next: Uint8Array,
  held: Uint8Array,
  dialect: DialectChoice | undefined,
): boolean {
  const options = dialect === undefined ? {} : { dialect };
  const a = parseRobots(next, options).lastModified;
  const b = parseRobots(held, options).lastModified;
  return a !== null && b !== null && a < b;
}
