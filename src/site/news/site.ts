/**
 * The news site of seeds/003 §4.1 (Fig. 1) as a plain `node:http` handler: home page, login,
 * registration, news search, news items whose comments arrive by Ajax, static snapshots,
 * news release for an administrator, robots.txt in the three forms of §5, and a sitemap the
 * site keeps current itself (Figs. 2-3). State is in memory; snapshots and the sitemap are
 * files in `dir`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Accounts, type SessionUser } from "./accounts.js";
import { type Answer, header, HTML, notAllowed, notFound, page, send } from "./answer.js";
import { type NewsItem, seedItems } from "./content.js";
import { type FormResult, readForm } from "./form-body.js";
import {
  LATEST_NEWS,
  MAX_COMMENT_CHARS,
  MAX_COMMENTS_PER_ITEM,
  MAX_ITEMS,
  MAX_QUERY_CHARS,
  MAX_SEARCH_RESULTS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
} from "./limits.js";
import {
  homePage,
  itemPage,
  loginPage,
  messagePage,
  newsPage,
  registrationPage,
  releasePage,
} from "./pages.js";
import { Publisher, SITEMAP_FILE } from "./publisher.js";
import { ROBOTS_VARIANTS, type RobotsVariant, robotsText } from "./robots.js";

/** One request as the site saw it: the evidence the experiment reads its gaps from. */
export interface LoggedRequest {
  /** When it arrived, by the site's clock (ms since the epoch). */
  readonly at: number;
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  /** The answer's status (0 when the connection closed before one was sent). */
  readonly status: number;
  readonly userAgent: string | null;
  readonly cookie: string | null;
}

export interface NewsSiteOptions {
  /** The absolute URL the site is served at (`http://127.0.0.1:8089`): sitemap entries name it. */
  readonly origin: string;
  readonly robots: RobotsVariant;
  /** News items the site starts with, released one a day up to today. */
  readonly items: number;
  /** Directory for the snapshots (`html/`) and `sitemap.xml`; the site writes there. */
  readonly dir: string;
  /** Password of the administrator, user `admin`, who may release news. */
  readonly adminPassword: string;
  /** The clock, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /** Hears of every request once it is answered. */
  readonly log?: (request: LoggedRequest) => void;
  /** REGP `Language` value (default the paper's `zh-CN`). */
  readonly language?: string;
  /** REGP `Visit-time` value added to the global section (none by default). */
  readonly visitTime?: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface NewsSite {
  readonly handler: Handler;
  readonly origin: string;
  /** The text served at /robots.txt, or null (404). */
  readonly robotsTxt: string | null;
  /** The items, oldest first. */
  items(): readonly NewsItem[];
  /** Ids of the latest news, newest first: those linked from `/` and `/news.do`. */
  latestIds(): readonly number[];
  /** Settles when every snapshot and sitemap change asked for so far is written. */
  idle(): Promise<void>;
}

const ADMIN = "admin";
const SESSION_COOKIE = "sid";

export async function createNewsSite(options: NewsSiteOptions): Promise<NewsSite> {
  checkOptions(options);
  const now = options.now ?? Date.now;
  const origin = new URL(options.origin).origin;
  const items: NewsItem[] = seedItems(options.items, now());
  const accounts = new Accounts();
  const admin = await accounts.register(ADMIN, options.adminPassword, true);
  if (!admin.ok) throw new RangeError(`adminPassword: ${admin.message}`);
  const publisher = new Publisher(options.dir, origin);
  await publisher.publishAll(items);
  const robots = robotsText(options.robots, {
    origin,
    ...(options.language === undefined ? {} : { language: options.language }),
    ...(options.visitTime === undefined ? {} : { visitTime: options.visitTime }),
  });

  const byId = (id: number): NewsItem | undefined => items.find((item) => item.id === id);
  const latest = (): NewsItem[] => items.slice(-LATEST_NEWS).reverse();

  const route = async (req: IncomingMessage, url: URL, user: SessionUser | null) => {
    const method = req.method ?? "GET";
    const get = method === "GET" || method === "HEAD";
    const name = user?.name ?? null;
    const path = url.pathname;
    if (path === "/robots.txt") {
      if (!get) return notAllowed("GET, HEAD");
      if (robots === null)
        return page(404, messagePage("Not found", "This site has no robots.txt.", name));
      return { status: 200, type: "text/plain; charset=utf-8", body: robots };
    }
    if (path === `/${SITEMAP_FILE}`) {
      if (!get) return notAllowed("GET, HEAD");
      const body = await publisher.read(SITEMAP_FILE);
      if (body === null) return page(404, messagePage("Not found", "No sitemap yet.", name));
      return { status: 200, type: "application/xml; charset=utf-8", body };
    }
    const snapshot = /^\/html\/news([1-9]\d{0,8})\.html$/.exec(path);
    if (snapshot !== null) {
      if (!get) return notAllowed("GET, HEAD");
      const body = await publisher.read(`html/news${snapshot[1]}.html`);
      if (body === null) return notFound(name);
      return { status: 200, type: HTML, body };
    }
    switch (path) {
      case "/":
        if (!get) return notAllowed("GET, HEAD");
        return page(200, homePage(latest(), name));
      case "/login.do":
        if (get) return page(200, loginPage(safeNext(url.searchParams.get("next")), null));
        if (method !== "POST") return notAllowed("GET, HEAD, POST");
        return login(req);
      case "/logout.do":
        if (method !== "POST") return notAllowed("POST");
        return logout(req);
      case "/reg.do":
        if (get) return page(200, registrationPage(null));
        if (method !== "POST") return notAllowed("GET, HEAD, POST");
        return register(req);
      case "/news.do":
        if (!get) return notAllowed("GET, HEAD");
        return search(url, name);
      case "/newsItem.do": {
        if (!get) return notAllowed("GET, HEAD");
        const item = byId(idOf(url.searchParams.get("id")));
        return item === undefined ? notFound(name) : page(200, itemPage(item, name));
      }
      case "/comments.do": {
        // The Ajax call of the item page: the comments as JSON.
        if (!get) return notAllowed("GET, HEAD");
        const item = byId(idOf(url.searchParams.get("id")));
        if (item === undefined) return { status: 404, type: "application/json", body: "[]" };
        const list = item.comments.map((c) => ({
          author: c.author,
          text: c.text,
          at: new Date(c.at).toISOString(),
        }));
        return { status: 200, type: "application/json; charset=utf-8", body: JSON.stringify(list) };
      }
      case "/comment.do":
        if (method !== "POST") return notAllowed("POST");
        return comment(req, user);
      case "/newsRelease.do":
        if (user === null || !user.admin)
          return page(
            403,
            messagePage(
              "Administrators only",
              "News are released by the site's administrator; log in as one first.",
              name,
            ),
          );
        if (get) return page(200, releasePage(null, user.name));
        if (method !== "POST") return notAllowed("GET, HEAD, POST");
        return release(req, user);
      default:
        return notFound(name);
    }
  };

  const login = async (req: IncomingMessage): Promise<Answer> => {
    const form = await readForm(req);
    if (!form.ok) return formProblem(form);
    const next = safeNext(form.fields.get("next") ?? null);
    const result = await accounts.login(
      form.fields.get("user") ?? "",
      form.fields.get("password") ?? "",
    );
    if (!result.ok) return page(401, loginPage(next, result.message));
    return startSession(result.user, next);
  };

  const logout = async (req: IncomingMessage): Promise<Answer> => {
    const token = sessionToken(req);
    if (token !== null) accounts.close(token);
    return {
      status: 303,
      headers: {
        location: "/",
        "set-cookie": `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`,
      },
    };
  };

  const register = async (req: IncomingMessage): Promise<Answer> => {
    const form = await readForm(req);
    if (!form.ok) return formProblem(form);
    const result = await accounts.register(
      form.fields.get("user") ?? "",
      form.fields.get("password") ?? "",
    );
    if (!result.ok) return page(400, registrationPage(result.message));
    return startSession(result.user, "/");
  };

  const startSession = (user: SessionUser, next: string): Answer => ({
    status: 303,
    headers: {
      location: next,
      "set-cookie": `${SESSION_COOKIE}=${accounts.open(user)}; Path=/; HttpOnly; SameSite=Lax`,
    },
  });

  const search = (url: URL, name: string | null): Answer => {
    const query = (url.searchParams.get("q") ?? "").trim();
    if (query.length > MAX_QUERY_CHARS)
      return page(400, messagePage("Bad search", `q: at most ${MAX_QUERY_CHARS} characters`, name));
    if (query === "") return page(200, newsPage(latest(), "", null, name));
    const words = query.toLowerCase();
    const results = items
      .filter((item) => `${item.title}\n${item.text}`.toLowerCase().includes(words))
      .reverse()
      .slice(0, MAX_SEARCH_RESULTS);
    return page(200, newsPage(latest(), query, results, name));
  };

  // Fig. 3: a new comment; the snapshot is generated again and the sitemap's lastmod moves.
  const comment = async (req: IncomingMessage, user: SessionUser | null): Promise<Answer> => {
    const form = await readForm(req);
    if (user === null) return page(401, loginPage("/", "log in to comment"));
    if (!form.ok) return formProblem(form);
    const item = byId(idOf(form.fields.get("id") ?? null));
    if (item === undefined) return notFound(user.name);
    const text = (form.fields.get("text") ?? "").trim();
    const problem = textProblem("text", text, MAX_COMMENT_CHARS);
    if (problem !== null) return page(400, messagePage("Comment not posted", problem, user.name));
    if (item.comments.length >= MAX_COMMENTS_PER_ITEM)
      return page(
        409,
        messagePage(
          "Comment not posted",
          `this item has its ${MAX_COMMENTS_PER_ITEM} comments`,
          user.name,
        ),
      );
    item.comments.push({ author: user.name, text, at: now() });
    await publisher.publish(item);
    return { status: 303, headers: { location: `/newsItem.do?id=${item.id}` } };
  };

  // Fig. 2: news released; its snapshot is generated and the sitemap gains its entry.
  const release = async (req: IncomingMessage, user: SessionUser): Promise<Answer> => {
    const form = await readForm(req);
    if (!form.ok) return formProblem(form);
    const title = (form.fields.get("title") ?? "").trim();
    const text = (form.fields.get("text") ?? "").trim();
    const problem =
      textProblem("title", title, MAX_TITLE_CHARS) ?? textProblem("text", text, MAX_TEXT_CHARS);
    if (problem !== null) return page(400, releasePage(problem, user.name));
    if (items.length >= MAX_ITEMS)
      return page(409, releasePage(`the site holds its ${MAX_ITEMS} news items`, user.name));
    const id = (items[items.length - 1]?.id ?? 0) + 1;
    const item: NewsItem = { id, title, text, releasedAt: now(), comments: [] };
    items.push(item);
    await publisher.publish(item);
    return { status: 303, headers: { location: `/newsItem.do?id=${id}` } };
  };

  const handler: Handler = (req, res) => {
    const at = now();
    res.on("close", () => {
      options.log?.({
        at,
        method: req.method ?? "GET",
        path: req.url ?? "",
        status: res.headersSent ? res.statusCode : 0,
        userAgent: header(req, "user-agent"),
        cookie: header(req, "cookie"),
      });
    });
    let url: URL;
    try {
      // The path is appended, not resolved: `//host/x` stays a path of this site.
      url = new URL(`${origin}${req.url ?? "/"}`);
    } catch {
      send(req, res, page(400, messagePage("Bad request", "not a path of this site", null)));
      return;
    }
    const user = accounts.user(sessionToken(req));
    route(req, url, user).then(
      (answer) => send(req, res, answer),
      () => {
        // An I/O failure (a snapshot that cannot be written or read): the request fails, the site stays up.
        if (res.destroyed || res.headersSent) res.destroy();
        else
          send(
            req,
            res,
            page(500, messagePage("Server error", "the page could not be made", null)),
          );
      },
    );
  };

  return {
    handler,
    origin,
    robotsTxt: robots,
    items: () => items,
    latestIds: () => latest().map((item) => item.id),
    idle: () => publisher.idle(),
  };
}

function checkOptions(options: NewsSiteOptions): void {
  if (!ROBOTS_VARIANTS.includes(options.robots))
    throw new RangeError(
      `robots: expected one of ${ROBOTS_VARIANTS.join(", ")}, got "${String(options.robots)}"`,
    );
  if (!Number.isSafeInteger(options.items) || options.items < 0 || options.items > MAX_ITEMS)
    throw new RangeError(`items: expected 0 to ${MAX_ITEMS}, got ${String(options.items)}`);
  let origin: URL;
  try {
    origin = new URL(options.origin);
  } catch {
    throw new RangeError(`origin: expected an http(s) URL, got "${options.origin}"`);
  }
  if (origin.protocol !== "http:" && origin.protocol !== "https:")
    throw new RangeError(`origin: expected an http(s) URL, got "${options.origin}"`);
  for (const [field, value] of [
    ["language", options.language],
    ["visitTime", options.visitTime],
  ] as const) {
    if (value !== undefined && /[\r\n]/.test(value))
      throw new RangeError(`${field}: expected one line, got a line break`);
  }
}

function formProblem(form: Extract<FormResult, { ok: false }>): Answer {
  return page(form.status, messagePage("Form not accepted", form.message, null));
}

function textProblem(field: string, text: string, max: number): string | null {
  if (text === "") return `${field}: expected some text, got none`;
  if (text.length > max) return `${field}: at most ${max} characters, got ${text.length}`;
  return null;
}

/** An item id from a query or form: a positive whole number, else 0 (no such item). */
function idOf(value: string | null): number {
  if (value === null || !/^[1-9]\d{0,8}$/.test(value)) return 0;
  return Number(value);
}

/** Where to go after logging in: a path of this site only, never another host. */
function safeNext(value: string | null): string {
  if (value === null || !value.startsWith("/") || value.startsWith("//") || /[\r\n\\]/.test(value))
    return "/";
  return value;
}

function sessionToken(req: IncomingMessage): string | null {
  const cookies = header(req, "cookie");
  if (cookies === null) return null;
  for (const part of cookies.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return null;
}
