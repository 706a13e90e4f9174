// The site side of RUP (seeds/001 §3): /rupinfo.txt, the action endpoint, the modification
// log, reports by e-mail over a real SMTP conversation at each latency (injected clock).
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  MAX_REQUEST_BYTES,
  parseReport,
  parseRupInfo,
  readRegistrationKey,
  readSequenceNumber,
} from "../../../src/protocol/rup/index.js";
import { MAX_ACTIONS_PER_WINDOW } from "../../../src/site/rup/action-endpoint.js";
import { parseSmtpUrl, retryDelayMs, smtpTransport } from "../../../src/site/rup/mailer.js";
import { startSiteServer, type SiteServer } from "../../../src/site/site-server.js";
import { hashKey } from "../../../src/site/rup/keys.js";
import { verifyWebhook } from "../../../src/site/rup/webhook.js";
import { startServer } from "../../helpers/http-server.js";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink.js";
import { until } from "../../helpers/until.js";

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 21, 8, 0, 0);

interface Fixture {
  dir: string;
  state: string;
  clock: { t: number };
  sink: SmtpSink;
  server: SiteServer;
  privateHooks: boolean;
}

async function fixture(existing?: Partial<Fixture>): Promise<Fixture> {
  const dir = existing?.dir ?? (await mkdtemp(join(tmpdir(), "heed-rup-site-")));
  const state =
    existing?.state ?? join(await mkdtemp(join(tmpdir(), "heed-rup-state-")), "state.db");
  const clock = existing?.clock ?? { t: START };
  const sink = existing?.sink ?? (await startSmtpSink());
  if (existing === undefined) {
    await writeFile(join(dir, "index.html"), "home");
    await writeFile(
      join(dir, "robots.txt"),
      "User-agent: *\nDisallow: /private/\n\nUser-agent: shybot\nDisallow: /news/\n",
    );
  }
  const target = parseSmtpUrl(sink.url);
  assert.ok(target);
  const server = await startSiteServer({
    root: dir,
    rup: {
      statePath: state,
      transport: smtpTransport(target),
      from: "rup@site.test",
      now: () => clock.t,
      latencies: ["day", "week"],
      exclude: ["^/tmp/", "\\.log$"],
      maxQuerySpan: { count: 2, unit: "week" },
      tickMs: 0,
      scanIntervalMs: 0,
      allowPrivateWebhooks: existing?.privateHooks ?? true,
    },
  });
  return { dir, state, clock, sink, server, privateHooks: existing?.privateHooks ?? true };
}

async function act(
  server: SiteServer,
  fields: Record<string, string>,
  init: { method?: string; agent?: string } = {},
): Promise<{ status: number; body: string }> {
  const url = new URL("/cgi-bin/rup", server.url);
  const body = new URLSearchParams(fields).toString();
  const headers: Record<string, string> = { "user-agent": init.agent ?? "testbot/1.0" };
  let res: Response;
  if (init.method === "GET") {
    url.search = body;
    res = await fetch(url, { headers });
  } else {
    res = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
  }
  return { status: res.status, body: await res.text() };
}

async function register(
  f: Fixture,
  email: string,
  extra: Record<string, string> = {},
  agent?: string,
): Promise<string> {
  const r = await act(
    f.server,
    { Action: "Register", RobotEmail: email, ...extra },
    agent === undefined ? {} : { agent },
  );
  assert.equal(r.status, 200, r.body);
  const key = readRegistrationKey(r.body);
  assert.ok(key);
  return key;
}

/**
 * Waits until the log holds `what`. Unless `live`, a full scan runs first, so that the log has
 * each file's final state before the test moves its clock on (a watcher may report a file
 * between its creation and its first write, and then again).
 */
async function settle(f: Fixture, what: () => boolean, live = false): Promise<void> {
  if (!live) await f.server.rup?.log.rescan();
  await until(async () => {
    await f.server.rup?.log.idle();
    return what();
  }, "the modification log");
}

const logged = (f: Fixture): string[] =>
  (f.server.rup?.state.changesSince(0) ?? []).map((c) => `${c.kind} ${c.path}`);

describe("RUP site", () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture();
  });
  afterEach(async () => {
    await f.server.close();
    await f.sink.close();
    await rm(f.dir, { recursive: true, force: true });
    await rm(join(f.state, ".."), { recursive: true, force: true });
  });

  it("serves /rupinfo.txt and /rupinfo.tex (seeds/001 §3.1.1, DESIGN §5), generated from its configuration", async () => {
    for (const name of ["/rupinfo.txt", "/rupinfo.tex"]) {
      const res = await fetch(new URL(name, f.server.url));
      assert.equal(res.status, 200);
      const { info, diagnostics } = parseRupInfo(await res.text());
      assert.deepEqual(diagnostics, []);
      assert.equal(info?.cgiUrl, new URL("/cgi-bin/rup", f.server.url).href);
      assert.equal(info?.authentifier, "none");
      assert.deepEqual(info?.latencies, ["day", "week"]);
      assert.deepEqual(info?.exclude, ["^/tmp/", "\\.log$"]);
      assert.deepEqual(info?.maxQuerySpan, { count: 2, unit: "week" });
    }
  });

  it("Register answers RegistrationKey in HTML; keys are stored hashed; GET is honoured", async () => {
    const key = await register(f, "bot@robot.test");
    const stored = f.server.rup?.state.findByEmail("bot@robot.test");
    assert.ok(stored);
    assert.notEqual(stored.keyHash, key);
    assert.ok(!stored.keyHash.includes(key));
    const seq = await act(
      f.server,
      { Action: "GetSequenceNumber", RegistrationKey: key, RegisteredRobotEmail: "bot@robot.test" },
      { method: "GET" },
    );
    assert.equal(seq.status, 200);
    assert.equal(readSequenceNumber(seq.body), 0);
    const key2 = await register(f, "other@robot.test");
    assert.notEqual(key, key2);
  });

  it("ModifyPreferences changes only what it names; Unregister removes the registration", async () => {
    const key = await register(f, "bot@robot.test", { Latency: "week", Exclude: "^/tmp/" });
    const m = await act(f.server, {
      Action: "ModifyPreferences",
      RegistrationKey: key,
      RegisteredRobotEmail: "bot@robot.test",
      RobotEmail: "new@robot.test",
    });
    assert.equal(m.status, 200, m.body);
    const r = f.server.rup?.state.findByEmail("new@robot.test");
    assert.deepEqual(r?.latency, { count: 1, unit: "week" });
    assert.deepEqual(r?.filter, { kind: "exclude", patterns: ["^/tmp/"] });
    const u = await act(f.server, {
      Action: "Unregister",
      RegistrationKey: key,
      RegisteredRobotEmail: "new@robot.test",
    });
    assert.equal(u.status, 200);
    assert.equal(f.server.rup?.state.registrations().length, 0);
  });

  describe("bad input: a clear 400/501 and nothing changed", () => {
    const CASES: readonly [
      name: string,
      fields: Record<string, string>,
      status: number,
      says: RegExp,
    ][] = [
      ["no Action", { RobotEmail: "x@robot.test" }, 400, /no Action/],
      ["an unknown Action", { Action: "Reindex" }, 501, /not implemented/],
      ["Register without RobotEmail", { Action: "Register" }, 400, /needs RobotEmail/],
      ["a bad address", { Action: "Register", RobotEmail: "robot.test" }, 400, /RobotEmail/],
      [
        "Exclude with IncludeOnly",
        { Action: "Register", RobotEmail: "x@robot.test", Exclude: "^/tmp/", IncludeOnly: "^/a/" },
        400,
        /not both/,
      ],
      [
        "an unknown latency",
        { Action: "Register", RobotEmail: "x@robot.test", Latency: "fortnight" },
        400,
        /unknown unit/,
      ],
      [
        "a latency not offered",
        { Action: "Register", RobotEmail: "x@robot.test", Latency: "month" },
        400,
        /offers day, week/,
      ],
      [
        "a pattern not offered",
        { Action: "Register", RobotEmail: "x@robot.test", Exclude: "^/other/" },
        400,
        /not one of the offered/,
      ],
      [
        "IncludeOnly, which this site does not offer",
        { Action: "Register", RobotEmail: "x@robot.test", IncludeOnly: "^/a/" },
        501,
        /offers no IncludeOnly/,
      ],
      [
        "Register of an address registered already",
        { Action: "Register", RobotEmail: "bot@robot.test" },
        400,
        /registered already/,
      ],
      [
        "a missing key",
        { Action: "GetSequenceNumber", RegisteredRobotEmail: "bot@robot.test" },
        400,
        /needs RegistrationKey/,
      ],
      [
        "a wrong key",
        { Action: "Unregister", RegistrationKey: "wrong", RegisteredRobotEmail: "bot@robot.test" },
        400,
        /no registration/,
      ],
      [
        "a key with another address",
        {
          Action: "ModifyPreferences",
          RegistrationKey: "KEY",
          RegisteredRobotEmail: "other@robot.test",
          Latency: "day",
        },
        400,
        /no registration/,
      ],
      ["a bad span", { Action: "GetIndex", Span: "lots" }, 400, /Span/],
      ["a span without its count", { Action: "GetIndex", Span: "week" }, 400, /count/],
      ["a span beyond MaxQuerySpan", { Action: "GetIndex", Span: "3-week" }, 400, /MaxQuerySpan/],
    ];
    for (const [name, fields, status, says] of CASES) {
      it(`${name}: ${status}`, async () => {
        const key = await register(f, "bot@robot.test", { Latency: "week" });
        const before = JSON.stringify(f.server.rup?.state.registrations());
        const withKey = Object.fromEntries(
          Object.entries(fields).map(([k, v]) => [k, v === "KEY" ? key : v]),
        );
        const r = await act(f.server, withKey);
        assert.equal(r.status, status, r.body);
        assert.match(r.body, says);
        assert.match(r.body, /<html>/);
        assert.equal(JSON.stringify(f.server.rup?.state.registrations()), before);
      });
    }

    it(`a body over MAX_REQUEST_BYTES: 400, nothing registered`, async () => {
      const r = await act(f.server, {
        Action: "Register",
        RobotEmail: "x@robot.test",
        Pad: "x".repeat(MAX_REQUEST_BYTES),
      });
      assert.equal(r.status, 400);
      assert.match(r.body, /larger than 8192 bytes/);
      assert.equal(f.server.rup?.state.registrations().length, 0);
    });

    it("HEAD and PUT do not act: 405, nothing registered", async () => {
      for (const method of ["HEAD", "PUT"]) {
        const url = new URL("/cgi-bin/rup?Action=Register&RobotEmail=x%40robot.test", f.server.url);
        const res = await fetch(url, { method });
        assert.equal(res.status, 405);
        assert.equal(res.headers.get("allow"), "POST, GET");
      }
      assert.equal(f.server.rup?.state.registrations().length, 0);
    });

    it("a POST that is not a form: 400", async () => {
      const res = await fetch(new URL("/cgi-bin/rup", f.server.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"Action":"Register"}',
      });
      assert.equal(res.status, 400);
      assert.match(await res.text(), /expected a form/);
    });

    it(`limit: more than MAX_ACTIONS_PER_WINDOW requests a minute from one address: 429`, async () => {
      let last = 0;
      for (let i = 0; i <= MAX_ACTIONS_PER_WINDOW; i += 1)
        last = (await act(f.server, { Action: "GetIndex", Span: "1-day" })).status;
      assert.equal(last, 429);
      f.clock.t += 60_000;
      assert.equal((await act(f.server, { Action: "GetIndex", Span: "1-day" })).status, 200);
    });
  });

  it("logs New, Change and Delete from the live watcher, and a mkdir -p tree by the scan", async () => {
    await writeFile(join(f.dir, "a.html"), "a");
    await settle(f, () => logged(f).includes("New /a.html"), true);
    f.clock.t += 1000;
    await writeFile(join(f.dir, "a.html"), "a changed");
    await settle(f, () => logged(f).includes("Change /a.html"), true);
    await unlink(join(f.dir, "index.html"));
    await settle(f, () => logged(f).includes("Delete /index.html"), true);
    await mkdir(join(f.dir, "x", "y", "z"), { recursive: true });
    await writeFile(join(f.dir, "x", "y", "z", "deep.html"), "deep");
    await writeFile(join(f.dir, "x", "y", "mid.html"), "mid");
    await settle(
      f,
      () => logged(f).includes("New /x/y/z/deep.html") && logged(f).includes("New /x/y/mid.html"),
    );
    // The existing files at the first start are the baseline, not news.
    assert.ok(!logged(f).includes("New /robots.txt"));
    // Each change once, whichever of watcher and scan saw it first.
    assert.equal(logged(f).filter((l) => l === "New /x/y/z/deep.html").length, 1);
  });

  it("finds what changed while the server was stopped", async () => {
    await f.server.close();
    await writeFile(join(f.dir, "while-down.html"), "new");
    await unlink(join(f.dir, "index.html"));
    await mkdir(join(f.dir, "p", "q"), { recursive: true });
    await writeFile(join(f.dir, "p", "q", "r.html"), "r");
    f = await fixture(f);
    assert.deepEqual(logged(f).sort(), [
      "Delete /index.html",
      "New /p/q/r.html",
      "New /while-down.html",
    ]);
  });

  it("mails a §3.2 report at each latency, sequence numbers one apart, Exclude and robots.txt applied", async () => {
    const key = await register(f, "bot@robot.test", { Latency: "day", Exclude: "^/tmp/" });
    await register(f, "shy@robot.test", {}, "shybot/2.0");
    for (const p of ["news/a.html", "tmp/t.html", "private/p.html", "ok.html"]) {
      await mkdir(join(f.dir, p, ".."), { recursive: true });
      await writeFile(join(f.dir, p), p);
    }
    await settle(f, () => logged(f).length >= 4);

    f.clock.t += DAY - 1;
    assert.equal((await f.server.rup?.tick())?.made, 0, "not due before its latency");
    f.clock.t += 1;
    const t1 = await f.server.rup?.tick();
    assert.equal(t1?.made, 2);
    assert.equal(t1?.sent, 2);
    const bot = f.sink.mails.find((m) => m.to.includes("bot@robot.test"));
    assert.ok(bot);
    assert.equal(bot.from, "rup@site.test");
    assert.match(bot.contentType, /text\/plain/);
    const report = parseReport(bot.text);
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.report?.sequenceNumber, 1);
    assert.equal(report.report?.urlBase, f.server.url);
    // /tmp/ excluded by the robot, /private/ by the site's robots.txt for every robot.
    assert.deepEqual(report.report?.changes.flatMap((c) => c.paths).sort(), [
      "/news/a.html",
      "/ok.html",
    ]);
    const shy = parseReport(f.sink.mails.find((m) => m.to.includes("shy@robot.test"))?.text ?? "");
    // shybot's own group forbids /news/ (and, being its group, not /private/).
    assert.deepEqual(shy.report?.changes.flatMap((c) => c.paths).sort(), [
      "/ok.html",
      "/private/p.html",
      "/tmp/t.html",
    ]);

    // The next period: an empty report still comes, numbered 2.
    f.clock.t += DAY;
    await f.server.rup?.tick();
    const second = f.sink.mails.filter((m) => m.to.includes("bot@robot.test"));
    assert.equal(parseReport(second[1]?.text ?? "").report?.sequenceNumber, 2);
    assert.deepEqual(parseReport(second[1]?.text ?? "").report?.changes, []);
    const seq = await act(f.server, {
      Action: "GetSequenceNumber",
      RegistrationKey: key,
      RegisteredRobotEmail: "bot@robot.test",
    });
    assert.equal(readSequenceNumber(seq.body), 2);
  });

  it("a report the mail server refuses is kept and sent later, in order", async () => {
    await register(f, "bot@robot.test", { Latency: "day" });
    await writeFile(join(f.dir, "one.html"), "1");
    await settle(f, () => logged(f).includes("New /one.html"));
    f.sink.refusing = true;
    f.clock.t += DAY;
    const t1 = await f.server.rup?.tick();
    assert.equal(t1?.failed, 1);
    assert.equal(f.server.rup?.state.outbox().length, 1);
    // A day later (longer than the first retry pause): report 2 is made, and 1 goes first.
    f.clock.t += DAY;
    f.sink.refusing = false;
    const t2 = await f.server.rup?.tick();
    assert.equal(t2?.sent, 2);
    assert.deepEqual(
      f.sink.mails.map((m) => parseReport(m.text).report?.sequenceNumber),
      [1, 2],
    );
    assert.deepEqual(
      parseReport(f.sink.mails[0]?.text ?? "").report?.changes.flatMap((c) => c.paths),
      ["/one.html"],
    );
    assert.equal(f.server.rup?.state.outbox().length, 0);
  });

  it("a refused report waits for its retry moment, and survives a restart", async () => {
    await register(f, "bot@robot.test", { Latency: "day" });
    f.sink.refusing = true;
    f.clock.t += DAY;
    await f.server.rup?.tick();
    f.sink.refusing = false;
    f.clock.t += retryDelayMs(0) - 1;
    assert.equal((await f.server.rup?.tick())?.sent, 0);
    await f.server.close();
    f = await fixture(f);
    f.clock.t += 1;
    assert.equal((await f.server.rup?.tick())?.sent, 1);
    assert.equal(parseReport(f.sink.mails[0]?.text ?? "").report?.sequenceNumber, 1);
  });

  it("GetIndex answers the changes of a span in the §3.2 format (seeds/001 §3.3.4)", async () => {
    await writeFile(join(f.dir, "old.html"), "old");
    await settle(f, () => logged(f).includes("New /old.html"));
    f.clock.t += 3 * DAY;
    await writeFile(join(f.dir, "recent.html"), "recent");
    await settle(f, () => logged(f).includes("New /recent.html"));
    const r = await act(f.server, { Action: "GetIndex", Span: "2-day" });
    assert.equal(r.status, 200);
    const { report, diagnostics } = parseReport(
      r.body.replace(/^[\s\S]*<pre>\n|<\/pre>[\s\S]*$/g, ""),
    );
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      report?.changes.flatMap((c) => c.paths),
      ["/recent.html"],
    );
    const week = await act(f.server, { Action: "GetIndex", Span: "1-week" });
    assert.match(week.body, /\/old\.html/);
  });

  describe("webhooks (an extra: a URL in place of an address)", () => {
    it("POSTs the report as JSON signed with HMAC-SHA256; a refused post is retried", async () => {
      const received: { body: string; signature: string }[] = [];
      let answer = 500;
      const hook = await startServer({
        "/hook": (req, res) => {
          const chunks: Buffer[] = [];
          req.on("data", (c: Buffer) => chunks.push(c));
          req.on("end", () => {
            received.push({
              body: Buffer.concat(chunks).toString("utf8"),
              signature: String(req.headers["x-rup-signature"]),
            });
            res.statusCode = answer;
            res.end();
          });
        },
      });
      try {
        const url = `${hook.origin}/hook`;
        const key = await register(f, url, { Latency: "day" });
        await writeFile(join(f.dir, "hooked.html"), "h");
        await settle(f, () => logged(f).includes("New /hooked.html"));
        f.clock.t += DAY;
        assert.equal((await f.server.rup?.tick())?.failed, 1);
        answer = 204;
        f.clock.t += retryDelayMs(0);
        assert.equal((await f.server.rup?.tick())?.sent, 1);
        assert.equal(received.length, 2);
        const last = received[1];
        assert.ok(last);
        assert.ok(verifyWebhook(last.body, last.signature, hashKey(key)));
        assert.ok(!verifyWebhook(last.body, last.signature, hashKey("another key")));
        assert.ok(!verifyWebhook(`${last.body} `, last.signature, hashKey(key)));
        const json = JSON.parse(last.body) as {
          sequenceNumber: number;
          urlBase: string;
          changes: { kind: string; paths: string[] }[];
        };
        assert.equal(json.sequenceNumber, 1);
        assert.equal(json.urlBase, f.server.url);
        assert.deepEqual(
          json.changes.map((c) => [c.kind, c.paths]),
          [["New", ["/hooked.html"]]],
        );
        assert.equal(f.sink.mails.length, 0);
      } finally {
        await hook.close();
      }
    });

    it("a webhook on a private address is refused at registration unless allowed", async () => {
      await f.server.close();
      f = await fixture({ ...f, privateHooks: false });
      const r = await act(f.server, {
        Action: "Register",
        RobotEmail: "http://127.0.0.1:9/hook",
        Latency: "day",
      });
      assert.equal(r.status, 400, r.body);
      assert.match(r.body, /public addresses only/);
      assert.equal(f.server.rup?.state.findByEmail("http://127.0.0.1:9/hook"), null);
    });
  });

  it("offers the log as a ResourceSync change list (an extra), robots.txt applied", async () => {
    await writeFile(join(f.dir, "listed.html"), "l");
    await mkdir(join(f.dir, "private"));
    await writeFile(join(f.dir, "private", "hidden.html"), "p");
    await unlink(join(f.dir, "index.html"));
    await settle(f, () => logged(f).length >= 3);
    const description = await (
      await fetch(new URL("/.well-known/resourcesync", f.server.url))
    ).text();
    assert.match(description, /<rs:md capability="description"\/>/);
    assert.ok(description.includes(new URL("/resourcesync/capabilitylist.xml", f.server.url).href));
    const capabilities = await (
      await fetch(new URL("/resourcesync/capabilitylist.xml", f.server.url))
    ).text();
    assert.ok(
      capabilities.includes(
        `<loc>${new URL("/resourcesync/changelist.xml", f.server.url).href}</loc><rs:md capability="changelist"/>`,
      ),
    );
    const res = await fetch(new URL("/resourcesync/changelist.xml", f.server.url));
    assert.equal(res.headers.get("content-type"), "application/xml; charset=utf-8");
    const list = await res.text();
    const entries = [
      ...list.matchAll(/<loc>([^<]+)<\/loc><rs:md change="(\w+)" datetime="([^"]+)"\/>/g),
    ].map((m) => `${m[2] ?? ""} ${new URL(m[1] ?? "").pathname}`);
    // Every change is listed as logged (a watcher may log a new file's first write as well).
    assert.ok(entries.includes("created /listed.html"), entries.join());
    assert.ok(entries.includes("deleted /index.html"), entries.join());
    assert.ok(!entries.some((e) => e.includes("/private/")), "robots.txt forbids /private/");
    assert.match(
      list,
      /<rs:md capability="changelist" from="2026-11-07T08:00:00Z" until="2026-11-21T08:00:00Z"\/>/,
    );
  });
});
