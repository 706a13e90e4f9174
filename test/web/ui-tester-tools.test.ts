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
import { MAX_PERMALINK_CHARS, MAX_STATE_BYTES } from "../../src/web/client/permalink.js";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
/** One frame at 60 Hz: what a keystroke's own handling may cost the main thread. */
const FRAME_MS = 16;

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

  /** The compared robots' cells of row `i`. */
  const robotCells = (page: Page, i: number) =>
    page.locator(`#answers-body tr[data-row="${i}"] td.robot`).allTextContents();

  it("answers only what changed: a keystroke re-answers one robot's column, in slices, the handler within a frame", async (t) => {
    const page = await open();
    await setValue(page, "robots", UI_ROBOTS_TXT);
    await setValue(page, "agent", UI_ROBOTS[0]);
    await setValue(page, "urls", urlsFor(1000).join("\n"));
    await settled(page);
    await pick(page, ...UI_ROBOTS.slice(1));
    assert.equal(await page.locator("#answers-body tr").count(), 1000);
    assert.deepEqual(
      await page.locator("#answers-head-row th.robot").evaluateAll((ths) =>
        ths.map((th) => th.getAttribute("data-robot")),
      ),
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
    for (const cost of costs) assert.ok(cost.handlerMs < FRAME_MS, `handler ${cost.handlerMs} ms`);
    t.diagnostic(
      `per keystroke, 1,000 URLs × 5 robots: ${costs.map((c) => `handler ${c.handlerMs.toFixed(1)} ms, longest task ${c.longestMs.toFixed(1)} ms, script ${c.scriptMs.toFixed(1)} ms`).join("; ")}`,
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
    const text = UI_ROBOTS_TXT.replace("User-agent: CCBot\nDisallow: /", "User-agent: CCBot\nDisallow: /p/");
    await setValue(page, "robots", text);
    await settled(page);
    assert.equal(await answered(page), before + 3 * 1000);
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
});
