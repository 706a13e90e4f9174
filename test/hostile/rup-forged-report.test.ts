// issue 27, row 6: e-mailed RUP reports are tied to the registration they claim. heed's site
// server on 127.0.0.1 mails its reports over real SMTP into heed's robot inbox; a hostile
// sender mails the same inbox. A report must be addressed to the robot's registered address and
// carry the registration key's proof (X-RUP-Signature, protocol/rup/signature.ts); a sequence
// number past the next one is believed only when the site's own GetSequenceNumber says it made
// that many. A forged report changes nothing (no page gone, no GetIndex, the sequence number
// kept, the next genuine report applied) and is told to onReport as refused.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Inbox, type InboxEvent, startInbox } from "../../src/crawler/rup/inbox.js";
import { register } from "../../src/crawler/rup/robot.js";
import { SqliteRobotState } from "../../src/crawler/rup/robot-state.js";
import { createHttpClient, type HttpClient } from "../../src/net/http-client.js";
import { signingSecret, signReport } from "../../src/protocol/rup/index.js";
import { parseSmtpUrl, smtpTransport } from "../../src/site/rup/mailer.js";
import { startSiteServer, type SiteServer } from "../../src/site/site-server.js";
import { openSqliteStore } from "../../src/store/index.js";
import type { CrawlStore } from "../../src/store/types.js";

const DAY = 86_400_000;
const ROBOT = "robot@robot.test";

describe("forged RUP reports by mail", () => {
  const clock = { t: Date.UTC(2026, 10, 21, 8, 0, 0) };
  const now = () => clock.t;
  let dir = "";
  let tmp = "";
  let site: SiteServer;
  let robot: SqliteRobotState;
  let store: CrawlStore;
  let client: HttpClient;
  let inbox: Inbox;
  let origin = "";
  let key = "";
  const events: InboxEvent[] = [];
  const requests: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-forged-site-"));
    tmp = await mkdtemp(join(tmpdir(), "heed-forged-"));
    await writeFile(join(dir, "index.html"), "home");
    await writeFile(join(dir, "keep.html"), "a page a forged Delete would mark gone");
    robot = SqliteRobotState.open(join(tmp, "crawl.db"));
    store = await openSqliteStore(join(tmp, "crawl.db"));
    client = createHttpClient({ userAgent: "heedtest/1.0", allowPrivateAddresses: true });
    inbox = await startInbox({
      host: "127.0.0.1",
      port: 0,
      state: robot,
      store,
      client,
      now,
      checkEveryMs: 0,
      onReport: (e) => events.push(e),
    });
    const target = parseSmtpUrl(`smtp://127.0.0.1:${inbox.port}`);
    assert.ok(target);
    site = await startSiteServer({
      root: dir,
      port: 0,
      onRequest: (e) => requests.push(`${e.method} ${e.path} ${e.status}`),
      rup: {
        statePath: join(tmp, "site.db"),
        transport: smtpTransport(target),
        from: "rup@site.test",
        now,
        latencies: ["day", "week"],
        maxQuerySpan: { count: 1, unit: "week" },
        tickMs: 0,
        scanIntervalMs: 0,
      },
    });
    origin = new URL(site.url).origin;
    ({ key } = await register({ client, state: robot, now }, site.url, ROBOT, {
      latency: { count: 1, unit: "day" },
    }));
  });
  after(async () => {
    await site.close();
    await inbox.close();
    await client.close();
    await store.close();
    await robot.close();
    await rm(dir, { recursive: true, force: true });
    await rm(tmp, { recursive: true, force: true });
  });

  /** One message over a real SMTP conversation; rejects with the inbox's refusal. */
  const send = async (
    text: string,
    options: { to?: string; from?: string; signature?: string } = {},
  ): Promise<void> => {
    const mail = smtpTransport({ host: "127.0.0.1", port: inbox.port, secure: false });
    try {
      await mail.send({
        from: options.from ?? "rup@site.test",
        to: options.to ?? ROBOT,
        subject: "RUP report",
        text,
        headers: options.signature === undefined ? {} : { "X-RUP-Signature": options.signature },
      });
    } finally {
      mail.close();
    }
  };
  const report = (seq: number, line: string) =>
    `SequenceNumber: ${seq}\nURLBase: ${site.url}\n\n${line}\n`;
  const forgedDelete = (seq: number) => report(seq, "Delete[2026-11-21T08:00:00Z]: /keep.html");
  const unchanged = async () => {
    assert.equal((await robot.site(origin))?.lastSeq, 0);
    assert.deepEqual(await robot.gone(origin), []);
    assert.deepEqual(await robot.reports(origin), []);
    assert.equal((await store.frontier.counts()).queued, 0);
  };

  it("refuses a report with the site's sender but no proof of the key (sequence 999999999999999)", async () => {
    requests.length = 0;
    await assert.rejects(
      send(forgedDelete(999_999_999_999_999)),
      /550 forged report 999999999999999 .*no x-rup-signature header proving the registration's key \(sent by rup@site\.test\)/i,
    );
    await unchanged();
    assert.deepEqual(requests, [], "no GetIndex, nothing asked of the site");
    const last = events.at(-1);
    assert.ok(last?.kind === "refused" && last.permanent);
    assert.match(last.reason, /^forged report/);
  });

  it("refuses a report signed with another key, and one addressed to another robot", async () => {
    await assert.rejects(
      send(forgedDelete(1), { signature: signReport(forgedDelete(1), signingSecret("guess")) }),
      /550 forged report 1 .*does not prove the registration's key/,
    );
    const signed = signReport(forgedDelete(1), signingSecret(key));
    await assert.rejects(
      send(forgedDelete(1), { to: "other@robot.test", signature: signed }),
      /550 forged report 1 .*addressed to other@robot\.test, not to robot@robot\.test/,
    );
    await unchanged();
  });

  it("refuses a signed jump past the site's own sequence number, asking only GetSequenceNumber", async () => {
    requests.length = 0;
    const text = forgedDelete(999_999_999_999_999);
    await assert.rejects(
      send(text, { signature: signReport(text, signingSecret(key)) }),
      /550 forged report 999999999999999 .*GetSequenceNumber answers 0/,
    );
    await unchanged();
    assert.equal(requests.length, 1, requests.join("; "));
    assert.match(requests[0] ?? "", /^(GET|POST) \/cgi-bin\/rup 200$/);
  });

  it("then takes the site's genuine report in, applied", async () => {
    await writeFile(join(dir, "news.html"), "news");
    await site.rup?.log.rescan();
    clock.t += DAY;
    const sent = await site.rup?.tick();
    assert.equal(sent?.sent, 1);
    assert.deepEqual(
      (await robot.reports(origin)).map((r) => `${r.seq} ${r.outcome}`),
      ["1 applied"],
    );
    assert.deepEqual(await robot.gone(origin), []);
  });

  it("records the sender of each report, and takes a signed report from another sender in", async () => {
    // The sender proves nothing (anyone writes any): the signature decides, the sender is kept
    // with the report for the operator to see.
    assert.match((await robot.reports(origin))[0]?.detail ?? "", /; sent by rup@site\.test$/);
    const text = report(2, "New[2026-11-22T08:00:00Z]: /moved-mail.html");
    await send(text, {
      from: "relay@mail.elsewhere.test",
      signature: signReport(text, signingSecret(key)),
    });
    const taken = await robot.reports(origin);
    assert.deepEqual(
      taken.map((r) => `${r.seq} ${r.outcome}`),
      ["1 applied", "2 applied"],
    );
    assert.match(taken[1]?.detail ?? "", /; sent by relay@mail\.elsewhere\.test$/);
  });
});
