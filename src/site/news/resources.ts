/**
 * The rows of seeds/003 Tables 9-11, read from the site's own request log: which resources a
 * crawler fetched, class by class (home page, useless pages, latest news, old news), and the
 * smallest gap the site saw before a request of each class. Pure: the log in, rows out.
 */
import type { LoggedRequest } from "./site.js";

/** The paper's four classes, and the news search page, which its tables leave out. */
export type ResourceClass =
  "home page" | "useless pages" | "latest news" | "old news" | "search page";

export const RESOURCE_CLASSES: readonly ResourceClass[] = [
  "home page",
  "useless pages",
  "latest news",
  "old news",
  "search page",
];

/** seeds/003 §5: the pages the REGP and REP files disallow, "useless pages (e.g., login page)". */
export const USELESS_PATHS: readonly string[] = ["/login.do", "/reg.do", "/newsRelease.do"];

export interface ResourceRow {
  readonly resource: ResourceClass;
  /** Resources of the class fetched (a news item counts once, however it was fetched). */
  readonly fetched: number;
  /** Resources of the class the site has. */
  readonly total: number;
  /** Smallest gap, in seconds, between a request of the class and the request before it; null without one. */
  readonly minGapSeconds: number | null;
  /** Requests of the class. */
  readonly requests: number;
  /** News rows: items fetched through their snapshot (`/html/newsN.html`). */
  readonly viaSnapshot?: number;
  /** News rows: items fetched through their page for readers (`/newsItem.do?id=N`). */
  readonly viaItemPage?: number;
  /** News rows: items whose comments were fetched too (the snapshot, or the item page's Ajax call). */
  readonly withComments?: number;
}

type Form = "snapshot" | "item" | "comments";

type Classified =
  | { readonly kind: "page"; readonly resource: ResourceClass; readonly key: string }
  | { readonly kind: "news"; readonly id: number; readonly form: Form }
  | { readonly kind: "other" };

/** Which resource a request is for; robots.txt, the sitemap and unknown paths are `other`. */
export function classify(path: string): Classified {
  let url: URL;
  try {
    url = new URL(path, "http://site.invalid");
  } catch {
    return { kind: "other" };
  }
  const p = url.pathname;
  if (p === "/") return { kind: "page", resource: "home page", key: p };
  if (USELESS_PATHS.includes(p)) return { kind: "page", resource: "useless pages", key: p };
  if (p === "/news.do") return { kind: "page", resource: "search page", key: p };
  const snapshot = /^\/html\/news([1-9]\d*)\.html$/.exec(p);
  if (snapshot !== null) return { kind: "news", id: Number(snapshot[1]), form: "snapshot" };
  const id = Number(url.searchParams.get("id"));
  if (p === "/newsItem.do" && Number.isSafeInteger(id) && id > 0)
    return { kind: "news", id, form: "item" };
  if (p === "/comments.do" && Number.isSafeInteger(id) && id > 0)
    return { kind: "news", id, form: "comments" };
  return { kind: "other" };
}

export interface RowsOptions {
  /** Every item id the site has. */
  readonly ids: readonly number[];
  /** The latest ones, linked from the home page. */
  readonly latest: readonly number[];
}

interface Tally {
  requests: number;
  minGapMs: number | null;
  keys: Set<string>;
  forms: Map<number, Set<Form>>;
}

/** One row a class, in the order of {@link RESOURCE_CLASSES}. */
export function resourceRows(log: readonly LoggedRequest[], options: RowsOptions): ResourceRow[] {
  const latest = new Set(options.latest);
  const known = new Set(options.ids);
  const tallies = new Map<ResourceClass, Tally>(
    RESOURCE_CLASSES.map((c) => [
      c,
      { requests: 0, minGapMs: null, keys: new Set(), forms: new Map() },
    ]),
  );
  const sorted = [...log]
    .filter((r) => r.method === "GET" || r.method === "HEAD")
    .sort((a, b) => a.at - b.at);
  sorted.forEach((request, i) => {
    const c = classify(request.path);
    let resource: ResourceClass;
    if (c.kind === "page") resource = c.resource;
    else if (c.kind === "news" && known.has(c.id))
      resource = latest.has(c.id) ? "latest news" : "old news";
    else return;
    const tally = tallies.get(resource) as Tally;
    tally.requests++;
    const before = sorted[i - 1];
    if (before !== undefined) {
      const gap = request.at - before.at;
      tally.minGapMs = tally.minGapMs === null ? gap : Math.min(tally.minGapMs, gap);
    }
    if (c.kind === "page") tally.keys.add(c.key);
    else if (c.kind === "news") {
      const forms = tally.forms.get(c.id) ?? new Set<Form>();
      forms.add(c.form);
      tally.forms.set(c.id, forms);
    }
  });
  const totals: Record<ResourceClass, number> = {
    "home page": 1,
    "useless pages": USELESS_PATHS.length,
    "latest news": options.ids.filter((id) => latest.has(id)).length,
    "old news": options.ids.filter((id) => !latest.has(id)).length,
    "search page": 1,
  };
  return RESOURCE_CLASSES.map((resource) => {
    const t = tallies.get(resource) as Tally;
    const minGapSeconds = t.minGapMs === null ? null : t.minGapMs / 1000;
    if (resource !== "latest news" && resource !== "old news")
      return {
        resource,
        fetched: t.keys.size,
        total: totals[resource],
        minGapSeconds,
        requests: t.requests,
      };
    const forms = [...t.forms.values()];
    // A news item is fetched when its text is: the snapshot or the item page (not the Ajax call alone).
    const fetched = forms.filter((f) => f.has("snapshot") || f.has("item")).length;
    return {
      resource,
      fetched,
      total: totals[resource],
      minGapSeconds,
      requests: t.requests,
      viaSnapshot: forms.filter((f) => f.has("snapshot")).length,
      viaItemPage: forms.filter((f) => f.has("item")).length,
      withComments: forms.filter((f) => f.has("snapshot") || (f.has("item") && f.has("comments")))
        .length,
    };
  });
}
