// `heed report` and `heed export` as users run them: a real crawl of two local sites (with
// Crawl-delay 0.1, a disallowed page and a missing one) into an SQLite store, then the built
// CLI in a child process. The sites' own request logs are the truth the numbers are checked
// against; the HTML report is opened in real headless Chromium, read, and photographed.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import type { Browser } from "playwright-core";
import { CHROMIUM, launchChromium } from "../../bench/ui-keystrokes.js";
import { EXPORT_FIELDS, csvField, csvRow } from "../../src/cli/commands/export.js";
import type { CrawlReport } from "../../src/crawler/report.js";
import { openStore } from "../../src/store/index.js";
import type { CrawlRecord } from "../../src/store/types.js";
import { TOLERANCE_MS, runCrawl, tempDir } from "../helpers/crawl-harness.js";
import { jsonLines, runCli, spawnCli } from "../helpers/run-cli.js";
import { type LoggedRequest, type Site, startSite } from "../helpers/synthetic-site.js";

const SUITE = { timeout: 120_000 };
const DELAY_MS = 100;

/** A request of the report's kind: it has a status, or it failed with no answer. */
const isRequest = (r: CrawlRecord) => r.status !== null || r.outcome === "error";
/** Paths the sites answer 404: the missing page linked, and the sitemap they do not have. */
const notFound = (path: string) => path === "/missing.html" || path === "/sitemap.xml";
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  assert.equal(field, "", "the last row ends with CRLF");
  return rows;
}

describe("heed report and heed export after a real crawl", SUITE, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let storePath: string;
  let sites: Site[];
  /** Each site's requests, robots.txt included, as the site logged them. */
  let served: Map<string, LoggedRequest[]>;

  before(async () => {
    temp = await tempDir("heed-cli-report-");
    storePath = join(temp.dir, "crawl.db");
    sites = [
      await startSite({
        pages: 12,
        robots: "User-agent: *\nCrawl-delay: 0.1\nDisallow: /page/5.html\n",
        extraLinks: ["/missing.html"],
      }),
      await startSite({ pages: 7, links: 3, robots: "User-agent: *\nCrawl-delay: 0.1\n" }),
    ];
    await runCrawl(
      sites.map((s) => `${s.origin}/`),
      { storePath, limitMs: 60_000 },
    );
    served = new Map(sites.map((s) => [s.origin, [...s.log]] as const));
  });

  after(async () => {
    for (const site of sites ?? []) await site.close();
    await temp?.cleanup();
  });

  /** The records of `heed export --format jsonl`. */
  async function exported(): Promise<CrawlRecord[]> {
    const result = await runCli(["export", "--store", storePath, "--format", "jsonl"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    return jsonLines(result.stdout) as unknown as CrawlRecord[];
  }

  /**
   * What each site served that the crawl log should have: every request, robots.txt and
   * sitemaps included (the log keeps every request heed makes to a site).
   */
  function servedLogged(records: readonly CrawlRecord[], origin: string): LoggedRequest[] {
    const logged = new Set(records.filter(isRequest).map((r) => pathOf(r.url)));
    return (served.get(origin) ?? []).filter(
      (r) => r.path !== "/sitemap.xml" || logged.has(r.path),
    );
  }

  it("export --format jsonl: the requests of each site, path by path and in order, as the site logged them", async () => {
    const records = await exported();
    assert.ok(records.length > 0);
    for (const site of sites) {
      const mine = records.filter((r) => r.origin === site.origin && isRequest(r));
      const server = servedLogged(records, site.origin);
      assert.ok(server.length >= 7, `${site.origin} served ${server.length}`);
      assert.deepEqual(
        mine.map((r) => pathOf(r.url)),
        server.map((r) => r.path),
        `${site.origin}: the log's requests are the site's, in its order`,
      );
      // Each request started before the site saw it, and within the crawl.
      mine.forEach((r, i) => {
        const arrival = server[i]?.at ?? NaN;
        assert.ok(r.at <= arrival + TOLERANCE_MS, `${r.url} at ${r.at}, arrived ${arrival}`);
        assert.ok(arrival <= r.at + r.ms + TOLERANCE_MS, `${r.url} took ${r.ms} ms`);
      });
      for (const r of mine) {
        const expected = notFound(pathOf(r.url)) ? 404 : 200;
        assert.equal(r.status, expected, r.url);
      }
    }
    // The first site's disallowed page was never asked for.
    const first = sites[0]?.origin ?? "";
    assert.ok(!served.get(first)?.some((r) => r.path === "/page/5.html"));
    for (const r of records.filter((r) => r.url === `${first}/page/5.html`))
      assert.equal(r.outcome, "disallowed");
    // Every field of every record, in the order of the export's fields.
    for (const r of records) assert.deepEqual(Object.keys(r), [...EXPORT_FIELDS]);
  });

  it("report --json: requests, statuses and times per host match the sites' logs", async () => {
    const records = await exported();
    const result = await runCli(["report", "--store", storePath, "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const lines = jsonLines(result.stdout);
    assert.equal(lines.length, 1);
    const report = lines[0] as unknown as CrawlReport & { store: string };
    assert.equal(report.store, storePath);
    assert.deepEqual(report.origins.map((o) => o.origin).sort(), sites.map((s) => s.origin).sort());
    assert.equal(report.overall.records, records.length);
    let total = 0;
    for (const site of sites) {
      const server = servedLogged(records, site.origin);
      const o = report.origins.find((x) => x.origin === site.origin);
      assert.ok(o, site.origin);
      assert.equal(o.requests, server.length, `${site.origin}: requests`);
      total += server.length;
      const missing = server.filter((r) => notFound(r.path)).length;
      const statuses = Object.fromEntries(o.byStatus.map((s) => [String(s.key), s.count]));
      assert.deepEqual(
        statuses,
        missing > 0 ? { 200: server.length - missing, 404: missing } : { 200: server.length },
        site.origin,
      );
      assert.equal(o.byStatusClass["2xx"], server.length - missing);
      assert.equal(o.byStatusClass["4xx"], missing);
      assert.equal(o.errors.count, 0);
      assert.equal(
        o.timeline.reduce((s, n) => s + n, 0),
        server.length,
        "every request in the timeline",
      );
      // The crawl log's times bracket the site's: the first request started before it arrived,
      // the last ended after.
      const first = server[0]?.at ?? NaN;
      const last = server[server.length - 1]?.at ?? NaN;
      assert.ok((o.firstAt ?? Infinity) <= first + TOLERANCE_MS, "first request");
      assert.ok((o.lastAt ?? -Infinity) >= last - TOLERANCE_MS, "last request");
      // Crawl-delay 0.1: no gap below it, by the report and by the site's own log.
      assert.equal(o.gaps.belowRequired, 0, `${site.origin}: gaps below required`);
      // Every request but the first has a gap; the crawler may give the first one too.
      assert.ok(o.gaps.count >= server.length - 1 && o.gaps.count <= server.length);
      assert.ok((o.gaps.minMs ?? 0) >= DELAY_MS - TOLERANCE_MS, `min gap ${o.gaps.minMs}`);
      for (let i = 1; i < server.length; i++) {
        const gap = (server[i]?.at ?? 0) - (server[i - 1]?.at ?? 0);
        assert.ok(gap >= DELAY_MS - TOLERANCE_MS, `the site saw a gap of ${gap} ms`);
      }
    }
    assert.equal(report.overall.requests, total);
    assert.equal(
      report.overall.byStatusClass["4xx"],
      [...served.values()].flat().filter((r) => notFound(r.path)).length,
    );
  });

  it("report (text): a table per aspect, hosts down and the total last", async () => {
    const result = await runCli(["report", "--store", storePath]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    const lines = result.stdout.split("\n");
    assert.equal(lines[0], `heed report: ${storePath}`);
    assert.match(lines[1] ?? "", /^2 hosts, \d+ records, \d+ requests, /);
    for (const head of ["host ", "gaps kept ", "outcomes ", "statuses "]) {
      const at = lines.findIndex((l) => l.startsWith(head));
      assert.ok(at > 0, head);
      const rows = lines.slice(at + 1, at + 4).map((l) => l.split(/\s{2,}/)[0]);
      assert.deepEqual(rows.slice(0, 2).sort(), sites.map((s) => s.origin).sort(), head);
      assert.equal(rows[2], "all hosts", head);
    }
    const total = lines.find((l) => l.startsWith("all hosts"));
    const records = await exported();
    const requests = sites.reduce((n, site) => n + servedLogged(records, site.origin).length, 0);
    assert.equal(total?.split(/\s+/)[2], String(requests));
  });

  it("report and export name the broken link and every page that led to it", async () => {
    const records = await exported();
    const [first] = sites;
    assert.ok(first !== undefined);
    const missing = `${first.origin}/missing.html`;
    // Every page links to /missing.html; the page that queued it first is its referrer.
    const record = records.find((r) => r.url === missing);
    assert.equal(record?.status, 404);
    assert.match(String(record?.referrer), new RegExp(`^${first.origin}/`));
    const seed = records.find((r) => r.url === `${first.origin}/`);
    assert.equal(seed?.referrer, null, "a seed has no referrer");
    const page = records.find((r) => r.url === `${first.origin}/page/1.html`);
    assert.equal(page?.referrer, `${first.origin}/`);

    const text = await runCli(["report", "--store", storePath]);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.split("\n");
    const head = lines.findIndex((l) => l.startsWith("broken links"));
    assert.ok(head >= 0, text.stdout);
    assert.match(lines[head] ?? "", /^broken links\s+status\s+linked from$/);
    const rows = lines.slice(head + 1).filter((l) => l.startsWith("http"));
    // The sitemap the sites do not have is no link anyone followed: not listed.
    assert.deepEqual(
      rows.map((l) => l.split(/\s{2,}/).slice(0, 2)),
      [[missing, "404"]],
    );
    assert.ok(rows[0]?.includes(String(record?.referrer)), rows[0]);

    const html = join(temp.dir, "broken.html");
    const result = await runCli(["report", "--store", storePath, "--html", html]);
    assert.equal(result.code, 0, result.stderr);
    const page_ = await readFile(html, "utf8");
    assert.match(page_, /<table id="broken">[\s\S]*missing\.html[\s\S]*404/);
    assert.match(page_, /<table id="refusals">[\s\S]*Disallow: \/page\/5\.html/);
  });

  it("export --format csv --out FILE: a header, CRLF rows, the same records as jsonl", async () => {
    const records = await exported();
    const out = join(temp.dir, "export.csv");
    const result = await runCli(["export", "--store", storePath, "--format", "csv", "--out", out]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "");
    const text = await readFile(out, "utf8");
    const rows = parseCsv(text);
    assert.deepEqual(rows[0], [...EXPORT_FIELDS]);
    assert.equal(rows.length, records.length + 1);
    rows.slice(1).forEach((row, i) => {
      const record = records[i] as unknown as Record<string, string | number | null>;
      assert.deepEqual(
        row,
        EXPORT_FIELDS.map((f) => (record[f] === null ? "" : String(record[f]))),
      );
    });
  });

  it("report --html FILE: in Chromium, one series per host, tables with the sites' totals; a screenshot", async (t) => {
    assert.ok(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing: apt-get install -y chromium (scripts/setup.mjs does, as root)`,
    );
    const records = await exported();
    const html = join(temp.dir, "report.html");
    const result = await runCli(["report", "--store", storePath, "--html", html]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, `heed report: wrote ${html}\n`);
    const browser: Browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const outside: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith("file://")) outside.push(request.url());
      });
      await page.goto(`file://${html}`);
      assert.equal(await page.title(), "heed crawl report");

      // The chart: one series per host, each a drawn path, named in the legend.
      const series = page.locator("svg#chart g.series");
      assert.equal(await series.count(), sites.length);
      const origins = await series.evaluateAll((gs) =>
        gs.map((g) => g.getAttribute("data-origin")),
      );
      assert.deepEqual([...origins].sort(), sites.map((s) => s.origin).sort());
      for (let i = 0; i < sites.length; i++) {
        const box = await series.nth(i).locator("path").boundingBox();
        assert.ok(box !== null && box.width > 500, `series ${i} is drawn across the chart`);
        const requests = Number(await series.nth(i).getAttribute("data-requests"));
        assert.equal(requests, servedLogged(records, origins[i] ?? "").length);
      }
      assert.equal(await page.locator(".legend li").count(), sites.length);
      assert.equal(await page.locator("svg#rate g.series").count(), sites.length);
      assert.ok((await page.locator("svg#chart text.tick").count()) >= 4, "axes have ticks");

      // The hosts table: each host's requests and the total, as the sites logged them.
      const cells = (row: string) =>
        page
          .locator(`#hosts ${row}`)
          .evaluateAll((rows) =>
            rows.map((r) => [...r.children].map((c) => (c.textContent ?? "").trim())),
          );
      const head = (await cells("thead tr"))[0] ?? [];
      const col = (name: string) => head.indexOf(name);
      const body = await cells("tbody tr");
      assert.equal(body.length, sites.length);
      let total = 0;
      for (const row of body) {
        const origin = row[0] ?? "";
        const requests = servedLogged(records, origin).length;
        assert.equal(row[col("requests")], String(requests), origin);
        const missing = servedLogged(records, origin).filter((r) => notFound(r.path)).length;
        assert.equal(row[col("4xx")], String(missing), origin);
        assert.equal(row[col("2xx")], String(requests - missing), origin);
        total += requests;
      }
      const foot = (await cells("tfoot tr"))[0] ?? [];
      assert.equal(foot[0], "all hosts");
      assert.equal(foot[col("requests")], String(total));
      assert.equal(foot[col("errors")], "0");
      assert.equal(await page.locator('[data-card="requests"] dd').textContent(), String(total));
      assert.equal(
        await page
          .locator('[data-card="gaps below required"] dd')
          .textContent()
          .then((s) => s?.startsWith("0")),
        true,
      );
      const gapsFoot = (
        await page
          .locator("#gaps tfoot tr")
          .evaluateAll((rows) =>
            rows.map((r) => [...r.children].map((c) => (c.textContent ?? "").trim())),
          )
      )[0];
      assert.equal(gapsFoot?.[8], "0", "no gap below the required one");

      assert.deepEqual(outside, [], "the page asks for nothing outside itself");
      const dir = process.env.HEED_SCREENSHOTS ?? temp.dir;
      const shot = join(dir, "heed-report.png");
      const png = await page.screenshot({ path: shot, fullPage: true });
      assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
      assert.ok(png.length > 20_000, `a screenshot of ${png.length} bytes`);
      t.diagnostic(`screenshot: ${shot}`);
    } finally {
      await browser.close();
    }
  });
});

describe("heed report and heed export: bad input", SUITE, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    temp = await tempDir("heed-cli-report-bad-");
  });
  after(async () => {
    await temp.cleanup();
  });

  it("no store at the default ./heed-crawl.db: exit 2, a message, and no file made", async () => {
    for (const args of [["report"], ["report", "--json"], ["export", "--format", "jsonl"]]) {
      const result = await runCli(args, { cwd: temp.dir });
      assert.equal(result.code, 2, args.join(" "));
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^heed: no crawl store at \.\/heed-crawl\.db/);
      assert.ok(!existsSync(join(temp.dir, "heed-crawl.db")), "no store was made");
    }
  });

  it("a file that is not a store: exit 2", async () => {
    const result = await runCli(["report", "--store", "/etc/hostname"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^heed: cannot open the store \/etc\/hostname/);
  });

  it("export without --format writes JSON lines; another format: exit 2, nothing read", async () => {
    const none = await runCli(["export", "--store", "missing.db"], { cwd: temp.dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /missing\.db/);
    const xml = await runCli(["export", "--format", "xml"], { cwd: temp.dir });
    assert.equal(xml.code, 2);
    assert.match(xml.stderr, /jsonl, csv/);
  });

  it("export | head: a reader that goes away ends the export quietly, exit 0", async () => {
    const path = join(temp.dir, "big.db");
    const store = await openStore(path);
    await store.close();
    const raw = new Database(path);
    const insert = raw.prepare(
      "INSERT INTO crawl_log (url, origin, at, ms, status, bytes, outcome, detail) VALUES (?, 'https://a.example', ?, 5, 200, 100, 'fetched', NULL)",
    );
    raw.transaction(() => {
      for (let i = 0; i < 200_000; i++) insert.run(`https://a.example/${i}`, i);
    })();
    raw.close();
    const running = spawnCli(["export", "--store", path, "--format", "jsonl"]);
    running.child.stdout.once("data", () => running.child.stdout.destroy());
    const { code, signal, stderr } = await running.done;
    assert.equal(signal, null);
    assert.equal(stderr, "");
    assert.equal(code, 0);
  });

  it("--help describes every option", async () => {
    const report = await runCli(["report", "--help"]);
    assert.equal(report.code, 0);
    for (const option of ["--store <path>", "--json", "--html <file>", "./heed-crawl.db"])
      assert.ok(report.stdout.includes(option), option);
    const exp = await runCli(["export", "--help"]);
    assert.equal(exp.code, 0);
    for (const option of ["--store <path>", "--format <format>", "jsonl", "csv", "--out <file>"])
      assert.ok(exp.stdout.includes(option), option);
    // Every field a record has is named, the referrer among them.
    for (const field of EXPORT_FIELDS) assert.ok(exp.stdout.includes(field), field);
    const top = await runCli(["--help"]);
    assert.match(top.stdout, /\n {2}report \[options\]/);
    assert.match(top.stdout, /\n {2}export \[options\]/);
  });
});

describe("CSV fields (RFC 4180 §2)", () => {
  const table: [string | number | null, string][] = [
    [null, ""],
    ["", '""'],
    [200, "200"],
    ["https://a.example/p?x=1", "https://a.example/p?x=1"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["line\nbreak", '"line\nbreak"'],
    ["cr\rlf", '"cr\rlf"'],
    [" padded", '" padded"'],
  ];
  for (const [value, expected] of table) {
    it(`${JSON.stringify(value)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(csvField(value), expected);
    });
  }
  it("a row reads back as it was", () => {
    const values = ["a,b", 'q"', null, "", "x\r\ny", 7];
    assert.deepEqual(parseCsv(`${csvRow(values)}\r\n`), [["a,b", 'q"', "", "", "x\r\ny", "7"]]);
  });
});
