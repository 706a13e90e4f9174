// Makes the screenshots of `heed ui` in docs/: the tester with a REGP file, the answers for
// several robots, the edited file against a local site's live one, the sitemaps read through,
// and the crawl view following a crawl of two local sites, during it and at its end. Run after
// `npm run build`:
//   node scripts/screenshots.mjs
// Needs Chromium at /usr/bin/chromium (scripts/setup.mjs installs it). Everything it serves
// and crawls is on 127.0.0.1.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { startUiServer } = await import(join(root, "dist/src/web/server.js"));
const BIN = join(root, "dist/src/cli/bin.js");

const REGP = `Robot-version: 3.0
Last-modified: 24 Nov 2026 08:00:00 UT

User-agent: *
Ip-disallow: 192.0.2.*
Disallow: /private/
Allow: /private/press/
Crawl-delay: 1.5
Request-rate: 30/1m
Visit-time: 01:00 UT-05:00 UT
Language: en, fr
Cookie: session=robot
{
  Allow: /news/
  Crawl-delay: 0.5
}

User-agent: archiver
Disallow: /
Disalow: /tmp/

Sitemap: https://news.example/sitemap.xml
`;

const GRID = `# Search engines everywhere but drafts; AI training nowhere; AI answers on the blog.
User-agent: *
Disallow: /drafts/
Disallow: /search
Content-Usage: train-ai=n

User-agent: GPTBot
User-agent: Google-Extended
User-agent: ClaudeBot
Disallow: /

User-agent: PerplexityBot
Allow: /blog/
Disallow: /
`;

/** Waits until the tester has answered everything asked. */
function settled(page) {
  return page.waitForSelector("body:not([data-answering])", { state: "attached" });
}

/** A small site: pages linking on, a 404 now and then, robots.txt with a gap to keep. */
function startSite(name, pages, robots) {
  const origin = () => `http://127.0.0.1:${server.address().port}`;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(robots);
      return;
    }
    if (path === "/sitemap.xml") {
      const urls = [0, 1, 2, 3].map((n) => `<url><loc>${origin()}/p${n}.html</loc></url>`);
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n<url><loc>${origin()}/private/p9.html</loc><changefreq>sometimes</changefreq></url>\n</urlset>\n`,
      );
      return;
    }
    if (path === "/data.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(
        "- path: /data/stations.csv\n  name: stations\n  license: CC-BY-4.0\n- path: /private/raw.csv\n  name: raw readings\n",
      );
      return;
    }
    const match = /^\/(?:p(\d+)\.html)?$/.exec(path);
    const n = match === null ? -1 : Number(match[1] ?? 0);
    if (n < 0 || n >= pages || n % 7 === 6) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    const links = [1, 2, 3].map((k) => `<a href="/p${(n * 3 + k) % (pages + 2)}.html">p</a>`);
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html><head><title>${name} ${n}</title></head><body>${links.join(" ")}</body></html>`);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

const temp = await mkdtemp(join(tmpdir(), "heed-shots-"));
const store = join(temp, "crawl.db");
const ui = await startUiServer({ port: 0, store, feedIntervalMs: 250 });
const a = await startSite(
  "a",
  24,
  "User-agent: *\nCrawl-delay: 0.15\nDisallow: /private/\n\nMobile-agent-server: /p1 atp://agents.example:831\n",
);
const b = await startSite("b", 14, "User-agent: *\nCrawl-delay: 0.3\n");
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1360, height: 1100 } });
  await page.goto(`${ui.url}#tester`);
  await page.waitForSelector("body[data-ready]");
  await page.fill("#robots", REGP);
  await page.fill("#agent", "NewsBot/2.1 (+https://bot.example)");
  await page.fill(
    "#urls",
    [
      "https://news.example/news/today.html",
      "https://news.example/private/report.pdf",
      "https://news.example/private/press/release.html",
    ].join("\n"),
  );
  await page.fill("#ip", "198.51.100.4");
  await page.fill("#at", "2026-11-24T03:30:00Z");
  await page.fill("#languages", "en");
  await page.locator('#answers-body tr[data-row="1"] button').click();
  await page.$eval("#robots", (t) => {
    t.scrollTop = 0;
    t.dispatchEvent(new Event("scroll"));
  });
  await page.locator("#site").focus();
  await settled(page);
  await page.screenshot({ path: join(root, "docs/ui-tester.png"), fullPage: true });

  // Several robots at once: the search engines' and the AI crawlers', with usage preferences.
  await page.selectOption("#dialect", "rfc9309");
  await page.fill("#robots", GRID);
  await page.fill("#agent", "Googlebot");
  await page.fill(
    "#urls",
    ["/", "/blog/robots-and-ai.html", "/members/profile", "/search?q=robots", "/drafts/next.html"]
      .map((p) => `https://news.example${p}`)
      .join("\n"),
  );
  for (const robot of ["Bingbot", "GPTBot", "Google-Extended", "ClaudeBot", "PerplexityBot"])
    await page.check(`#crawlers input[value="${robot}"]`);
  await settled(page);
  await page.locator("#h-answers").scrollIntoViewIfNeeded();
  await page.locator("#answers").screenshot({ path: join(root, "docs/ui-grid.png") });

  const crawl = spawn(
    process.execPath,
    [
      BIN,
      "crawl",
      `${a.origin}/`,
      `${a.origin}/private/x.html`,
      `${b.origin}/`,
      "--agent",
      "HeedShots",
      "--store",
      store,
    ],
    { stdio: "ignore" },
  );
  const crawled = new Promise((r) => crawl.once("close", r));
  await page.goto(`${ui.url}#crawl`);
  await page.waitForSelector('#view-crawl[data-state="running"]', { timeout: 60_000 });
  // Mid-crawl: hosts waiting out their gaps, the charts growing.
  await page.waitForFunction(
    // Runs in the page.
    () =>
      Number(globalThis.document.querySelector('[data-count="requests"] .n')?.textContent ?? 0) >=
      12,
    undefined,
    { timeout: 60_000 },
  );
  await page.screenshot({ path: join(root, "docs/ui-crawl-live.png") });
  await page.waitForSelector('#view-crawl[data-state="finished"]', { timeout: 120_000 });
  await crawled;
  await page.screenshot({ path: join(root, "docs/ui-crawl.png"), fullPage: true });

  // The other records: the site's sitemap read, an agent host resolved, its /data.txt.
  await page.goto(`${ui.url}#tester`);
  await page.waitForSelector("body[data-ready]");
  await page.fill("#site", a.origin);
  await page.fill("#agent", "HeedShots");
  await page.click("#fetch");
  await page.waitForSelector('#fetch-status[data-action="parse"]');
  await page.fill(
    "#robots",
    `${await page.inputValue("#robots")}Sitemap: ${a.origin}/sitemap.xml\n`,
  );
  await page.fill("#urls", [0, 1, 2, 3].map((n) => `${a.origin}/p${n}.html`).join("\n"));
  await page.check('#crawlers input[value="GPTBot"]');
  await settled(page);
  await page.click("#nav-more");
  await page.click("button[data-sitemap]");
  await page.waitForSelector(".sitemap-result .counts");
  await page.click(".sitemap-result summary");
  await page.fill("#agent-url", `${a.origin}/p12.html`);
  await page.click("#data-fetch");
  await page.waitForSelector("#data-body tr");
  await page.selectOption("#sitemap-robot", "HeedShots");
  await page.click("#sitemaps-all");
  await page.waitForSelector('#sitemaps-all-status:has-text("blocked for")');
  await page.screenshot({ path: join(root, "docs/ui-more.png"), fullPage: true });

  // The edit against the live file: GPTBot closed out, p1 kept from every robot.
  await page.click("#nav-tester");
  await page.fill(
    "#robots",
    `User-agent: *\nCrawl-delay: 0.15\nDisallow: /private/\nDisallow: /p1.html\n\nUser-agent: GPTBot\nDisallow: /\n\nMobile-agent-server: /p1 atp://agents.example:831\n`,
  );
  await settled(page);
  await page.click("#diff-live");
  await page.waitForSelector("#diff:not([hidden])");
  await page.locator("#diff").screenshot({ path: join(root, "docs/ui-diff.png") });
  console.log(
    "wrote docs/ui-tester.png, docs/ui-grid.png, docs/ui-diff.png, docs/ui-crawl-live.png, docs/ui-crawl.png and docs/ui-more.png",
  );
} finally {
  await browser.close();
  await ui.close();
  await a.close();
  await b.close();
  await rm(temp, { recursive: true, force: true });
}
