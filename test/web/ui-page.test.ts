// `heed ui` in real Chromium (playwright-core, Debian's /usr/bin/chromium): the tester answers
// seeds/004's example matrix with the deciding line highlighted in the editor, REGP IP groups
// and Visit-time windows, lint findings at their lines, a fetched robots.txt that answers 503,
// the other records, the crawl view following a crawl to its end, and axe-core's checks.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { type IncomingMessage, request, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startUiServer, type UiServer } from "../../src/web/server.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { spawnCli } from "../helpers/run-cli.js";
import { serveDirectory } from "../helpers/static-site.js";
import { until } from "../helpers/until.js";
import { CHROMIUM, launchChromium, settled } from "../../bench/ui-keystrokes.js";
import { FICT_ORG as FICT, FICT_ORG_MATRIX as MATRIX } from "../fixtures/fict-org.js";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The line of FICT that decides for the `*` group: first match in order (seeds/004 §3.2.2). */
function otherLine(url: string): number | null {
  const path = new URL(url).pathname.replace("%7E", "~");
  if (path === "/robots.txt") return null;
  const rules: [string, number][] = [
    ["/org/plans.html", 12],
    ["/org/", 13],
    ["/serv", 14],
    ["/~mak", 15],
    ["/", 16],
  ];
  return rules.find(([prefix]) => path.startsWith(prefix))?.[1] ?? null;
}

interface Row {
  verdict: string;
  line: string;
  reason: string;
}

async function answers(page: Page): Promise<Row[]> {
  await settled(page);
  return page.locator("#answers-body tr").evaluateAll((rows) =>
    rows.map((r) => ({
      verdict: r.querySelector(".verdict")?.textContent ?? "",
      line: r.querySelector(".line")?.textContent ?? "",
      reason: r.querySelector(".reason")?.textContent ?? "",
    })),
  );
}

/** Lines the editor's backdrop marks with a class. */
async function marked(page: Page, cls: string): Promise<number[]> {
  await settled(page);
  return page
    .locator(`#backdrop .line.${cls}`)
    .evaluateAll((ls) => ls.map((l) => Number(l.getAttribute("data-line"))));
}

async function setQuery(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [id, value] of Object.entries(fields)) await page.fill(`#${id}`, value);
  await settled(page);
}

/** Fills a field and waits for the answers it changes. */
async function fillIn(page: Page, selector: string, value: string): Promise<void> {
  await page.fill(selector, value);
  await settled(page);
}

async function choose(page: Page, selector: string, value: string): Promise<void> {
  await page.selectOption(selector, value);
  await settled(page);
}

describe("heed ui in Chromium", () => {
  let browser: Browser;
  let ui: UiServer;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing: apt-get install -y chromium (scripts/setup.mjs does, as root)`,
    );
    temp = await tempDir("heed-ui-");
    ui = await startUiServer({
      port: 0,
      store: join(temp.dir, "crawl.db"),
      agent: "HeedTest",
      feedIntervalMs: 200,
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await ui?.close();
    await temp?.cleanup();
  });

  async function open(hash = "#tester"): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
    const outside: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(ui.url)) outside.push(r.url());
    });
    page.on("pageerror", (e) => assert.fail(`error in the page: ${e.message}`));
    await page.goto(`${ui.url}${hash}`);
    await page.waitForSelector("body[data-ready]");
    assert.deepEqual(outside, [], "the page loads nothing from elsewhere");
    return page;
  }

  it("answers seeds/004's matrix, the deciding line highlighted in the editor", async () => {
    const page = await open();
    await fillIn(page, "#robots", FICT);
    await choose(page, "#dialect", "koster1996");
    await fillIn(page, "#urls", MATRIX.map(([url]) => url).join("\n"));
    const robots: [string, number][] = [
      ["unhipbot", 1],
      ["webcrawler", 2],
      ["excite", 2],
      ["OtherBot/1.0 (+http://other.example)", 3],
    ];
    for (const [agent, column] of robots) {
      await fillIn(page, "#agent", agent);
      const rows = await answers(page);
      assert.equal(rows.length, MATRIX.length);
      for (let i = 0; i < MATRIX.length; i++) {
        const entry = MATRIX[i] as (typeof MATRIX)[number];
        const [url] = entry;
        const want = entry[column] as boolean;
        const row = rows[i] as Row;
        assert.equal(row.verdict, want ? "allowed" : "disallowed", `${agent} ${url}`);
        const line =
          url.endsWith("/robots.txt") || column === 2 ? null : column === 1 ? 5 : otherLine(url);
        assert.equal(row.line, line === null ? "–" : String(line), `${agent} ${url}: line`);
        // Select the answer: its line, and only it, is the current line of the editor.
        await page.locator(`#answers-body tr[data-row="${i}"] button`).click();
        assert.deepEqual(
          await marked(page, "current"),
          line === null ? [] : [line],
          `${agent} ${url}`,
        );
        if (column === 2 && !url.endsWith("/robots.txt")) {
          // No line decides for webcrawler and excite; their group's User-agent lines are marked.
          assert.deepEqual(await marked(page, "group"), [7, 8]);
          assert.match(row.reason, /no rule matches/);
        }
      }
    }
    assert.equal(
      await page.locator("#token").textContent(),
      "heed matches the token OtherBot (from the User-Agent)",
    );
    await choose(page, "#dialect", "auto");
    assert.equal(
      await page.locator("#dialect-why").textContent(),
      "auto chose RFC 9309: the file has no Robot-version line",
    );
    await page.close();
  });

  it("shows the usage preferences robots.txt states beside each answer", async () => {
    const page = await open();
    // draft-ietf-aipref-attach-05 §3.4's example, restated.
    await fillIn(
      page,
      "#robots",
      "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: search=yes\n",
    );
    await choose(page, "#dialect", "auto");
    await fillIn(page, "#agent", "OtherBot");
    await fillIn(
      page,
      "#urls",
      "https://example.com/test\nhttps://example.com/ai-ok/test\nhttps://example.com/never/test",
    );
    const usage = await page.locator("#answers-body tr .usage").allTextContents();
    assert.deepEqual(usage, [
      "search allowed (line 6); train-ai disallowed (line 4)",
      "search allowed (line 6); train-ai allowed (line 5)",
      "none: not crawlable",
    ]);
    await fillIn(page, "#robots", "User-Agent: *\nContent-Usage: Train-AI=n\n");
    const codes = await page
      .locator("#lint-list li")
      .evaluateAll((ls) => ls.map((l) => l.getAttribute("data-code")));
    assert.ok(codes.includes("usage-syntax"), codes.join(" "));
    await page.close();
  });

  it("REGP: an IP group and a Visit-time window, for two IPs at two times", async () => {
    const page = await open();
    await fillIn(
      page,
      "#robots",
      "Robot-version: 3.0\n\nUser-agent: *\nIp-disallow: 192.0.2.*\nDisallow: /private/\nVisit-time: 01:00 UT-05:00 UT\nCrawl-delay: 2\n",
    );
    await setQuery(page, { agent: "Foo", urls: "http://x.example/page.html" });
    assert.equal(
      await page.locator("#dialect-why").textContent(),
      "auto chose REGP 3.0: line 1 says Robot-version: 3.0",
    );
    const IP_REFUSED = /^the robot's IP address is refused: the whole site is closed to it$/;
    const cases: [string, string, string, string, RegExp][] = [
      // Said once, not "…closed to it: the robot's IP address is refused: …".
      ["192.0.2.9", "2026-11-24T03:00:00Z", "disallowed", "4", IP_REFUSED],
      ["192.0.2.9", "2026-11-24T12:00:00Z", "disallowed", "4", IP_REFUSED],
      ["198.51.100.4", "2026-11-24T03:00:00Z", "allowed", "–", /implicit first line Allow/],
      ["198.51.100.4", "2026-11-24T12:00:00Z", "disallowed", "6", /opens 2026-11-25 01:00:00 UTC/],
    ];
    for (const [ip, at, verdict, line, reason] of cases) {
      await setQuery(page, { ip, at });
      const [row] = await answers(page);
      assert.equal(row?.verdict, verdict, `${ip} at ${at}`);
      assert.equal(row?.line, line, `${ip} at ${at}`);
      assert.match(row?.reason ?? "", reason, `${ip} at ${at}`);
      assert.deepEqual(await marked(page, "current"), line === "–" ? [] : [Number(line)]);
      const plan = await page.locator("#plan-table").innerText();
      assert.match(plan, /Visit-time\s+01:00 UT-05:00 UT \(line 6\)/);
      assert.match(plan, /Crawl-delay[^\n]*\s+2 s \(line 7\)/);
      if (line === "6") assert.match(plan, /closed; next opening 2026-11-25 01:00:00 UTC/);
    }
    await page.close();
  });

  it("lint findings are shown at their lines, in the editor and in the list", async () => {
    const page = await open();
    await fillIn(
      page,
      "#robots",
      "User-agent: *\nDisalow: /private\nAllow: /a\nCrawl-delay: soon\nUser-agent: MJ12bot\nDisallow: /x\n",
    );
    const listed = await page
      .locator("#lint-list li")
      .evaluateAll((li) =>
        li.map((l) => [l.getAttribute("data-line"), l.getAttribute("data-code")]),
      );
    assert.deepEqual(listed, [
      ["2", "misspelt-key"],
      ["4", "bad-crawl-delay"],
      ["5", "agent-not-product-token"],
    ]);
    assert.deepEqual(await marked(page, "lint-warning"), [2, 4, 5]);
    const note = await page.locator('#backdrop .line[data-line="4"] .note').textContent();
    assert.match(note ?? "", /^bad-crawl-delay: Crawl-delay "soon"/);
    // The note sits on line 4's row of the editor, beside the text the user sees.
    const noteBox = await page.locator('#backdrop .line[data-line="4"] .note').boundingBox();
    const textarea = await page.locator("#robots").boundingBox();
    assert.ok(noteBox !== null && textarea !== null);
    const lineHeight = 20;
    assert.ok(
      Math.abs(noteBox.y - (textarea.y + 8 + 3 * lineHeight)) < lineHeight,
      "note on line 4",
    );
    assert.match((await page.locator("#lint-summary").textContent()) ?? "", /0 errors, 3 warnings/);
    // Fixing the line clears its finding as one types.
    await fillIn(page, "#robots", "User-agent: *\nDisallow: /private\n");
    assert.equal(await page.locator("#lint-list li").count(), 0);
    await page.close();
  });

  it("shows hostile text as text, and answers a file at the parse limit", async () => {
    const page = await open();
    const evil = `<img src=x onerror="document.body.dataset.owned=1">`;
    await setQuery(page, {
      robots: `User-agent: *\nDisallow: /${evil}\n${evil}: x\n`,
      urls: `/${evil}`,
      agent: evil,
    });
    assert.equal(await page.locator("#backdrop img, #answers img, #lint-list img").count(), 0);
    assert.equal(await page.locator("body").getAttribute("data-owned"), null);
    assert.match(
      (await page.locator('#backdrop .line[data-line="2"] .text').textContent()) ?? "",
      /<img src=x/,
    );
    // 600 KiB: more than the 500 KiB heed parses; the page says the file was cut.
    const big = `User-agent: *\n${"Disallow: /a-long-path-to-nowhere/\n".repeat(18_000)}Disallow: /last\n`;
    await page.$eval(
      "#robots",
      (t, text) => {
        (t as { value: string }).value = text;
        t.dispatchEvent(new Event("input"));
      },
      big,
    );
    // Laying out 18,000 lines takes Chromium tens of seconds on a loaded machine: a generous
    // bound, not a speed test.
    await page.waitForSelector('#lint-list li[data-code="size-limit"]', { timeout: 90_000 });
    await settled(page);
    assert.equal(
      await page.locator('#answers-body tr[data-row="0"] .verdict').textContent(),
      "allowed",
    );
    await page.close();
  });

  it("a site on 127.0.0.1 whose robots.txt answers 503 is shown closed", async () => {
    const site: TestServer = await startServer({
      "/robots.txt": (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(503, { "content-type": "text/plain" });
        res.end("busy");
      },
    });
    try {
      const page = await open();
      await setQuery(page, {
        site: site.origin,
        agent: "Foo",
        urls: "/\n/a/page.html\n/robots.txt",
      });
      await page.click("#fetch");
      await page.waitForSelector('#fetch-status[data-action="unreachable"]');
      assert.match(
        (await page.locator("#fetch-status").textContent()) ?? "",
        /GET http:\/\/127\.0\.0\.1:\d+\/robots\.txt: 503: server error, the site is closed for now/,
      );
      assert.match(
        (await page.locator("#site-banner").textContent()) ?? "",
        /^The site is closed to robots: 503/,
      );
      const rows = await answers(page);
      assert.deepEqual(
        rows.map((r) => r.verdict),
        ["disallowed", "disallowed", "allowed"],
      );
      assert.match(rows[0]?.reason ?? "", /503: server error/);
      await page.close();
    } finally {
      await site.close();
    }
  });

  it("other answers to GET /robots.txt: 403 closes, 404 opens, a redirect is followed and parsed", async () => {
    let status = 403;
    const site: TestServer = await startServer({
      "/robots.txt": (_req: IncomingMessage, res: ServerResponse) => {
        if (status === 301) {
          res.writeHead(301, { location: "/real-robots.txt" });
          res.end();
          return;
        }
        res.writeHead(status, { "content-type": "text/plain" });
        res.end("no");
      },
      "/real-robots.txt": (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("User-agent: *\nDisallow: /a/\n");
      },
    });
    try {
      const page = await open();
      await setQuery(page, {
        site: site.origin,
        agent: "Foo",
        urls: "/\n/a/page.html\nhttp://elsewhere.example/",
      });
      const cases: [number, string, RegExp, string[]][] = [
        [
          403,
          "disallow-all",
          /^The site is closed to robots: 403/,
          ["disallowed", "disallowed", "disallowed"],
        ],
        [
          404,
          "allow-all",
          /^The site is open to every robot: 404/,
          ["allowed", "allowed", "allowed"],
        ],
        [301, "parse", /^$/, ["allowed", "disallowed", "disallowed"]],
      ];
      for (const [answer, action, banner, verdicts] of cases) {
        status = answer;
        await page.click("#fetch");
        await page.waitForSelector(`#fetch-status[data-action="${action}"]`);
        assert.match(
          (await page.locator("#site-banner").textContent()) ?? "",
          banner,
          String(answer),
        );
        assert.deepEqual(
          (await answers(page)).map((r) => r.verdict),
          verdicts,
          String(answer),
        );
      }
      // The redirect was followed; the file it led to is in the editor, and a URL on another
      // site is answered as such.
      assert.match(
        (await page.locator("#fetch-status").textContent()) ?? "",
        /→ http:\/\/127\.0\.0\.1:\d+\/real-robots\.txt/,
      );
      assert.equal(await page.inputValue("#robots"), "User-agent: *\nDisallow: /a/\n");
      assert.match((await answers(page))[2]?.reason ?? "", /on another site/);
      await page.close();
    } finally {
      await site.close();
    }
  });

  it("the server refuses other hosts, other origins, cross-site fetches and anything but GET", async () => {
    const port = Number(new URL(ui.url).port);
    const path = `/api/robots?site=${encodeURIComponent("http://127.0.0.1:9")}`;
    const status = (headers: Record<string, string>, method = "GET", at = path) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: at, method, headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end();
      });
    // DNS rebinding: the browser would send the attacker's name as Host.
    assert.equal(await status({ host: `evil.example:${port}`, "x-heed-ui": "1" }), 421);
    assert.equal(await status({ origin: "http://evil.example", "x-heed-ui": "1" }), 403);
    assert.equal(await status({ "sec-fetch-site": "cross-site", "x-heed-ui": "1" }), 403);
    // A plain cross-site <img src> GET carries no custom header: the fetch endpoints refuse it.
    assert.equal(await status({}), 403);
    assert.equal(await status({ "x-heed-ui": "1" }, "POST"), 405);
    assert.equal(await status({ "x-heed-ui": "1" }), 200);
    // The page itself, from the loopback spellings of the server's address.
    assert.equal(await status({ host: `localhost:${port}` }, "GET", "/"), 200);
    assert.equal(await status({ host: `[::1]:${port}` }, "GET", "/"), 200);
    assert.equal(await status({ host: `127.0.0.1:${port + 1}` }, "GET", "/"), 421);
    const page = await (await fetch(ui.url)).text();
    assert.doesNotMatch(
      page,
      /(src|href)="(https?:)?\/\//,
      "the page loads nothing from elsewhere",
    );
  });

  it("sitemaps, Mobile-agent-server and /data.txt follow the tester's file and robot", async () => {
    const site = await startServer({
      "/sitemap.xml": (_req, res) => {
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>${site.origin}/a.html</loc></url>\n<url><loc>${site.origin}/private/b.html</loc></url>\n<url><loc>not a url</loc></url>\n</urlset>\n`,
        );
      },
      "/data.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(
          "User-agent: *\nAllow: /data/open.csv\nAllow: /private/closed.csv\nDisallow: /data/hidden.csv\n",
        );
      },
    });
    try {
      const page = await open();
      await setQuery(page, {
        site: site.origin,
        agent: "Foo",
        robots: `User-agent: *\nDisallow: /private/\n\nSitemap: ${site.origin}/sitemap.xml\nMobile-agent-server: /home/ atp://agents.example:831\nMobile-agent-server: /home/user2/ none\n`,
      });
      await page.click("#nav-more");
      await page.waitForSelector("#view-more:not([hidden])");
      await page.click(`button[data-sitemap="${site.origin}/sitemap.xml"]`);
      await page.waitForSelector(".sitemap-result .counts");
      assert.match(
        (await page.locator(".sitemap-result .counts").textContent()) ?? "",
        /urlset: 2 URLs, 0 sitemaps, \d+ errors?, \d+ warnings?/,
      );
      assert.ok((await page.locator(".sitemap-result .findings li").count()) >= 1);
      await page.fill("#agent-url", "http://www.example.org/home/user1/x.html");
      assert.match(
        (await page.locator("#agent-answer").textContent()) ?? "",
        /go to atp:\/\/agents\.example:831 \(line 5/,
      );
      await page.fill("#agent-url", "/home/user2/x.html");
      assert.match((await page.locator("#agent-answer").textContent()) ?? "", /line 6 says none/);
      await page.click("#data-fetch");
      await page.waitForSelector("#data-body tr");
      const rows = await page
        .locator("#data-body tr")
        .evaluateAll((trs) => trs.map((tr) => tr.querySelector(".verdict")?.textContent));
      assert.deepEqual(rows, ["may fetch", "may not fetch"], "robots.txt closes /private/");
      await page.close();
    } finally {
      await site.close();
    }
  });

  it("the crawl view follows a crawl of a local site to its end, live", async () => {
    const root = join(temp.dir, "site");
    await mkdir(join(root, "secret"), { recursive: true });
    const pages = 6;
    for (let i = 0; i < pages; i++) {
      await writeFile(
        join(root, `p${i}.html`),
        `<html><body><a href="/secret/s${i}.html">s</a></body></html>`,
      );
    }
    const links = Array.from({ length: pages }, (_, i) => `<a href="/p${i}.html">p${i}</a>`);
    await writeFile(join(root, "index.html"), `<html><body>${links.join(" ")}</body></html>`);
    // REGP (seeds/003 §3.2.6-3.2.7): a delay and a rate, both shown in the host's Pace cell.
    const site = await serveDirectory(
      root,
      "Robot-version: 3.0\nUser-agent: HeedTest\nCrawl-delay: 0.3\nRequest-rate: 600/1m\nDisallow: /secret/\n",
    );
    try {
      const page = await open("#crawl");
      await page.waitForSelector('#view-crawl[data-state="no-store"]');
      const states = new Set<string>();
      const crawl = spawnCli(
        [
          "crawl",
          `${site.origin}/`,
          // Seeds robots.txt refuses: the crawl logs them as not fetched, with the line why.
          `${site.origin}/secret/s0.html`,
          `${site.origin}/secret/s1.html`,
          "--agent",
          "HeedTest",
          "--store",
          join(temp.dir, "crawl.db"),
        ],
        { timeoutMs: 60_000 },
      );
      await until(
        async () => {
          const state = (await page.locator("#view-crawl").getAttribute("data-state")) ?? "";
          states.add(state);
          return state === "finished";
        },
        "the crawl view to say finished",
        60_000,
      );
      const result = await crawl.done;
      assert.equal(result.code, 0, result.stderr);
      assert.ok(
        states.has("running") || states.has("empty"),
        `states seen: ${[...states].join(", ")}`,
      );
      // Every page fetched; the secret seeds refused, with their reason.
      const done = await page.locator('[data-count="done"] .n').textContent();
      assert.equal(done, String(pages + 1));
      const host = page.locator(`#crawl-hosts-body tr[data-origin="${site.origin}"]`);
      // Every page once; the host's request count is every request the site saw, robots.txt
      // and the sitemap probe included, as the site's own log counts them.
      const pagesServed = site.requests.filter((p) => p === "/" || p.endsWith(".html"));
      assert.equal(pagesServed.length, pages + 1, site.requests.join(" "));
      assert.equal(await host.locator("td").nth(0).textContent(), String(site.requests.length));
      assert.match((await host.locator("td").nth(2).textContent()) ?? "", /^200 \(parse\)/);
      assert.match((await host.locator("td").nth(3).textContent()) ?? "", /required 0\.30 s/);
      // What paces the site: the rules read for the crawl's robot (heed ui --agent), the rate
      // window its reservation counts (every request so far) and the next allowed moment.
      const pace = (await host.locator("td.pace").textContent()) ?? "";
      assert.match(pace, /^Crawl-delay 0\.3 s \(line 3\); /);
      assert.match(
        pace,
        new RegExp(
          `Request-rate 600 per 60 s \\(line 4\\): ${site.requests.length} of 600 in the window since \\d{4}-`,
        ),
      );
      assert.match(pace, /; gap kept 0\.30 s; next request (may start now|not before \d{4}-)/);
      // The two refused seeds, and each page's link robots.txt refuses, each with its line.
      const rows = page.locator("#crawl-skipped-body tr");
      assert.equal(await rows.count(), 2 + pages);
      for (const text of await rows.allInnerTexts()) {
        assert.match(text, /\/secret\/s\d\.html\s+disallowed\s+.*Disallow: \/secret\//);
      }
      assert.equal(await page.locator('[data-count="skipped"] .n').textContent(), "2");
      assert.match(
        (await page.locator("#crawl-skipped-body tr").first().innerText()) ?? "",
        /\/secret\/s\d\.html\s+disallowed\s+.*Disallow: \/secret\//,
      );
      // The report's charts, one series for the one host.
      const series = page.locator("#crawl-report svg#chart g.series");
      assert.equal(await series.count(), 1);
      assert.equal(await series.getAttribute("data-origin"), site.origin);
      await page.close();
    } finally {
      await site.close();
    }
  });

  it("passes axe-core's WCAG 2 A and AA checks in every view", async () => {
    const axe = await readFile(AXE, "utf8");
    const page = await open();
    await setQuery(page, {
      robots: FICT,
      urls: "http://www.fict.org/\nhttp://www.fict.org/org/about.html",
    });
    for (const view of ["tester", "more", "crawl"]) {
      await page.click(`#nav-${view}`);
      await page.waitForSelector(`#view-${view}:not([hidden])`);
      if (view === "crawl") await page.waitForSelector("#crawl-hosts-body tr");
      // Evaluated through the DevTools protocol: the page's CSP allows no inline script.
      await page.evaluate(axe);
      const violations = (await page.evaluate(
        `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] } }).then((r) => r.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`,
      )) as string[];
      assert.deepEqual(violations, [], `${view}: ${violations.join("\n")}`);
    }
    await page.close();
    // The keyboard reaches the controls in reading order: skip link, views, site, fetch.
    const fresh = await open();
    const order: string[] = [];
    for (let i = 0; i < 7; i++) {
      await fresh.keyboard.press("Tab");
      order.push(
        (await fresh.evaluate(
          "document.activeElement.id || document.activeElement.textContent || ''",
        )) as string,
      );
    }
    assert.deepEqual(order.slice(0, 7), [
      "Skip to content",
      "nav-tester",
      "nav-more",
      "nav-crawl",
      "site",
      "fetch",
      "robots",
    ]);
    await fresh.close();
  });
});
