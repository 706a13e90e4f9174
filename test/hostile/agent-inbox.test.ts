// issue 27: the robot's agent inbox (crawler/agents/inbox.ts, where agent hosts push results by
// MESSAGE) is under the connection policy like the agent host (row 1): attackers on many
// loopback addresses hold sockets silent, half-sent or answered, and a well-behaved push from
// another address is still taken. Limits are lowered so that a few sockets fill the inbox;
// deadlines are generous and nothing asserts how fast the inbox answered.
import assert from "node:assert/strict";
import type { Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { AgentInbox, INBOX_ANSWERED_LINGER_MS } from "../../src/crawler/agents/inbox.js";
import { HEED_AGENT_SYSTEM } from "../../src/protocol/atp/agent-package.js";
import { writeRequest } from "../../src/protocol/atp/writer.js";
import { attacker, exchange } from "../helpers/loopback-clients.js";

/** A heed agent's report for agent `id`, pushed as the agent host does. */
function push(id: string): Buffer {
  return Buffer.from(
    writeRequest({
      method: "MESSAGE",
      uri: `/#${id}`,
      headers: [
        ["Agent-System", HEED_AGENT_SYSTEM],
        ["Agent-Id", id],
      ],
      body: JSON.stringify({ id, records: [], state: null }),
    }),
  );
}

/** Sends `wire` from `from`: the status line of the answer, or why none came. */
async function statusOf(port: number, wire: Buffer, from: string): Promise<string> {
  const text = await exchange(port, wire, from, /\r\n/);
  return text.split("\r\n")[0] ?? text;
}

/** A socket from `from` that writes `wire` and keeps its side open after the answer. */
const holder = (port: number, from: string, wire: string | Buffer): Promise<Socket> =>
  attacker(port, from, wire, true);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("the agent inbox holds while attackers hold connections", { timeout: 120_000 }, () => {
  const inbox = new AgentInbox(undefined, { total: 16, perAddress: 4 });
  let port = 0;
  before(async () => {
    port = Number(new URL((await inbox.listen()).replace(/^atp:/, "http:")).port);
  });
  after(() => inbox.close());

  it("16 sockets from 4 addresses, silent, half-sent or answered and held: a push from another address is taken", async () => {
    const held = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        holder(
          port,
          `127.0.75.${(i % 4) + 1}`,
          i % 3 === 0 ? "" : i % 3 === 1 ? "MESSAGE /a ATP/0.1\r\n" : push(`held-${i}`),
        ),
      ),
    );
    try {
      await sleep(1_500);
      const answers: string[] = [];
      for (let round = 0; round < 4; round++) {
        const id = `good-${round}`;
        const taken = inbox.wait(id, 30_000);
        answers.push(await statusOf(port, push(id), "127.0.9.9"));
        assert.deepEqual((await taken)?.id, id);
      }
      assert.deepEqual(answers, Array(4).fill("ATP/0.1 100 OKAY"));
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it("an address over its share is closed unanswered", async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => holder(port, "127.0.75.9", "")));
    try {
      const fifth = await statusOf(port, push("fifth"), "127.0.75.9");
      assert.match(fifth, /^(closed without an answer|read ECONNRESET)$/);
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it("answered sockets whose peers keep them open are destroyed shortly after the answer", async () => {
    const held = await Promise.all(
      Array.from({ length: 8 }, (_, i) => holder(port, `127.0.75.${20 + (i % 2)}`, push(`a-${i}`))),
    );
    try {
      // Generous: the linger, then the close reaching the table.
      for (let i = 0; i < 100 && inbox.open() > 0; i++) await sleep(100);
      assert.equal(inbox.open(), 0, `${inbox.open()} held after ${INBOX_ANSWERED_LINGER_MS} ms`);
    } finally {
      for (const s of held) s.destroy();
    }
  });
});
