/**
 * Putting heed into a Crawlee `HttpCrawler` after it is built, so that nothing it fetches goes
 * round heed: Crawlee's own robots.txt check becomes heed's (a refusal for good is then a skip,
 * as Crawlee's `respectRobotsTxtFile` skips: logged as a warning, reported to `onSkippedRequest`,
 * neither a failure nor a request counted against `maxRequestsPerCrawl`), heed's hooks run first,
 * and an answer that was a redirect reaches neither the later hooks nor the request handler (its
 * target is enqueued as a request of its own).
 */
import type { CrawleeContextLike, HeedHooks, RequestOptionsLike } from "./types.js";

type Hook = (context: CrawleeContextLike, options?: RequestOptionsLike) => unknown;
type Handler = (context: CrawleeContextLike, error?: unknown) => unknown;

/** The members of Crawlee's `HttpCrawler` (3.x) that heed sets. */
interface HttpCrawlerShape {
  preNavigationHooks: Hook[];
  postNavigationHooks: Hook[];
  requestHandler: Handler;
  errorHandler?: Handler;
  failedRequestHandler?: Handler;
  isAllowedBasedOnRobotsTxtFile(url: string): Promise<boolean>;
}

function isHttpCrawler(value: object): value is HttpCrawlerShape {
  const crawler = value as Partial<Record<keyof HttpCrawlerShape, unknown>>;
  return (
    Array.isArray(crawler.preNavigationHooks) &&
    Array.isArray(crawler.postNavigationHooks) &&
    typeof crawler.requestHandler === "function" &&
    typeof crawler.isAllowedBasedOnRobotsTxtFile === "function"
  );
}

export function attachTo(crawler: object, heed: HeedHooks): void {
  if (!isHttpCrawler(crawler))
    throw new TypeError(
      "attach: expected a Crawlee HttpCrawler (CheerioCrawler, JSDOMCrawler, HttpCrawler 3.x) with a requestHandler",
    );
  const skipRedirect =
    <A extends unknown[]>(own: (context: CrawleeContextLike, ...rest: A) => unknown) =>
    (context: CrawleeContextLike, ...rest: A): unknown =>
      heed.redirected(context.request) ? undefined : own.call(crawler, context, ...rest);
  // Refused "for now" (a time window, robots.txt unreachable) stays allowed here: `before`
  // refuses it and Crawlee's retries come back later.
  crawler.isAllowedBasedOnRobotsTxtFile = async (url) => {
    const verdict = await heed.check(url);
    return verdict.allowed || verdict.retryAt !== null;
  };
  crawler.preNavigationHooks = [
    (context, options) => heed.before(context, options),
    ...crawler.preNavigationHooks,
  ];
  // Crawlee's first post-navigation hook refuses a content type it does not parse, which a
  // redirect's empty answer often has: heed's hook goes before it.
  crawler.postNavigationHooks = [
    (context) => heed.after(context),
    ...crawler.postNavigationHooks.map(skipRedirect),
  ];
  crawler.requestHandler = skipRedirect(crawler.requestHandler);
  for (const key of ["errorHandler", "failedRequestHandler"] as const) {
    const own = crawler[key];
    crawler[key] = async (context, error) => {
      await heed.after(context);
      return own?.call(crawler, context, error);
    };
  }
}

/** The absolute http(s) URL an answer redirects to, or null when it is no redirect. */
export function redirectTarget(context: CrawleeContextLike): string | null {
  const status = context.response?.statusCode;
  if (status === undefined || status < 300 || status >= 400) return null;
  const raw = context.response?.headers?.["location"];
  const location = Array.isArray(raw) ? raw[0] : raw;
  if (location === undefined || !URL.canParse(location, context.request.url)) return null;
  const target = new URL(location, context.request.url);
  if (target.protocol !== "http:" && target.protocol !== "https:") return null;
  target.hash = "";
  return target.href;
}
