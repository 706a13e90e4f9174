// `heed ui`'s tester as a webmaster uses it, in real Chromium (playwright-core, Debian's
// /usr/bin/chromium): a thousand URLs answered as one types, several robots compared side by
// side, the permalink opened in a new page, the edited file downloaded and compared with the
// live one of a site on 127.0.0.1, the site's sitemaps read through, and axe-core's checks.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { deflateRawSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { startUiServer, type UiServer } from "../../src/web/server.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import {
  CHROMIUM,
  launchChromium,
  measureKeystrokes,
  settled,
  setValue,
  UI_ROBOTS,
  UI_ROBOTS_TXT,
  urlsFor,
} from "../../bench/ui-keystrokes.js";
import { VIEW_MARGIN_ROWS } from "../../src/web/client/row-window.js";
import { MAX_PERMALINK_CHARS, MAX_STATE_BYTES } from "../../src/web/client/permalink.js";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
/** One frame at 60 Hz: what a keystroke's own handling may cost the main thread. */
const FRAME_MS = 16;
/** The grid's box shows about 16 rows; with the margins, no more than this are drawn. */
const MAX_DRAWN_ROWS = 20 + 2 * VIEW_MARGIN_ROWS;

describe("heed ui's tester, as a webmaster uses it", () => {
  let browser: Browser;
  let ui: UiServer;

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
    ui = await startUiServer({ port: 0 });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await ui?.close();
  });

  async function open(address = `${ui.url}#tester`): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
    page.on("pageerror", (e) => assert.fail(`error in the page: ${e.message}`));
    await page.goto(address);
    await page.waitForSelector("body[data-ready]");
    await settled(page);
    return page;
  }

  async function fillIn(page: Page, selector: string, value: string): Promise<void> {
    await page.fill(selector, value);
    await settled(page);
  }

  async function pick(page: Page, ...robots: string[]): Promise<void> {
    for (const robot of robots) await page.check(`#crawlers input[value="${robot}"]`);
    await settled(page);
  }

  const answered = async (page: Page) =>
    Number(await page.locator("#answers-body").getAttribute("data-answered"));

  /** Waits until the page holds `count` of the worker's replies back (the page's CSP allows no eval). */
  const heldReplies = (page: Page, count: number) =>
    page.waitForFunction(
      (n) =>
        (globalThis as unknown as { heedAnswers: { held(): number } }).heedAnswers.held() === n,
      count,
    );

  /** The compared robots' cells of row `i`. */
  const robotCells = (page: Page, i: number) =>
    page.locator(`#answers-body tr[data-row="${i}"] td.robot`).allTextContents();

  it("answers only what changed, in its worker: a keystroke parses nothing on the page, re-answers one robot's column and redraws only rows in view", async (t) => {
    const page = await open();
    await setValue(page, "robots", UI_ROBOTS_TXT);
    await setValue(page, "agent", UI_ROBOTS[0]);
    await setValue(page, "urls", urlsFor(1000).join("\n"));
    await settled(page);
    await pick(page, ...UI_ROBOTS.slice(1));
    // A thousand rows, of which only those in view and the margin are in the DOM.
    assert.equal(await page.getAttribute("#answers", "aria-rowcount"), "1001");
    const drawn = await page.locator("#answers-body tr").count();
    assert.ok(drawn > VIEW_MARGIN_ROWS && drawn <= MAX_DRAWN_ROWS, `${drawn} rows drawn`);
    assert.deepEqual(
      await page
        .locator("#answers-head-row th.robot")
        .evaluateAll((ths) => ths.map((th) => th.getAttribute("data-robot"))),
      UI_ROBOTS.slice(1),
    );
    // Line 12 is Googlebot's `Disallow: /tmp`: typing there changes Googlebot's answers only.
    let before = await answered(page);
    const costs = await measureKeystrokes(page, 3);
    assert.equal(await answered(page), before + 3 * 1000, "one column per keystroke");
    assert.equal(
      await page.locator('#answers-body tr[data-row="3"] td.line').textContent(),
      "–",
      "/tmp/3/page.html no longer matches Disallow: /tmpabc",
    );
    // What a keystroke costs the main thread, in facts a busy machine does not change: no parse
    // there (the worker parses), and no more grid rows touched than are drawn. The figures in ms
    // are bench/ui.bench.ts's.
    for (const cost of costs) {
      assert.equal(cost.parses, 0, "the page's main thread parsed the file");
      assert.ok(cost.rowsTouched <= drawn, `${cost.rowsTouched} rows touched`);
      assert.ok(cost.handlerMs < FRAME_MS, `handler ${cost.handlerMs} ms`);
    }
    assert.ok(costs[0] !== undefined && costs[0].rowsTouched > 0, "the /tmp rows in view changed");
    t.diagnostic(
      `per keystroke, 1,000 URLs × 5 robots: ${costs.map((c) => `handler ${c.handlerMs.toFixed(1)} ms, page script ${c.pageScriptMs.toFixed(1)} ms, main-thread CPU ${c.cpuMs.toFixed(1)} ms, ${c.rowsTouched} rows touched`).join("; ")}`,
    );
    // A URL edited: one answer per robot.
    before = await answered(page);
    await setValue(page, "urls", [...urlsFor(999), "https://example.com/private/new"].join("\n"));
    await settled(page);
    assert.equal(await answered(page), before + 5);
    // A robot added: its column.
    before = await answered(page);
    await pick(page, "PerplexityBot");
    assert.equal(await answered(page), before + 1000);
    // An edit in the group of GPTBot and CCBot (lines 5-7), and line 12 back as it was:
    // their columns and Googlebot's are answered again, not the three the `*` group answers.
    before = await answered(page);
    const text = UI_ROBOTS_TXT.replace(
      "User-agent: CCBot\nDisallow: /",
      "User-agent: CCBot\nDisallow: /p/",
    );
    await setValue(page, "robots", text);
    await settled(page);
    assert.equal(await answered(page), before + 3 * 1000);
    // A robot added, and the file edited while the worker's answers for it are held back: the
    // first answers arrive after the edit was sent, and are drawn without settling the page;
    // the edit's answers then fill every cell.
    await page.evaluate("window.heedAnswers.hold()");
    await page.check('#crawlers input[value="Applebot"]');
    await heldReplies(page, 1);
    await setValue(page, "robots", `${text}\n# edited meanwhile`);
    await heldReplies(page, 2);
    assert.equal(await page.locator("#answers-head-row th.robot").count(), 5, "nothing drawn yet");
    await page.evaluate("window.heedAnswers.release(1)");
    assert.equal(await page.locator("#answers-head-row th.robot").count(), 6);
    assert.equal(await page.locator("#answers-body td.robot > .cut:empty").count(), 0);
    assert.equal(
      await page.locator("body[data-answering]").count(),
      1,
      "an older edit's answers do not settle the page",
    );
    // An edit typed while answers are on their way, and those answers let in before the edit is
    // sent (typing has not paused yet): the page is not settled until the edit's own come.
    const early = await page.evaluate(`(() => {
      const field = document.getElementById("robots");
      field.value += "\\n# and again";
      field.dispatchEvent(new Event("input", { bubbles: true }));
      window.heedAnswers.release();
      return document.body.hasAttribute("data-answering");
    })()`);
    assert.equal(early, true, "answers sent before the edit settled the page");
    await settled(page);
    assert.equal(await page.locator("#answers-body td.robot > .cut:empty").count(), 0);
    assert.equal(await page.locator("#backdrop .line").count(), 14, "the edits' lines drawn");
    await page.uncheck('#crawlers input[value="Applebot"]');
    await settled(page);
    // https://example.com/private/1/page.html for Bingbot, GPTBot, ClaudeBot, CCBot, PerplexityBot.
    assert.deepEqual(await robotCells(page, 1), [
      "disallowed (line 2)",
      "allowed",
      "disallowed (line 2)",
      "allowed",
      "disallowed (line 2)",
    ]);
    await page.close();
  });

  it("REGP: an edit answers every URL again (the plan and the time windows weigh the whole file), in the worker", async () => {
    const page = await open();
    await setValue(
      page,
      "robots",
      `Robot-version: 3.0\n\n${UI_ROBOTS_TXT}\nVisit-time: 01:00 UT-05:00 UT`,
    );
    await setValue(page, "agent", UI_ROBOTS[0]);
    await setValue(page, "urls", urlsFor(1000).join("\n"));
    await settled(page);
    await pick(page, ...UI_ROBOTS.slice(1));
    const drawn = await page.locator("#answers-body tr").count();
    const before = await answered(page);
    const costs = await measureKeystrokes(page, 2);
    assert.equal(await answered(page), before + 2 * 5 * 1000);
    for (const cost of costs) {
      assert.equal(cost.parses, 0, "the page's main thread parsed the file");
      assert.ok(cost.rowsTouched <= drawn, `${cost.rowsTouched} rows touched`);
    }
    await page.close();
  });

  it("keeps keyboard and screen-reader use of the grid as rows come and go", async () => {
    const page = await open();
    await setValue(page, "robots", UI_ROBOTS_TXT);
    await setValue(page, "agent", UI_ROBOTS[0]);
    await setValue(page, "urls", urlsFor(1000).join("\n"));
    await settled(page);
    await page.focus('#answers-body tr[data-row="0"] button');
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.evaluate("document.activeElement.dataset.row"), "1");
    // End: the last row, drawn now, with focus and its place among the thousand.
    await page.keyboard.press("End");
    assert.equal(await page.evaluate("document.activeElement.dataset.row"), "999");
    assert.equal(
      await page.locator('#answers-body tr[data-row="999"]').getAttribute("aria-rowindex"),
      "1001",
    );
    assert.equal(await page.locator('#answers-body tr[data-row="0"]').count(), 0);
    assert.ok((await page.locator("#answers-body tr").count()) <= MAX_DRAWN_ROWS);
    // An edit redraws the rows around the focused one: focus stays on its row.
    await setValue(page, "robots", `${UI_ROBOTS_TXT}\nDisallow: /p/`);
    await settled(page);
    assert.equal(await page.evaluate("document.activeElement.dataset.row"), "999");
    await page.keyboard.press("PageUp");
    const row = Number(await page.evaluate("document.activeElement.dataset.row"));
    assert.ok(row < 999 && row > 900, `Page Up went to row ${row}`);
    // Enter selects the row: the editor shows its deciding line.
    await page.keyboard.press("Home");
    await page.keyboard.press("Enter");
    await settled(page);
    assert.equal(
      await page.locator('#answers-body tr[data-row="0"]').getAttribute("aria-current"),
      "true",
    );
    assert.equal(await page.evaluate("document.activeElement.id"), "robots");
    assert.equal(await page.locator("#backdrop .line.current").getAttribute("data-line"), "13");
    // Scrolled away with the wheel, the focused row goes, and focus stays in the grid's box.
    await page.focus('#answers-body tr[data-row="0"] button');
    await page.locator("#answers-scroll").evaluate((box) => {
      box.scrollTop = box.scrollHeight;
    });
    await page.waitForSelector('#answers-body tr[data-row="999"]');
    assert.equal(await page.evaluate("document.activeElement.id"), "answers-scroll");
    await page.keyboard.press("ArrowDown");
    const after = Number(await page.evaluate("document.activeElement.dataset.row"));
    assert.ok(after > 900, `focus went to row ${after}`);
    await page.close();
  });

  it("compares the known crawlers side by side, each with what it is, its line and its usage preferences", async () => {
    const page = await open();
    const kinds = await page
      .locator("#crawler-list li")
      .evaluateAll((lis) =>
        Object.fromEntries(
          lis.map((li) => [
            li.querySelector("input")?.getAttribute("value"),
            li.querySelector(".kind")?.textContent,
          ]),
        ),
      );
    assert.equal(kinds["Googlebot"], "search");
    assert.equal(kinds["GPTBot"], "AI training");
    assert.equal(kinds["Google-Extended"], "AI training");
    assert.equal(kinds["PerplexityBot"], "AI input");
    await fillIn(
      page,
      "#robots",
      "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n",
    );
    await fillIn(page, "#agent", "Googlebot");
    await fillIn(page, "#urls", "https://example.com/\nhttps://example.com/private/x");
    await pick(page, "GPTBot", "CCBot");
    await fillIn(page, "#other-robots", "NewsBot, gptbot");
    const heads = await page.locator("#answers-head-row th.robot").allInnerTexts();
    // GPTBot once, though also typed; NewsBot, typed, has no kind.
    assert.deepEqual(
      heads.map((h) => h.replace(/\s+/g, " ")),
      ["GPTBot AI training", "CCBot AI training", "NewsBot"],
    );
    assert.deepEqual(await robotCells(page, 0), [
      "disallowed (line 6); none: not crawlable",
      "allowed; train-ai disallowed (line 3)",
      "allowed; train-ai disallowed (line 3)",
    ]);
    assert.deepEqual(await robotCells(page, 1), [
      "disallowed (line 6); none: not crawlable",
      "disallowed (line 2); none: not crawlable",
      "disallowed (line 2); none: not crawlable",
    ]);
    // The robot in focus keeps its full row.
    assert.equal(
      await page.locator('#answers-body tr[data-row="1"] .reason').textContent(),
      "a rule decided",
    );
    await page.close();
  });

  it("a permalink opened in a new page restores the same test; a broken one says why", async () => {
    const page = await open();
    const file =
      "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n# ünïcode ✓\n";
    await fillIn(page, "#robots", file);
    await fillIn(page, "#agent", "Bingbot");
    await fillIn(page, "#urls", "/\n/private/a");
    await page.selectOption("#dialect", "rfc9309");
    await pick(page, "GPTBot", "ClaudeBot");
    await fillIn(page, "#other-robots", "NewsBot");
    await page.click("#permalink-make");
    await page.waitForSelector("#permalink-box:not([hidden])");
    const link = await page.inputValue("#permalink");
    assert.match(link, /#tester&state=[A-Za-z0-9_-]+$/);
    assert.equal(page.url(), link, "the address is the permalink");
    const grid = async (p: Page) =>
      p
        .locator("#answers-body tr")
        .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    const expected = await grid(page);
    const other = await open(link);
    assert.equal(await other.inputValue("#robots"), file);
    assert.equal(await other.inputValue("#agent"), "Bingbot");
    assert.equal(await other.inputValue("#urls"), "/\n/private/a");
    assert.equal(await other.inputValue("#dialect"), "rfc9309");
    assert.equal(await other.inputValue("#other-robots"), "NewsBot");
    assert.deepEqual(
      await other
        .locator("#crawlers input:checked")
        .evaluateAll((bs) => bs.map((b) => b.getAttribute("value"))),
      ["GPTBot", "ClaudeBot"],
    );
    assert.deepEqual(await grid(other), expected);
    await other.close();
    // Cut, altered, a deflate bomb, too long: each refused with its reason, the page still works.
    const bomb = deflateRawSync(
      JSON.stringify({ v: 1, fields: { robots: "a".repeat(MAX_STATE_BYTES + 1) }, compared: [] }),
    ).toString("base64url");
    const cases: [string, RegExp][] = [
      ["%%%", /not base64url text/],
      [Buffer.from("not deflated").toString("base64url"), /does not inflate/],
      [
        deflateRawSync(JSON.stringify({ v: 1, fields: { secret: "x" }, compared: [] })).toString(
          "base64url",
        ),
        /a field heed ui does not know: "secret"/,
      ],
      [bomb, new RegExp(`inflates past ${MAX_STATE_BYTES} bytes`)],
      ["A".repeat(MAX_PERMALINK_CHARS + 1), new RegExp(`longer than ${MAX_PERMALINK_CHARS}`)],
    ];
    for (const [state, why] of cases) {
      const broken = await open(`${ui.url}#tester&state=${state}`);
      assert.match(
        (await broken.locator("#tools-status").textContent()) ?? "",
        new RegExp(`^This permalink cannot be read: .*${why.source}`),
      );
      assert.equal(await broken.inputValue("#agent"), "Googlebot", "the fields are left alone");
      await broken.close();
    }
    await page.close();
  });

  it("downloads the edited file as robots.txt", async () => {
    const page = await open();
    const file = "User-agent: *\nDisallow: /drafts/\n";
    await fillIn(page, "#robots", file);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    assert.equal(download.suggestedFilename(), "robots.txt");
    const path = await download.path();
    assert.equal(await readFile(path, "utf8"), file);
    await page.close();
  });

  it("compares the edited file with the live one of a site on 127.0.0.1, and says how robots read the live file", async () => {
    let mode = "plain";
    const live = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n";
    const site: TestServer = await startServer({
      "/robots.txt": (_req: IncomingMessage, res: ServerResponse) => {
        if (mode === "503") {
          res.writeHead(503).end("busy");
        } else if (mode === "redirect") {
          res.writeHead(301, { location: "/elsewhere.txt" }).end();
        } else if (mode === "html") {
          res.writeHead(200, { "content-type": "text/html" });
          res.end("<!DOCTYPE html>\n<html><body>Not found</body></html>\n");
        } else if (mode === "big") {
          res.writeHead(200, { "content-type": "text/plain" });
          res.end(
            `${live}${"# padding padding padding padding\n".repeat(20_000)}Disallow: /late/\n`,
          );
        } else {
          res.writeHead(200, { "content-type": "text/plain" });
          res.end(live);
        }
      },
      "/elsewhere.txt": (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(live);
      },
    });
    try {
      const page = await open();
      await fillIn(page, "#site", site.origin);
      // The edit: drafts closed to every robot, GPTBot let in to /blog/.
      await fillIn(
        page,
        "#robots",
        "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n\nUser-agent: GPTBot\nAllow: /blog/\nDisallow: /\n",
      );
      await fillIn(page, "#agent", "Googlebot");
      await fillIn(
        page,
        "#urls",
        `${site.origin}/blog/a\n${site.origin}/drafts/b\n${site.origin}/private/c`,
      );
      await pick(page, "GPTBot");
      await page.click("#diff-live");
      await page.waitForSelector("#diff:not([hidden])");
      const changed = await page
        .locator("#diff-answers-body tr")
        .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
      assert.deepEqual(changed, [
        [`${site.origin}/drafts/b`, "Googlebot", "allowed", "disallowed (line 3)"],
        [`${site.origin}/blog/a`, "GPTBot", "disallowed (line 5)", "allowed (line 6)"],
      ]);
      const lines = await page
        .locator("#diff-lines li")
        .evaluateAll((ls) =>
          ls.map((l) => `${l.className.replace("diff ", "")} ${l.lastChild?.textContent}`),
        );
      assert.deepEqual(lines, [
        "same User-agent: *",
        "same Disallow: /private/",
        "added Disallow: /drafts/",
        "same ",
        "same User-agent: GPTBot",
        "added Allow: /blog/",
        "same Disallow: /",
        "same ",
      ]);
      assert.match(
        (await page.locator("#diff-summary").textContent()) ?? "",
        /0 lines removed, 2 added; the edit changes 2 of 6 answers/,
      );
      const health = async () =>
        page
          .locator("#live-health li")
          .evaluateAll((ls) => ls.map((l) => [l.getAttribute("data-code"), l.textContent ?? ""]));
      assert.deepEqual(
        (await health()).map(([code]) => code),
        ["ok"],
      );
      const cases: [string, string, RegExp][] = [
        ["503", "status", /503: server error.*robots treat the whole site as closed/],
        [
          "redirect",
          "redirect",
          /redirects \(1 hop\) to http:\/\/127\.0\.0\.1:\d+\/elsewhere\.txt/,
        ],
        ["html", "html", /line 1 opens an HTML page/],
        ["big", "size", /larger than 500 KiB: robots read only the first 500 KiB/],
      ];
      for (const [answer, code, text] of cases) {
        mode = answer;
        await page.click("#diff-live");
        await page.waitForSelector(`#live-health li[data-code="${code}"]`);
        const notes = await health();
        const note = notes.find(([c]) => c === code);
        assert.match(note?.[1] ?? "", text, `${answer}: ${JSON.stringify(notes)}`);
      }
      await page.close();
    } finally {
      await site.close();
    }
  });

  it("reads the site's sitemaps through, an index's children too, and flags the URLs robots.txt blocks for a chosen robot", async () => {
    const urlset = (locs: string[]) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${l}</loc></url>`).join("\n")}\n</urlset>\n`;
    const xml = (body: string) => (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(body);
    };
    let origin = "";
    const site: TestServer = await startServer({
      "/index.xml": (req, res) =>
        xml(
          `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>${origin}/pages.xml</loc></sitemap>\n<sitemap><loc>${origin}/news.xml</loc></sitemap>\n</sitemapindex>\n`,
        )(req, res),
      "/pages.xml": (req, res) =>
        xml(urlset([`${origin}/`, `${origin}/private/a`, `${origin}/about`]))(req, res),
      "/news.xml": (req, res) => xml(urlset([`${origin}/news/1`, `${origin}/private/b`]))(req, res),
    });
    origin = site.origin;
    try {
      const page = await open();
      await fillIn(
        page,
        "#robots",
        `User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /news/\n\nSitemap: ${origin}/index.xml\nSitemap: /relative-sitemap.xml\n`,
      );
      await fillIn(page, "#agent", "Googlebot");
      await fillIn(page, "#urls", `${origin}/`);
      // The access plan lists only the sitemap robots read (lint: bad-sitemap on line 8).
      const plan = await page.locator("#plan-table").innerText();
      assert.match(
        plan,
        new RegExp(`Sitemap\\s+${origin.replace(/[.:/]/g, "\\$&")}/index\\.xml \\(line 7\\)`),
      );
      assert.doesNotMatch(plan, /relative-sitemap/);
      assert.equal(
        await page.locator('#lint-list li[data-line="8"]').getAttribute("data-code"),
        "bad-sitemap",
      );
      await pick(page, "GPTBot");
      await page.click("#nav-more");
      await page.waitForSelector("#view-more:not([hidden])");
      assert.match(
        (await page.locator('#sitemaps li[data-url="/relative-sitemap.xml"]').textContent()) ?? "",
        /robots ignore it: not an absolute http\(s\) URL/,
      );
      assert.equal(await page.locator('button[data-sitemap="/relative-sitemap.xml"]').count(), 0);
      // The index, then one of its children, each opened from the list.
      await page.click(`button[data-sitemap="${origin}/index.xml"]`);
      await page.waitForSelector(`button[data-sitemap="${origin}/news.xml"]`);
      await page.click(`button[data-sitemap="${origin}/news.xml"]`);
      const child = page.locator(`li[data-url="${origin}/news.xml"] > .sitemap-result .counts`);
      await child.waitFor();
      assert.match((await child.textContent()) ?? "", /urlset: 2 URLs, 0 sitemaps/);
      // Read through for GPTBot, then for Googlebot.
      assert.deepEqual(await page.locator("#sitemap-robot option").allTextContents(), [
        "Googlebot",
        "GPTBot",
      ]);
      const flags = async (robot: string) => {
        await page.selectOption("#sitemap-robot", robot);
        await page.click("#sitemaps-all");
        await page.waitForSelector(`#sitemaps-all-status:has-text("blocked for ${robot}")`);
        return {
          status: (await page.locator("#sitemaps-all-status").textContent()) ?? "",
          rows: await page
            .locator("#sitemap-flags tbody tr")
            .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent))),
        };
      };
      const gpt = await flags("GPTBot");
      assert.equal(gpt.status, "Read 3 sitemaps: 5 URLs, 1 blocked for GPTBot.");
      assert.deepEqual(gpt.rows, [[`${origin}/news/1`, "5", `${origin}/news.xml`]]);
      const google = await flags("Googlebot");
      assert.equal(google.status, "Read 3 sitemaps: 5 URLs, 2 blocked for Googlebot.");
      assert.deepEqual(google.rows, [
        [`${origin}/private/a`, "2", `${origin}/pages.xml`],
        [`${origin}/private/b`, "2", `${origin}/news.xml`],
      ]);
      await page.close();
    } finally {
      await site.close();
    }
  });

  it("passes axe-core's checks with every tool open, and the keyboard reaches the robots and tools", async () => {
    const site: TestServer = await startServer({
      "/robots.txt": (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("User-agent: *\nDisallow: /\n");
      },
    });
    try {
      const page = await open();
      await fillIn(page, "#site", site.origin);
      await fillIn(page, "#robots", "User-agent: *\nDisallow: /private/\n");
      await fillIn(page, "#urls", "/\n/private/x");
      await pick(page, "GPTBot", "PerplexityBot");
      await page.click("#permalink-make");
      await page.click("#diff-live");
      await page.waitForSelector("#diff:not([hidden])");
      await page.evaluate(await readFile(AXE, "utf8"));
      const found = (await page.evaluate(
        `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } }).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id + " (" + v.impact + "): " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`,
      )) as string[];
      assert.deepEqual(found, [], found.join("\n"));
      // From the robot field, Tab reaches the first known crawler; Space checks it.
      await page.focus("#agent");
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate("document.activeElement.id"), "crawler-Googlebot");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Space");
      await settled(page);
      assert.deepEqual(
        await page
          .locator("#answers-head-row th.robot")
          .allInnerTexts()
          .then((t) => t.map((x) => x.split("\n")[0])),
        ["Bingbot", "GPTBot", "PerplexityBot"],
      );
      // The tools follow the editor.
      await page.focus("#robots");
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate("document.activeElement.id"), "download");
      await page.close();
    } finally {
      await site.close();
    }
  });
});
