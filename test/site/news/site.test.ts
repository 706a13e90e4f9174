// The news site of seeds/003 §4.1 over real HTTP: the pages of Fig. 1 and their links, the
// search form, comments by Ajax only, snapshots with comments, news release behind an
// administrator login, and the sitemap kept current by the site itself (Figs. 2-3).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseSitemapText } from "../../../src/protocol/sitemap/index.js";
import {
  MAX_COMMENT_CHARS,
  MAX_COMMENTS_PER_ITEM,
  MAX_ITEMS,
  MAX_QUERY_CHARS,
  MAX_SEARCH_RESULTS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
} from "../../../src/site/news/limits.js";
import { type RunningNewsSite, startNewsSite } from "../../../src/site/news/server.js";
import type { LoggedRequest } from "../../../src/site/news/site.js";
import { tempDir } from "../../helpers/crawl-harness.js";

const ADMIN_PASSWORD = "admin-secret";
const START = Date.parse("2015-03-19T04:00:00Z");

interface Answer {
  readonly status: number;
  readonly location: string | null;
  readonly cookie: string | null;
  readonly headers: Headers;
  readonly text: string;
}

/** A browser of sorts: keeps the session cookie, does not follow redirects. */
class Browser {
  session: string | null = null;
  constructor(private readonly origin: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send(path, { method: "GET", headers });
  }

  async post(path: string, fields: Record<string, string>): Promise<Answer> {
    return this.send(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  private async send(path: string, init: RequestInit): Promise<Answer> {
    const headers = new Headers(init.headers);
    if (this.session !== null) headers.set("cookie", this.session);
    const res = await fetch(`${this.origin}${path}`, { ...init, headers, redirect: "manual" });
    const setCookie = res.headers.get("set-cookie");
    if (setCookie !== null) {
      const pair = setCookie.split(";")[0] as string;
      this.session = pair.endsWith("=") ? null : pair;
    }
    return {
      status: res.status,
      location: res.headers.get("location"),
      cookie: setCookie,
      headers: res.headers,
      text: await res.text(),
    };
  }
}

function links(html: string): string[] {
  return [...html.matchAll(/<a href="([^"]*)"/g)].map((m) =>
    (m[1] as string).replaceAll("&amp;", "&"),
  );
}

function itemLinks(html: string): number[] {
  return links(html)
    .map((href) => /^\/newsItem\.do\?id=(\d+)$/.exec(href)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(Number);
}

describe("the news site", { timeout: 60_000 }, () => {
  let running: RunningNewsSite;
  let clock = START;
  const log: LoggedRequest[] = [];
  let dir: Awaited<ReturnType<typeof tempDir>>;

  before(async () => {
    dir = await tempDir("heed-news-test-");
    running = await startNewsSite({
      robots: "regp",
      items: 8,
      dir: dir.dir,
      adminPassword: ADMIN_PASSWORD,
      now: () => clock,
      log: (r) => log.push(r),
    });
  });
  after(async () => {
    await running.close();
    await dir.cleanup();
  });

  const browser = () => new Browser(running.origin);

  it("home page: login, registration, search, release, and only the three latest news", async () => {
    const page = await browser().get("/");
    assert.equal(page.status, 200);
    for (const path of ["/login.do", "/reg.do", "/news.do", "/newsRelease.do"])
      assert.ok(links(page.text).includes(path), path);
    assert.deepEqual(itemLinks(page.text), [8, 7, 6]);
  });

  it("news search page: the latest news and a form; older news only as results of the form", async () => {
    const b = browser();
    const page = await b.get("/news.do");
    assert.deepEqual(itemLinks(page.text), [8, 7, 6]);
    assert.match(page.text, /<form method="get" action="\/news\.do">[\s\S]*name="q"/);
    // Item 1's title begins "City library"; only the form's query finds it.
    const results = await b.get(`/news.do?q=${encodeURIComponent("city library")}`);
    assert.ok(itemLinks(results.text).includes(1), results.text);
    const none = await b.get("/news.do?q=zebra");
    assert.deepEqual(itemLinks(none.text), [8, 7, 6]);
    const long = await b.get(`/news.do?q=${"a".repeat(MAX_QUERY_CHARS + 1)}`);
    assert.equal(long.status, 400);
    assert.equal((await b.get(`/news.do?q=${"a".repeat(MAX_QUERY_CHARS)}`)).status, 200);
  });

  it("an item page has its text but not its comments; the Ajax call brings them", async () => {
    const b = browser();
    const item = running.site.items().find((i) => i.id === 2);
    assert.ok(item !== undefined && item.comments.length > 0);
    const page = await b.get("/newsItem.do?id=2");
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(item.text));
    for (const c of item.comments) assert.ok(!page.text.includes(c.text), c.text);
    assert.match(page.text, /fetch\("\/comments\.do\?id=2"\)/);
    assert.ok(
      !links(page.text).some((l) => l.startsWith("/comments.do")),
      "no link to the Ajax call",
    );
    const ajax = await b.get("/comments.do?id=2");
    assert.match(ajax.headers.get("content-type") ?? "", /^application\/json/);
    const list = JSON.parse(ajax.text) as { author: string; text: string }[];
    assert.deepEqual(
      list.map((c) => c.text),
      item.comments.map((c) => c.text),
    );
    assert.equal((await b.get("/newsItem.do?id=99")).status, 404);
    assert.equal((await b.get("/newsItem.do?id=abc")).status, 404);
  });

  it("a snapshot has the text and the comments in one page", async () => {
    const item = running.site.items().find((i) => i.id === 2);
    const page = await browser().get("/html/news2.html");
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(item?.text ?? "?"));
    for (const c of item?.comments ?? []) assert.ok(page.text.includes(c.text), c.text);
    assert.doesNotMatch(page.text, /<script/);
    assert.equal((await browser().get("/html/news99.html")).status, 404);
  });

  it("the sitemap lists every snapshot as <loc>, its item page as <srcloc>, type data (§5)", async () => {
    const page = await browser().get("/sitemap.xml");
    const { urls, diagnostics } = parseSitemapText(page.text);
    assert.deepEqual(diagnostics, []);
    assert.equal(urls.length, 8);
    for (const u of urls) {
      const id = Number(/news(\d+)\.html$/.exec(u.loc)?.[1]);
      assert.equal(u.loc, `${running.origin}/html/news${id}.html`);
      assert.equal(u.srcloc, `${running.origin}/newsItem.do?id=${id}`);
      assert.equal(u.type, "data");
      assert.equal(u.changefreq, "weekly");
      assert.equal(u.priority, 0.5);
    }
  });

  it("robots.txt is the REGP file naming this site's sitemap", async () => {
    const page = await browser().get("/robots.txt");
    assert.equal(page.status, 200);
    assert.match(page.text, /^Robot-version: 3\.0\n/);
    assert.ok(page.text.includes(`Sitemap: ${running.origin}/sitemap.xml\n`));
  });

  it("news release is for the administrator only", async () => {
    const anonymous = browser();
    assert.equal((await anonymous.get("/newsRelease.do")).status, 403);
    assert.equal((await anonymous.post("/newsRelease.do", { title: "x", text: "y" })).status, 403);
    const reader = browser();
    const reg = await reader.post("/reg.do", { user: "reader_a", password: "reader-pass" });
    assert.equal(reg.status, 303);
    assert.ok(reader.session !== null);
    assert.equal((await reader.get("/newsRelease.do")).status, 403);
    const admin = browser();
    const wrong = await admin.post("/login.do", { user: "admin", password: "not-it" });
    assert.equal(wrong.status, 401);
    assert.equal(admin.session, null);
    const login = await admin.post("/login.do", { user: "admin", password: ADMIN_PASSWORD });
    assert.equal(login.status, 303);
    const form = await admin.get("/newsRelease.do");
    assert.equal(form.status, 200);
    assert.match(form.text, /<form method="post" action="\/newsRelease\.do">/);
  });

  it("Fig. 2: a release makes the snapshot, adds the sitemap entry, and becomes the latest news", async () => {
    const admin = browser();
    await admin.post("/login.do", { user: "admin", password: ADMIN_PASSWORD });
    clock = START + 60_000;
    const released = await admin.post("/newsRelease.do", {
      title: "Tram line reopens",
      text: "The tram runs again <b>after</b> repairs.",
    });
    assert.equal(released.status, 303);
    assert.equal(released.location, "/newsItem.do?id=9");
    const snapshot = await admin.get("/html/news9.html");
    assert.equal(snapshot.status, 200);
    assert.ok(snapshot.text.includes("The tram runs again &lt;b&gt;after&lt;/b&gt; repairs."));
    const { urls } = parseSitemapText((await admin.get("/sitemap.xml")).text);
    const entry = urls.find((u) => u.loc === `${running.origin}/html/news9.html`);
    assert.equal(entry?.srcloc, `${running.origin}/newsItem.do?id=9`);
    assert.equal(entry?.type, "data");
    assert.equal(entry?.lastmod, "2015-03-19T04:01:00Z");
    assert.deepEqual(itemLinks((await admin.get("/")).text), [9, 8, 7]);
  });

  it("Fig. 3: a comment regenerates the snapshot and moves lastmod; the item page still lacks it", async () => {
    const anonymous = browser();
    const refused = await anonymous.post("/comment.do", { id: "3", text: "hello" });
    assert.equal(refused.status, 401);
    const reader = browser();
    await reader.post("/reg.do", { user: "reader_b", password: "reader-pass" });
    const before = parseSitemapText((await reader.get("/sitemap.xml")).text).urls.find((u) =>
      u.loc.endsWith("/html/news3.html"),
    );
    clock = START + 3_600_000;
    const posted = await reader.post("/comment.do", { id: "3", text: "Seen it <today>" });
    assert.equal(posted.status, 303);
    assert.equal(posted.location, "/newsItem.do?id=3");
    const snapshot = await reader.get("/html/news3.html");
    assert.ok(snapshot.text.includes("<b>reader_b</b>"));
    assert.ok(snapshot.text.includes("Seen it &lt;today&gt;"));
    const after = parseSitemapText((await reader.get("/sitemap.xml")).text).urls.find((u) =>
      u.loc.endsWith("/html/news3.html"),
    );
    assert.notEqual(after?.lastmod, before?.lastmod);
    assert.equal(after?.lastmod, "2015-03-19T05:00:00Z");
    assert.ok(!(await reader.get("/newsItem.do?id=3")).text.includes("Seen it"));
    const ajax = JSON.parse((await reader.get("/comments.do?id=3")).text) as { text: string }[];
    assert.equal(ajax.at(-1)?.text, "Seen it <today>");
  });

  it("field limits: title, text and comment lengths; empty fields", async () => {
    const admin = browser();
    await admin.post("/login.do", { user: "admin", password: ADMIN_PASSWORD });
    const cases = [
      [{ title: "t".repeat(MAX_TITLE_CHARS + 1), text: "x" }, 400, /title: at most 200/],
      [{ title: "t", text: "x".repeat(MAX_TEXT_CHARS + 1) }, 400, /text: at most 20000/],
      [{ title: "  ", text: "x" }, 400, /title: expected some text/],
    ] as const;
    for (const [fields, status, message] of cases) {
      const r = await admin.post("/newsRelease.do", fields);
      assert.equal(r.status, status);
      assert.match(r.text, message);
    }
    // The longest text, in three-byte characters, fits the form's byte limit.
    const long = await admin.post("/newsRelease.do", {
      title: "长",
      text: "长".repeat(MAX_TEXT_CHARS),
    });
    assert.equal(long.status, 303);
    const tooLong = await admin.post("/comment.do", {
      id: "1",
      text: "c".repeat(MAX_COMMENT_CHARS + 1),
    });
    assert.equal(tooLong.status, 400);
    assert.equal(
      (await admin.post("/comment.do", { id: "1", text: "c".repeat(MAX_COMMENT_CHARS) })).status,
      303,
    );
    assert.equal((await admin.post("/comment.do", { id: "999", text: "c" })).status, 404);
  });

  it("registration: names and passwords checked, a name taken once", async () => {
    const cases = [
      [{ user: "bad name", password: "long-enough" }, /user: expected/],
      [{ user: "x".repeat(33), password: "long-enough" }, /user: expected 1 to 32/],
      [{ user: "short_pw", password: "12345" }, /password: expected 6 to 200/],
      [{ user: "admin", password: "long-enough" }, /taken/],
    ] as const;
    for (const [fields, message] of cases) {
      const r = await browser().post("/reg.do", fields);
      assert.equal(r.status, 400);
      assert.match(r.text, message);
    }
  });

  it("after login, only a path of this site is followed", async () => {
    for (const [next, expected] of [
      ["/news.do", "/news.do"],
      ["//evil.example/x", "/"],
      ["http://evil.example/", "/"],
    ] as const) {
      const r = await browser().post("/login.do", {
        user: "admin",
        password: ADMIN_PASSWORD,
        next,
      });
      assert.equal(r.location, expected);
    }
  });

  it("logging out ends the session", async () => {
    const admin = browser();
    await admin.post("/login.do", { user: "admin", password: ADMIN_PASSWORD });
    const session = admin.session;
    assert.equal((await admin.post("/logout.do", {})).status, 303);
    assert.equal(admin.session, null);
    admin.session = session;
    assert.equal((await admin.get("/newsRelease.do")).status, 403, "the old cookie is dead");
  });

  it("methods, unknown paths, and gzip when the client takes it (REGP Encoding: gzip)", async () => {
    const b = browser();
    const put = await fetch(`${running.origin}/`, { method: "PUT" });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "GET, HEAD");
    assert.equal((await b.get("/nothing.do")).status, 404);
    const zipped = await b.get("/", { "accept-encoding": "gzip" });
    assert.equal(zipped.headers.get("content-encoding"), "gzip");
    assert.match(zipped.text, /Example News/);
  });

  it("the request log has every request: time, method, path, status", () => {
    const paths = log.map((r) => `${r.method} ${r.path} ${r.status}`);
    assert.ok(paths.includes("GET / 200"));
    assert.ok(paths.includes("POST /newsRelease.do 303"));
    assert.ok(paths.includes("GET /comments.do?id=2 200"));
    assert.ok(log.every((r) => r.at >= START));
  });
});

describe("news site bounds", { timeout: 60_000 }, () => {
  it(`search shows at most ${MAX_SEARCH_RESULTS} results, newest first`, async () => {
    const site = await startNewsSite({
      robots: "none",
      items: MAX_SEARCH_RESULTS + 20,
      adminPassword: ADMIN_PASSWORD,
    });
    try {
      const page = await (await fetch(`${site.origin}/news.do?q=news+item`)).text();
      const ids = itemLinks(page.slice(page.indexOf("Results for")));
      // The results, then the latest three again under "Latest news".
      assert.equal(ids.length, MAX_SEARCH_RESULTS + 3);
      assert.equal(ids[0], MAX_SEARCH_RESULTS + 20);
    } finally {
      await site.close();
    }
  });

  it(`an item takes ${MAX_COMMENTS_PER_ITEM} comments, not one more`, async () => {
    const site = await startNewsSite({ robots: "none", items: 1, adminPassword: ADMIN_PASSWORD });
    try {
      const b = new Browser(site.origin);
      await b.post("/login.do", { user: "admin", password: ADMIN_PASSWORD });
      // All but the last few are put in place directly: a thousand posts, each writing the
      // snapshot again, took a minute on a busy machine. The bound is met through the form.
      const comments = site.site.items()[0]?.comments ?? [];
      while (comments.length < MAX_COMMENTS_PER_ITEM - 3)
        comments.push({ author: "admin", text: `comment ${comments.length}`, at: Date.now() });
      for (let i = comments.length; i < MAX_COMMENTS_PER_ITEM; i++) {
        const r = await b.post("/comment.do", { id: "1", text: `comment ${i}` });
        assert.equal(r.status, 303);
      }
      const over = await b.post("/comment.do", { id: "1", text: "one more" });
      assert.equal(over.status, 409);
      const snapshot = (await b.get("/html/news1.html")).text;
      assert.equal(snapshot.match(/<li class="comment">/g)?.length, MAX_COMMENTS_PER_ITEM);
    } finally {
      await site.close();
    }
  });
});

describe("news site options", () => {
  it("a site with no news: an empty sitemap, which the first release fills", async () => {
    const site = await startNewsSite({ robots: "regp", items: 0, adminPassword: ADMIN_PASSWORD });
    try {
      const b = new Browser(site.origin);
      assert.deepEqual(parseSitemapText((await b.get("/sitemap.xml")).text).urls, []);
      await b.post("/login.do", { user: "admin", password: ADMIN_PASSWORD });
      const r = await b.post("/newsRelease.do", { title: "First", text: "The first news." });
      assert.equal(r.location, "/newsItem.do?id=1");
      const { urls } = parseSitemapText((await b.get("/sitemap.xml")).text);
      assert.deepEqual(
        urls.map((u) => [u.loc, u.srcloc, u.type]),
        [[`${site.origin}/html/news1.html`, `${site.origin}/newsItem.do?id=1`, "data"]],
      );
    } finally {
      await site.close();
    }
  });

  it("robots none answers 404; rep serves the old REP file", async () => {
    for (const [robots, status] of [
      ["none", 404],
      ["rep", 200],
    ] as const) {
      const site = await startNewsSite({ robots, items: 4, adminPassword: ADMIN_PASSWORD });
      try {
        const res = await fetch(`${site.origin}/robots.txt`);
        assert.equal(res.status, status);
        const text = await res.text();
        if (robots === "rep") assert.match(text, /^User-agent: \*\nDisallow: \/login\.do\n/);
      } finally {
        await site.close();
      }
    }
  });

  it(`refuses more than ${MAX_ITEMS} items, a short administrator password, a line break in Language, an unknown robots.txt`, async () => {
    await assert.rejects(
      startNewsSite({ robots: "regp", items: MAX_ITEMS + 1, adminPassword: ADMIN_PASSWORD }),
      /items: expected 0 to 10000/,
    );
    await assert.rejects(
      startNewsSite({ robots: "regp", items: 1, adminPassword: "123" }),
      /adminPassword/,
    );
    await assert.rejects(
      startNewsSite({ robots: "koster" as "rep", items: 1, adminPassword: ADMIN_PASSWORD }),
      /robots: expected one of none, rep, regp/,
    );
    await assert.rejects(
      startNewsSite({
        robots: "regp",
        items: 1,
        adminPassword: ADMIN_PASSWORD,
        language: "fr\nDisallow: /",
      }),
      /language: expected one line/,
    );
  });
});
