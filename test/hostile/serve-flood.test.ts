// issue 14 §4: `heed serve` under a bounded flood of idle connections, from one address and
// from many (127.0.x.y rotation). Connections are limited per address and in total; the
// idlest connection makes room for a newcomer, so well-behaved clients are still answered.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DEFAULT_CONNECTION_LIMITS } from "../../src/site/connection-limits.js";
import { startSiteServer, type SiteServer } from "../../src/site/site-server.js";

/** A GET from a chosen source address; status, or the error's message. */
function get(url: string, path: string, from: string): Promise<number | string> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const req = request(
      { host: u.hostname, port: u.port, path, localAddress: from, agent: false },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", (e) => resolve(e.message));
    req.setTimeout(20_000, () => req.destroy(new Error("no answer within 20 s")));
    req.end();
  });
}

/** Opens an idle connection from `from`; resolves once connected (or refused). */
function idle(port: number, from: string): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect({ port, host: "127.0.0.1", localAddress: from });
    s.on("error", () => resolve(s));
    s.on("connect", () => resolve(s));
  });
}

describe("heed serve under a flood", { timeout: 120_000 }, () => {
  let dir: string;
  let server: SiteServer;
  let port: number;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-flood-"));
    await writeFile(join(dir, "index.html"), "home");
    server = await startSiteServer({
      root: dir,
      connections: { total: 40, perAddress: 4, idleMs: 60_000 },
    });
    port = Number(new URL(server.url).port);
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("has limits by default", () => {
    assert.ok(DEFAULT_CONNECTION_LIMITS.total <= 1024);
    assert.ok(DEFAULT_CONNECTION_LIMITS.perAddress <= 64);
  });

  it("one address holds at most perAddress connections; others are served", async () => {
    const held = await Promise.all(Array.from({ length: 10 }, () => idle(port, "127.0.0.9")));
    try {
      await new Promise((r) => setTimeout(r, 100));
      const alive = held.filter((s) => !s.destroyed).length;
      assert.equal(alive, 4, `${alive} of 10 connections from one address left open`);
      assert.equal(await get(server.url, "/index.html", "127.0.0.10"), 200);
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it("a flood of idle sockets from 200 addresses does not lock a well-behaved client out", async () => {
    const flood: Socket[] = [];
    try {
      // 200 addresses × 2 idle sockets: ten times the total limit.
      for (let a = 0; a < 200; a++) {
        const from = `127.0.${10 + Math.floor(a / 100)}.${(a % 100) + 1}`;
        flood.push(await idle(port, from), await idle(port, from));
      }
      const answers: (number | string)[] = [];
      for (let i = 0; i < 10; i++) answers.push(await get(server.url, "/index.html", "127.0.5.5"));
      assert.deepEqual(answers, Array(10).fill(200));
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(flood.filter((s) => !s.destroyed).length <= 40);
    } finally {
      for (const s of flood) s.destroy();
    }
  });
});
