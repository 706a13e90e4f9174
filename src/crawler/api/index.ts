/** The crawler as a library (docs/crawler.md). */
export { Crawler, type CrawlerSummary, type RunOptions } from "./crawler.js";
export { CrawlerError, type CrawlerErrorCode } from "./errors.js";
export { type CrawlEventOf, type CrawlEventType, MAX_BUFFERED_EVENTS } from "./events.js";
export { type CrawlerOptions, type LinkExtractor, type PageHandler } from "./options.js";
export {
  type EnqueueOptions,
  MAX_ENQUEUE_PER_PAGE,
  MAX_LABEL_CHARS,
  MAX_PUSH_PER_PAGE,
  MAX_URL_CHARS,
  type Page,
  type PageContext,
  type PageReader,
  type SiteRulesReader,
} from "./page.js";
export type { CrawlEvent, EnqueueRequest, EnqueueResult } from "../crawler.js";
export type { Verdict as RulesAnswer } from "../verdict.js";
export type { ScopeKind } from "../scope.js";
