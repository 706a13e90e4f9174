/**
 * What a crawl does with a page's usage preferences (docs/usage-preferences.md): the statements
 * that apply to it (robots.txt lines of the robot's group, the response's headers, its meta
 * elements) combined as protocol/usage says; the record kept in the crawl log and the WARC
 * metadata; and whether the page is kept, given what the crawl collects for (`--purpose`).
 *
 * A page whose preferences refuse one of the crawl's purposes is fetched (its links are
 * followed as allowed) and not kept, as a `noindex` page is not; `keepRefused` keeps it all the
 * same, marked. A crawl for AI training or AI input also reads each site's tdmrep.json once
 * (usage-site-files.ts); a crawl for search alone makes the requests it always made.
 */
import type { RobotsPolicy } from "../protocol/robots/index.js";
import {
  type Category,
  limitWarnings,
  mayUse,
  type TdmRepFile,
  type UsageAnswer,
  type UsageSource,
  usageFor,
  usageJson,
} from "../protocol/usage/index.js";

/** The robots.txt a page's preferences are read from (re-exported for the crawler's wiring). */
export type UsagePolicyOf = RobotsPolicy;

export interface UsageCrawlOptions {
  /** What the crawl collects for; none: preferences are recorded and refuse nothing. */
  readonly purposes: readonly Category[];
  /** Keep pages whose preferences refuse a purpose (marked in the log); default false. */
  readonly keepRefused?: boolean;
}

export interface PageUsageInput {
  readonly url: string;
  /** The robot's product token. */
  readonly agent: string;
  /** The site's robots.txt, when it has rules. */
  readonly robots: RobotsPolicy | null;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly contentType: string | null;
  /** `<meta name content>` pairs of an HTML page that speak of usage (links.ts). */
  readonly meta: readonly { readonly name: string; readonly content: string }[];
  /** The site's /.well-known/tdmrep.json, when the crawl read one (usage-site-files.ts). */
  readonly tdmrep?: TdmRepFile | null;
}

/** Does a crawl for these purposes read tdmrep.json? TDMRep speaks of AI training and input only. */
export function readsTdmRep(options: UsageCrawlOptions | undefined): boolean {
  return (options?.purposes ?? []).some((p) => p === "train-ai" || p === "ai-input");
}

export interface PageUsage {
  readonly answer: UsageAnswer;
  /** JSON text for the crawl log and the WARC metadata; null when no statement applied. */
  readonly record: string | null;
  /** The first purpose of the crawl the preferences refuse, and who refused; null if none. */
  readonly refused: { readonly purpose: Category; readonly from: UsageSource | null } | null;
  /** Keep the page (in WARC files, to onPage)? */
  readonly keep: boolean;
}

/** The preferences of a fetched page, and what the crawl does with it. */
export function pageUsage(input: PageUsageInput, options: UsageCrawlOptions): PageUsage {
  const answer = usageFor({
    url: input.url,
    agent: input.agent,
    robots: input.robots,
    // The page was fetched: robots.txt let the robot crawl it.
    crawlable: true,
    response: {
      headers: input.headers,
      contentType: input.contentType,
      meta: input.meta,
      tdmrep: input.tdmrep ?? null,
    },
  });
  let refused: PageUsage["refused"] = null;
  for (const purpose of options.purposes) {
    const verdict = mayUse(answer, purpose);
    if (!verdict.allowed) {
      refused = { purpose, from: verdict.from };
      break;
    }
  }
  // The limit warnings go with the preferences: a statement left unread for its size (a
  // Content-Usage value or an X-Robots-Tag over 8 KiB) would otherwise look like none made.
  const warnings = limitWarnings(answer);
  const record =
    answer.statements.length === 0
      ? null
      : JSON.stringify({ ...usageJson(answer), ...(warnings.length === 0 ? {} : { warnings }) });
  return { answer, record, refused, keep: refused === null || options.keepRefused === true };
}

/** The crawl log's detail for a page not kept: which purpose, refused where. */
export function refusalDetail(refused: NonNullable<PageUsage["refused"]>): string {
  const from = refused.from;
  if (from === null) return `usage: ${refused.purpose} refused`;
  const where =
    from.place === "robots.txt"
      ? `robots.txt line ${from.line}`
      : from.place === "tdmrep.json"
        ? `tdmrep.json rule ${from.line}`
        : `${from.place} ${from.name ?? from.form}`;
  return `usage: ${refused.purpose} refused by ${where}: ${from.text}`;
}
