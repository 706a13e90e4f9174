// The agent host's own limits (limits.ts), each tested: agents held, expiry, messages, request
// time, connections; and results pushed to the sender by MESSAGE (issue 9: "Results and state
// come back by RETRACT, or are pushed to the sender by MESSAGE"). Real TCP on 127.0.0.1.
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { dispatchAgent } from "../../../src/crawler/agents/dispatch.js";
import { AgentInbox } from "../../../src/crawler/agents/inbox.js";
import { atpRequest } from "../../../src/net/atp-client.js";
import {
  type AtpHeaders,
  type AtpResponse,
  HEED_AGENT_CONTENT_TYPE,
  header,
  parseAtpUrl,
} from "../../../src/protocol/atp/index.js";
import { AgentHost } from "../../../src/site/agent-host/host.js";
import { MAX_MESSAGE_BYTES, MAX_MESSAGES_PER_AGENT } from "../../../src/site/agent-host/limits.js";
import { type AgentSite, makeAgentSite } from "../../helpers/agent-site.js";

const SITE = "http://www.fict.org";
const HEED: AtpHeaders = [
  ["Agent-System", "heed"],
  ["Agent-Language", "javascript"],
  ["Content-Type", HEED_AGENT_CONTENT_TYPE],
];
const body = (code: string, extra: Record<string, string> = {}) =>
  JSON.stringify({
    format: 1,
    code,
    state: null,
    robot: "HeedBot",
    site: SITE,
    path: "/home/user1/",
    ...extra,
  });
const text = (r: AtpResponse) => new TextDecoder().decode(r.body);

describe("agent host limits", { timeout: 90_000 }, () => {
  let site: AgentSite;
  let host: AgentHost;
  let url: string;
  let clock = 1_000_000;

  async function send(
    method: string,
    uri: string,
    headers: AtpHeaders = [],
    payload?: string,
  ): Promise<AtpResponse> {
    const target = parseAtpUrl(url);
    assert.ok(target.ok);
    return atpRequest(
      target.url,
      { method, uri, headers, ...(payload === undefined ? {} : { body: payload }) },
      { allowPrivate: true },
    );
  }

  before(async () => {
    site = await makeAgentSite();
    host = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: 0,
      assign: ["/home/user1/"],
      limits: {
        maxHeld: 3,
        maxPerSender: 10,
        maxRunning: 1,
        expiryMs: 60_000,
        requestTimeoutMs: 400,
        maxConnections: 3,
        timeMs: 20_000,
      },
      now: () => clock,
    });
    url = await host.listen();
  });
  after(async () => {
    await host.close();
    await site.cleanup();
  });

  it("holds at most maxHeld agents: the next DISPATCH gets 403; finished agents expire", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await send("DISPATCH", "/", HEED, body("heed.emit({})"));
      assert.equal(r.status, 100, text(r));
      ids.push(String(header(r.headers, "agent-id")));
    }
    const full = await send("DISPATCH", "/", HEED, body("heed.emit({})"));
    assert.equal(full.status, 403);
    assert.match(text(full), /holds 3 agents, its limit/);
    // Wait until all three have ended (MESSAGE reports the status without taking the agent).
    for (let i = 0; i < 100; i++) {
      const states = await Promise.all(
        ids.map(
          async (id) =>
            (JSON.parse(text(await send("MESSAGE", `#${id}`))) as { status: string }).status,
        ),
      );
      if (states.every((s) => s === "finished")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(host.sweep(), 0);
    clock += 60_001;
    assert.equal(host.sweep(), 3);
    assert.equal((await send("RETRACT", `#${ids[0]}`)).status, 302);
    const room = await send("DISPATCH", "/", HEED, body("1"));
    assert.equal(room.status, 100);
    await send("RETRACT", `#${header(room.headers, "agent-id")}`);
  });

  it(`MESSAGE: at most ${MAX_MESSAGE_BYTES} bytes a message and ${MAX_MESSAGES_PER_AGENT} messages an agent`, async () => {
    // Runs until it has taken every message it may be sent (or 15 s pass).
    const slow =
      "let n = 0; const until = Date.now() + 15000; while (n < 64 && Date.now() < until) n += heed.receive().length; heed.emit({ n });";
    const r = await send("DISPATCH", "/", HEED, body(slow));
    const id = String(header(r.headers, "agent-id"));
    let running = false;
    for (let i = 0; i < 100 && !running; i++) {
      running =
        (JSON.parse(text(await send("MESSAGE", `#${id}`))) as { status: string }).status ===
        "running";
      if (!running) await new Promise((done) => setTimeout(done, 20));
    }
    assert.ok(running);
    const huge = await send("MESSAGE", `#${id}`, [], JSON.stringify("x".repeat(MAX_MESSAGE_BYTES)));
    assert.equal(huge.status, 301);
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_MESSAGES_PER_AGENT; i++)
      statuses.push((await send("MESSAGE", `#${id}`, [], "1")).status);
    assert.deepEqual(
      statuses.slice(0, MAX_MESSAGES_PER_AGENT),
      Array(MAX_MESSAGES_PER_AGENT).fill(100),
    );
    assert.equal(statuses[MAX_MESSAGES_PER_AGENT], 403);
    const back = JSON.parse(text(await send("RETRACT", `#${id}`))) as { records: { n: number }[] };
    assert.deepEqual(back.records, [{ n: MAX_MESSAGES_PER_AGENT }]);
  });

  it("a request not complete within the request timeout is answered 300 and closed", async () => {
    const target = parseAtpUrl(url);
    assert.ok(target.ok);
    const got = await new Promise<string>((resolve, reject) => {
      const socket = connect(target.url.port, "127.0.0.1");
      let out = "";
      socket.on("data", (c) => (out += c.toString()));
      socket.on("close", () => resolve(out));
      socket.on("error", reject);
      socket.write("DISPATCH / ATP/0.1\r\nAgent-Sys");
    });
    assert.match(got, /^ATP\/0\.1 300 BAD REQUEST\r\n[\s\S]*no complete request within 400 ms/);
  });

  it("at maxConnections the idlest connection gives way: a newcomer is answered", async () => {
    const target = parseAtpUrl(url);
    assert.ok(target.ok);
    const open: Socket[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = connect(target.url.port, "127.0.0.1");
      socket.on("error", () => {});
      await new Promise((resolve) => socket.once("connect", resolve));
      open.push(socket);
    }
    try {
      const closed = new Promise((resolve) => open[0]?.once("close", resolve));
      assert.equal((await send("PING", "/")).status, 100);
      // The oldest silent connection was the one closed to make room.
      await closed;
    } finally {
      for (const s of open) s.destroy();
    }
  });

  it("results are pushed to the sender by MESSAGE; the host then keeps nothing", async () => {
    const inbox = new AgentInbox();
    const box = await inbox.listen();
    try {
      const index = await dispatchAgent(url, {
        site: SITE,
        path: "/home/user1/",
        robot: "HeedBot",
        userAgent: "HeedBot/1",
        allowPrivate: true,
        inbox: { box: inbox, url: box },
        pushTimeoutMs: 20_000,
      });
      assert.equal(index.status, "finished");
      // No robots.txt in this site's root: private/p.html is open to robots here.
      assert.equal(index.records.length, 4);
      for (let i = 0; i < 50 && host.counts().held > 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(host.counts(), { held: 0, running: 0, queued: 0 });
    } finally {
      await inbox.close();
    }
  });

  it("a replyTo that is not the sender's own address is refused", async () => {
    const r = await send("DISPATCH", "/", HEED, body("1", { replyTo: "atp://10.1.2.3:434" }));
    assert.equal(r.status, 301);
    assert.match(text(r), /replyTo must name the sender's own address/);
  });
});
