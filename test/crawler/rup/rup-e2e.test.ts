// RUP end to end (seeds/001 §3): a site directory changed by the test, heed's site server on
// 127.0.0.1 mailing reports over real SMTP into heed's robot inbox, a report dropped on the
// way and recovered (GetIndex, else a full re-crawl: §3.3.3), and both sides restarted without
// loss. Only the report schedule's clock is injected (the same one on both sides).
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, it } from "node:test";
import { type Inbox, startInbox } from "../../../src/crawler/rup/inbox.js";
import { overdueAfterMs } from "../../../src/crawler/rup/report-intake.js";
import { register } from "../../../src/crawler/rup/robot.js";
import { SqliteRobotState } from "../../../src/crawler/rup/robot-state.js";
import { createHttpClient, type HttpClient } from "../../../src/net/http-client.js";
import { type Latency, signingSecret, signReport } from "../../../src/protocol/rup/index.js";
import { type MailTransport, parseSmtpUrl, smtpTransport } from "../../../src/site/rup/mailer.js";
import { startSiteServer, type SiteServer } from "../../../src/site/site-server.js";
import { openSqliteStore } from "../../../src/store/index.js";
import { QUEUED } from "../../../src/store/sqlite/schema.js";
import type { CrawlStore } from "../../../src/store/types.js";
import { runCli } from "../../helpers/run-cli.js";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink.js";
import { until } from "../../helpers/until.js";

const DAY = 86_400_000;

class World {
  clock = { t: Date.UTC(2026, 10, 21, 8, 0, 0) };
  site!: SiteServer;
  sitePort = 0;
  inbox: Inbox | null = null;
  inboxPort = 0;
  robot!: SqliteRobotState;
  store!: CrawlStore;
  client!: HttpClient;
  blackhole!: SmtpSink;
  /** Requests the site answered, as `METHOD /path STATUS`. */
  requests: string[] = [];

  constructor(
    readonly dir: string,
    readonly tmp: string,
    readonly maxQuerySpan: Latency,
  ) {}

  get now(): () => number {
    return () => this.clock.t;
  }

  async startSite(transport: "inbox" | "blackhole"): Promise<void> {
    const url = transport === "inbox" ? `smtp://127.0.0.1:${this.inboxPort}` : this.blackhole.url;
    const target = parseSmtpUrl(url);
    assert.ok(target);
    const mail: MailTransport = smtpTransport(target);
    this.site = await startSiteServer({
      root: this.dir,
      port: this.sitePort,
      onRequest: (e) => this.requests.push(`${e.method} ${e.path} ${e.status}`),
      rup: {
        statePath: join(this.tmp, "site.db"),
        transport: mail,
        from: "rup@site.test",
        now: this.now,
        latencies: ["day", "week"],
        maxQuerySpan: this.maxQuerySpan,
        tickMs: 0,
        scanIntervalMs: 0,
      },
    });
    this.sitePort = Number(new URL(this.site.url).port);
  }

  async startRobot(): Promise<void> {
    const path = join(this.tmp, "crawl.db");
    this.robot = SqliteRobotState.open(path);
    this.store = await openSqliteStore(path);
    this.client = createHttpClient({ userAgent: "heedtest/1.0", allowPrivateAddresses: true });
    this.inbox = await startInbox({
      host: "127.0.0.1",
      port: this.inboxPort,
      state: this.robot,
      store: this.store,
      client: this.client,
      now: this.now,
      checkEveryMs: 0,
    });
    this.inboxPort = this.inbox.port;
  }

  async stopRobot(): Promise<void> {
    await this.inbox?.close();
    this.inbox = null;
    await this.client.close();
    await this.store.close();
    await this.robot.close();
  }

  /** A day passes: the site's log is brought up to date and its schedule runs once. */
  async nextDay() {
    await this.site.rup?.log.rescan();
    this.clock.t += DAY;
    const r = await this.site.rup?.tick();
    assert.ok(r);
    return r;
  }

  queued(): string[] {
    const db = new Database(join(this.tmp, "crawl.db"), { readonly: true });
    try {
      return db
        .prepare<[number], { url: string }>("SELECT url FROM urls WHERE state = ? ORDER BY url")
        .all(QUEUED)
        .map((r) => new URL(r.url).pathname);
    } finally {
      db.close();
    }
  }

  async gone(): Promise<string[]> {
    return (await this.robot.gone(new URL(this.site.url).origin)).map((u) => new URL(u).pathname);
  }

  /** The robot's registration key with the site. */
  async key(): Promise<string> {
    const site = await this.robot.site(new URL(this.site.url).origin);
    assert.ok(site);
    return site.key;
  }

  async outcomes(): Promise<string[]> {
    return (await this.robot.reports(new URL(this.site.url).origin)).map(
      (r) => `${r.seq} ${r.outcome}`,
    );
  }
}

async function world(maxQuerySpan: Latency): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), "heed-rup-e2e-site-"));
  const tmp = await mkdtemp(join(tmpdir(), "heed-rup-e2e-"));
  await writeFile(join(dir, "index.html"), "home");
  await writeFile(join(dir, "old.html"), "old");
  await writeFile(join(dir, "robots.txt"), "User-agent: *\nDisallow: /private/\n");
  const w = new World(dir, tmp, maxQuerySpan);
  w.blackhole = await startSmtpSink();
  await w.startRobot();
  await w.startSite("inbox");
  await register({ client: w.client, state: w.robot, now: w.now }, w.site.url, "robot@robot.test", {
    latency: { count: 1, unit: "day" },
  });
  return w;
}

/** One message over a real SMTP conversation; rejects with the server's refusal. */
async function sendMail(port: number, text: string, key?: string): Promise<void> {
  const mail = smtpTransport({ host: "127.0.0.1", port, secure: false });
  try {
    await mail.send({
      from: "rup@site.test",
      to: "robot@robot.test",
      subject: "report",
      text,
      // Signed as the site signs (a report the site sent again), when the key is given.
      headers: key === undefined ? {} : { "X-RUP-Signature": signReport(text, signingSecret(key)) },
    });
  } finally {
    mail.close();
  }
}

describe("RUP end to end", () => {
  let w: World;
  afterEach(async () => {
    await w.site.close();
    await w.stopRobot();
    await w.blackhole.close();
    await rm(w.dir, { recursive: true, force: true });
    await rm(w.tmp, { recursive: true, force: true });
  });

  describe("with a log kept a week", () => {
    beforeEach(async () => {
      w = await world({ count: 1, unit: "week" });
    });

    it("reports, a dropped report recovered with GetIndex, restarts of both sides, a refused delivery retried", async () => {
      // Day 1: create, modify, delete, a mkdir -p tree, a path robots.txt forbids.
      await writeFile(join(w.dir, "new.html"), "new");
      await writeFile(join(w.dir, "index.html"), "home, changed");
      await unlink(join(w.dir, "old.html"));
      await mkdir(join(w.dir, "a", "b", "c"), { recursive: true });
      await writeFile(join(w.dir, "a", "b", "c", "deep.html"), "deep");
      await mkdir(join(w.dir, "private"));
      await writeFile(join(w.dir, "private", "secret.html"), "secret");
      const day1 = await w.nextDay();
      assert.equal(day1.sent, 1);
      assert.deepEqual(await w.outcomes(), ["1 applied"]);
      assert.deepEqual(w.queued(), ["/a/b/c/deep.html", "/index.html", "/new.html"]);
      assert.deepEqual(await w.gone(), ["/old.html"]);

      // heed crawl --queued fetches exactly the pages the report named, besides the robots.txt
      // of any site it visits: no sitemap, no link followed (those only with --follow).
      w.requests = [];
      const crawled = await runCli(
        [
          "crawl",
          "--queued",
          "--store",
          join(w.tmp, "crawl.db"),
          "--agent",
          "heedtest",
          "--allow-private",
          "--json",
        ],
        { timeoutMs: 60_000 },
      );
      assert.equal(crawled.code, 0, crawled.stderr);
      // The site logs an answer once it has left, which may be after the crawler has it.
      await until(() => w.requests.length >= 5, "the site's log of the crawl", 5_000).catch(
        () => {},
      );
      assert.deepEqual(
        w.requests.filter((r) => r.startsWith("GET")).sort(),
        [
          "GET /a/b/c/deep.html 200",
          "GET /index.html 200",
          "GET /new.html 200",
          "GET /robots.txt 200",
        ],
        `${crawled.stdout} ${w.requests.join("; ")}`,
      );
      assert.deepEqual(w.queued(), []);

      // Day 2: report 2 goes into a mail server that accepts it and loses it.
      await w.site.close();
      await w.startSite("blackhole");
      await writeFile(join(w.dir, "lost-news.html"), "only in the lost report");
      const day2 = await w.nextDay();
      assert.equal(day2.sent, 1);
      assert.equal(w.blackhole.mails.length, 1);
      assert.deepEqual(await w.outcomes(), ["1 applied"]);

      // Both sides stop; files change while the site is down; both start again.
      await w.site.close();
      await w.stopRobot();
      await writeFile(join(w.dir, "while-down.html"), "made while the server was stopped");
      await unlink(join(w.dir, "new.html"));
      await w.startRobot();
      await w.startSite("inbox");

      // Day 3: report 3 arrives; 2 is missing: the robot recovers it with GetIndex.
      const day3 = await w.nextDay();
      assert.equal(day3.sent, 1);
      assert.deepEqual(await w.outcomes(), ["1 applied", "3 recovered"]);
      const detail = (await w.robot.reports(new URL(w.site.url).origin))[1]?.detail ?? "";
      assert.match(detail, /report 2 lost; recovered with GetIndex Span=3-day/);
      assert.ok(w.queued().includes("/lost-news.html"), "the lost report's change is queued");
      assert.ok(w.queued().includes("/while-down.html"));
      assert.deepEqual(await w.gone(), ["/new.html", "/old.html"]);

      // Day 4: the inbox is down when the report is sent; the site keeps it and sends it later.
      await w.stopRobot();
      await writeFile(join(w.dir, "later.html"), "later");
      const day4 = await w.nextDay();
      assert.equal(day4.failed, 1);
      assert.equal(w.site.rup?.state.outbox().length, 1);
      await w.startRobot();
      w.clock.t += 60_000;
      const retry = await w.site.rup?.tick();
      assert.equal(retry?.sent, 1);
      assert.deepEqual(await w.outcomes(), ["1 applied", "3 recovered", "4 applied"]);
      assert.ok(w.queued().includes("/later.html"));

      // An old report that comes again (a site resending after a lost acknowledgement) is
      // recorded as a duplicate and changes nothing.
      const before = w.queued();
      await sendMail(w.inboxPort, w.blackhole.mails[0]?.text ?? "", await w.key());
      assert.deepEqual(await w.outcomes(), [
        "1 applied",
        "3 recovered",
        "4 applied",
        "2 duplicate",
      ]);
      assert.equal((await w.robot.site(new URL(w.site.url).origin))?.lastSeq, 4);
      assert.deepEqual(w.queued(), before);
    });
  });

  describe("with a log kept a week, and no report after the lost one", () => {
    beforeEach(async () => {
      w = await world({ count: 1, unit: "week" });
    });

    it("an overdue report is found lost with GetSequenceNumber and recovered (seeds/001 §3.3.3)", async () => {
      await w.site.close();
      await w.startSite("blackhole");
      await writeFile(join(w.dir, "never-mailed.html"), "n");
      await w.nextDay();
      assert.equal(w.blackhole.mails.length, 1);
      // Not overdue yet: nothing asked.
      assert.deepEqual(await w.inbox?.check(), []);
      w.clock.t += overdueAfterMs(DAY) - DAY;
      const found = await w.inbox?.check();
      assert.equal(found?.length, 1);
      assert.equal(found?.[0]?.outcome, "recovered");
      assert.match(
        found?.[0]?.detail ?? "",
        /SequenceNumber=1: report 1 lost; recovered with GetIndex/,
      );
      assert.ok(w.queued().includes("/never-mailed.html"));
      assert.equal((await w.robot.site(new URL(w.site.url).origin))?.lastSeq, 1);
      // The lost report, were it to come after all, is a duplicate.
      await sendMail(w.inboxPort, w.blackhole.mails[0]?.text ?? "", await w.key());
      assert.deepEqual(await w.outcomes(), ["1 recovered", "1 duplicate"]);
    });
  });

  describe("with a log kept two days", () => {
    beforeEach(async () => {
      w = await world({ count: 2, unit: "day" });
    });

    it("a gap older than MaxQuerySpan queues a full re-crawl (seeds/001 §3.3.3)", async () => {
      await writeFile(join(w.dir, "first.html"), "1");
      await w.nextDay();
      assert.deepEqual(await w.outcomes(), ["1 applied"]);
      // Fetched pages the crawl log knows: a full re-crawl queues them all again.
      await w.store.log.append({
        url: new URL("/old.html", w.site.url).href,
        origin: new URL(w.site.url).origin,
        at: w.clock.t,
        ms: 1,
        status: 200,
        bytes: 3,
        outcome: "fetched",
        detail: null,
      });
      await w.site.close();
      await w.startSite("blackhole");
      await w.nextDay();
      await w.nextDay();
      await w.site.close();
      await w.startSite("inbox");
      await w.nextDay();
      assert.deepEqual(await w.outcomes(), ["1 applied", "4 recrawl"]);
      assert.match(
        (await w.robot.reports(new URL(w.site.url).origin))[1]?.detail ?? "",
        /beyond the site's MaxQuerySpan: full re-crawl/,
      );
      assert.ok(w.queued().includes("/"), "the site's root is queued");
      assert.ok(w.queued().includes("/old.html"), "pages fetched before are queued again");
    });
  });

  describe("the inbox refuses what it cannot take in", () => {
    beforeEach(async () => {
      w = await world({ count: 1, unit: "week" });
    });
    const CASES: readonly [name: string, text: (site: string) => string, says: RegExp][] = [
      ["a message that is no report", () => "Hello, robot.\n", /550 not a RUP report: line 1/],
      ["a report without URLBase", () => "SequenceNumber: 1\n\n", /550 not a RUP report/],
      [
        "a report from a site not registered",
        () => "SequenceNumber: 1\nURLBase: http://elsewhere.test/\n\n",
        /550 no registration with http:\/\/elsewhere\.test/,
      ],
    ];
    for (const [name, text, says] of CASES) {
      it(`${name}: 550, nothing recorded`, async () => {
        await assert.rejects(sendMail(w.inboxPort, text(w.site.url)), (e: Error) =>
          says.test(e.message),
        );
        assert.deepEqual(await w.outcomes(), []);
        assert.deepEqual(w.queued(), []);
      });
    }
    it("a report naming paths outside its site queues only its own", async () => {
      const body = `SequenceNumber: 1\nURLBase: ${w.site.url}\n\nNew[2026-11-21T08:00:00Z]: /ok.html, //evil.test/x, http://evil.test/y\n`;
      await sendMail(w.inboxPort, body, await w.key());
      assert.deepEqual(w.queued(), ["/ok.html"]);
    });
  });
});
