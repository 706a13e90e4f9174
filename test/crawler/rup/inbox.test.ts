// The robot's inbox: limits and refusals over a real SMTP conversation. The site is
// 127.0.0.1:1, where nothing listens.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Inbox, type InboxEvent, startInbox } from "../../../src/crawler/rup/inbox.js";
import { SqliteRobotState } from "../../../src/crawler/rup/robot-state.js";
import { createHttpClient, type HttpClient } from "../../../src/net/http-client.js";
import { signingSecret, signReport } from "../../../src/protocol/rup/index.js";
import { smtpTransport } from "../../../src/site/rup/mailer.js";
import { openSqliteStore } from "../../../src/store/index.js";
import type { CrawlStore } from "../../../src/store/types.js";

describe("inbox", () => {
  let tmp: string;
  let state: SqliteRobotState;
  let store: CrawlStore;
  let client: HttpClient;
  let inbox: Inbox;
  const events: InboxEvent[] = [];
  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), "heed-inbox-"));
    state = SqliteRobotState.open(join(tmp, "crawl.db"));
    store = await openSqliteStore(join(tmp, "crawl.db"));
    client = createHttpClient({ userAgent: "heedtest/1.0", allowPrivateAddresses: true });
    await state.save({
      origin: "http://127.0.0.1:1",
      urlBase: "http://127.0.0.1:1/",
      cgiUrl: "http://127.0.0.1:1/cgi-bin/rup",
      email: "robot@robot.test",
      key: "k",
      latency: null,
      maxQuerySpanMs: null,
      spanUnit: "day",
      lastSeq: 0,
      lastReportAt: 0,
      registeredAt: 0,
    });
    inbox = await startInbox({
      host: "127.0.0.1",
      port: 0,
      state,
      store,
      client,
      now: () => 1,
      maxMessageBytes: 4096,
      onReport: (e) => events.push(e),
    });
  });
  after(async () => {
    await inbox.close();
    await client.close();
    await store.close();
    await state.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const send = async (text: string): Promise<void> => {
    const mail = smtpTransport({ host: "127.0.0.1", port: inbox.port, secure: false });
    try {
      await mail.send({
        from: "rup@site.test",
        to: "robot@robot.test",
        subject: "r",
        text,
        // Signed with the registration's key "k", as the site signs.
        headers: { "X-RUP-Signature": signReport(text, signingSecret("k")) },
      });
    } finally {
      mail.close();
    }
  };

  it("takes a report in (250) and queues its URLs", async () => {
    await send(
      "SequenceNumber: 1\nURLBase: http://127.0.0.1:1/\n\nNew[2026-11-21T08:00:00Z]: /a.html\n",
    );
    assert.equal((await state.site("http://127.0.0.1:1"))?.lastSeq, 1);
    assert.equal((await store.frontier.counts()).queued, 1);
  });

  it("limit: a message over maxMessageBytes (MAX_MESSAGE_BYTES) is refused, nothing taken in", async () => {
    const big = `SequenceNumber: 2\nURLBase: http://127.0.0.1:1/\n\nNew[2026-11-21T08:00:00Z]: ${Array.from({ length: 1000 }, (_, i) => `/p${i}`).join(", ")}\n`;
    await assert.rejects(send(big), /552|larger|size/i);
    assert.equal((await state.site("http://127.0.0.1:1"))?.lastSeq, 1);
  });

  it("a gap that cannot be recovered now (the site is unreachable) is refused for the moment: 451", async () => {
    await assert.rejects(send("SequenceNumber: 5\nURLBase: http://127.0.0.1:1/\n\n"), /451/);
    assert.equal((await state.site("http://127.0.0.1:1"))?.lastSeq, 1);
    assert.ok(events.some((e) => e.kind === "refused" && !e.permanent));
  });
});
