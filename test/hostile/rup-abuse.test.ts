// issue 14 §4: RUP registrations against abuse. Bounded in total, per network and per hour
// (rotating 127.x.y.z addresses used to register 3,000 robots in 2 s); silent registrations
// expire with their reports; an idle tick reads no outbox rows however long the history;
// addresses compare case-insensitively in the domain; `--confirm` sends one mail and nothing
// else until the recipient confirms (by POST: fetching the link confirms nothing).
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readRegistrationKey } from "../../src/protocol/rup/index.js";
import { parseSmtpUrl, sendOutbox, smtpTransport } from "../../src/site/rup/mailer.js";
import type { RupSiteOptions } from "../../src/site/rup/rup-site.js";
import { SiteState } from "../../src/site/rup/state.js";
import { startSiteServer, type SiteServer } from "../../src/site/site-server.js";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink.js";

const DAY = 86_400_000;

/** A form POST to the action endpoint (or another path) from a chosen source address. */
function post(
  base: string,
  fields: Record<string, string>,
  from = "127.0.0.1",
  path = "/cgi-bin/rup",
): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: "POST",
        localAddress: from,
        agent: false,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
          "user-agent": "testbot/1.0",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("RUP registrations against abuse", { timeout: 120_000 }, () => {
  let base: string;
  let sink: SmtpSink;
  const clock = { t: Date.UTC(2026, 10, 1) };
  before(async () => {
    base = await mkdtemp(join(tmpdir(), "heed-rup-abuse-"));
    sink = await startSmtpSink();
  });
  after(async () => {
    await sink.close();
    await rm(base, { recursive: true, force: true });
  });

  async function site(
    name: string,
    extra: Partial<RupSiteOptions> = {},
    smtp = true,
  ): Promise<SiteServer> {
    const dir = join(base, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "index.html"), "home");
    const target = parseSmtpUrl(sink.url);
    assert.ok(target);
    return startSiteServer({
      root: dir,
      rup: {
        statePath: join(base, `${name}.db`),
        transport: smtp ? smtpTransport(target) : null,
        from: "rup@site.test",
        now: () => clock.t,
        tickMs: 0,
        scanIntervalMs: 0,
        ...extra,
      },
    });
  }

  it("bounded per network, per hour and in total", async () => {
    const s = await site("bounds", { maxRegistrations: 40, maxRegistrationsPerHour: 35 });
    try {
      // Rotating addresses inside one /24.
      const one: number[] = [];
      for (let i = 1; i <= 20; i++) {
        one.push(
          (await post(s.url, { Action: "Register", RobotEmail: `a${i}@r.test` }, `127.0.7.${i}`))
            .status,
        );
      }
      assert.deepEqual(one, [...Array(16).fill(200), ...Array(4).fill(503)]);
      // Across networks: the hourly limit, then (an hour later) the total.
      const many: number[] = [];
      for (let i = 1; i <= 20; i++) {
        const r = await post(
          s.url,
          { Action: "Register", RobotEmail: `b${i}@r.test` },
          `127.8.${i}.1`,
        );
        many.push(r.status);
      }
      assert.deepEqual(many, [...Array(19).fill(200), 503]);
      clock.t += 2 * 3_600_000;
      const later: number[] = [];
      for (let i = 1; i <= 10; i++) {
        const r = await post(
          s.url,
          { Action: "Register", RobotEmail: `c${i}@r.test` },
          `127.9.${i}.1`,
        );
        later.push(r.status);
      }
      assert.deepEqual(later, [...Array(5).fill(200), ...Array(5).fill(503)]);
      const last = await post(s.url, { Action: "Register", RobotEmail: "d@r.test" }, "127.10.0.1");
      assert.match(last.body, /holds 40 registrations, its limit/);
    } finally {
      await s.close();
    }
  });

  it("addresses compare case-insensitively in the domain, not in the local part", async () => {
    const s = await site("case");
    try {
      assert.equal(
        (await post(s.url, { Action: "Register", RobotEmail: "bot@Robots.Example" })).status,
        200,
      );
      const again = await post(
        s.url,
        { Action: "Register", RobotEmail: "bot@robots.EXAMPLE" },
        "127.0.0.2",
      );
      assert.equal(again.status, 400);
      assert.match(again.body, /registered already/);
      assert.equal(
        (await post(s.url, { Action: "Register", RobotEmail: "Bot@robots.example" }, "127.0.0.3"))
          .status,
        200,
      );
    } finally {
      await s.close();
    }
  });

  it("silent registrations expire with their unsent reports", async () => {
    const s = await site("silent", {}, false);
    try {
      assert.equal(
        (await post(s.url, { Action: "Register", RobotEmail: "gone@r.test", Latency: "day" }))
          .status,
        200,
      );
      const rup = s.rup;
      assert.ok(rup);
      for (let d = 0; d < 70; d++) {
        clock.t += DAY;
        await rup.tick();
      }
      assert.equal(rup.state.registrations().length, 0);
      assert.equal(rup.state.outbox().length, 0);
    } finally {
      await s.close();
    }
  });

  it("an idle tick reads no outbox rows, however long the history", async () => {
    const state = SiteState.open(join(base, "history.db"));
    try {
      const now = clock.t;
      for (let r = 0; r < 300; r++) {
        const reg = state.insert({
          email: `r${r}@r.test`,
          keyHash: "00",
          agent: null,
          latency: { count: 1, unit: "day" },
          filter: { kind: "all" },
          lastChangeId: 0,
          nextDue: now,
          createdAt: now,
        });
        for (let d = 1; d <= 30; d++) {
          state.enqueue(state.get(reg.id) ?? reg, {
            seq: d,
            body: "x".repeat(2000),
            upTo: 0,
            nextDue: now + DAY,
            now,
          });
        }
        // Undeliverable: the head waits for its next try.
        const head = state.outbox().find((e) => e.registrationId === reg.id);
        if (head !== undefined) state.failed(head.id, "550 no such user", now + 3_600_000);
      }
      assert.equal(state.outbox().length, 9000);
      let sends = 0;
      const result = await sendOutbox(
        state,
        { send: async () => void sends++, close: () => {} },
        { from: "rup@site.test", urlBase: "http://site.test/", now },
      );
      assert.deepEqual([result.examined, result.sent, sends], [0, 0, 0]);
    } finally {
      state.close();
    }
  });

  it("--confirm: one mail, nothing else until the recipient confirms by POST", async () => {
    const s = await site("confirm", { confirm: true });
    try {
      const rup = s.rup;
      assert.ok(rup);
      const r = await post(s.url, {
        Action: "Register",
        RobotEmail: "victim@mail.test",
        Latency: "day",
      });
      assert.equal(r.status, 200);
      const key = readRegistrationKey(r.body);
      assert.ok(key);
      const mails = () => sink.mails.filter((m) => m.to.includes("victim@mail.test"));
      await rup.tick();
      assert.equal(mails().length, 1);
      assert.match(mails()[0]?.subject ?? "", /^Confirm RUP reports/);
      const link = /(http:\/\/\S+rup-confirm\?token=\S+)/.exec(mails()[0]?.text ?? "")?.[1];
      assert.ok(link, mails()[0]?.text);
      // Days pass: reports fall due, none is sent; a GET of the link (a mail scanner) confirms nothing.
      for (let d = 0; d < 3; d++) {
        clock.t += DAY / 2;
        await rup.tick();
      }
      const page = await fetch(link);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<form method="post"/);
      await rup.tick();
      assert.equal(mails().length, 1);
      const token = new URL(link).searchParams.get("token") ?? "";
      assert.equal(
        (await post(s.url, { token: "x".repeat(43) }, "127.0.0.1", "/cgi-bin/rup-confirm")).status,
        400,
      );
      const ok = await post(s.url, { token }, "127.0.0.1", "/cgi-bin/rup-confirm");
      assert.equal(ok.status, 200, ok.body);
      clock.t += DAY;
      await rup.tick();
      assert.equal(mails().length, 2);
      assert.match(mails()[1]?.subject ?? "", /^RUP report 1/);
      // Moving the reports to another address needs that address to confirm too.
      const moved = await post(s.url, {
        Action: "ModifyPreferences",
        RegistrationKey: key,
        RegisteredRobotEmail: "victim@mail.test",
        RobotEmail: "other@mail.test",
      });
      assert.equal(moved.status, 200, moved.body);
      clock.t += 2 * DAY;
      await rup.tick();
      const other = sink.mails.filter((m) => m.to.includes("other@mail.test"));
      assert.deepEqual(
        other.map((m) => m.subject.split(" ")[0]),
        ["Confirm"],
      );
      // A webhook cannot confirm by mail: not offered.
      const hook = await post(
        s.url,
        { Action: "Register", RobotEmail: "http://127.0.0.1:9/hook" },
        "127.0.0.4",
      );
      assert.equal(hook.status, 501);
    } finally {
      await s.close();
    }
  });
});
