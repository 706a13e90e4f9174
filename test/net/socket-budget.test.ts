// The socket cap over all sites (socket-budget.ts), against real servers on 127.0.0.1 that keep
// idle connections open and count the ones open: at the cap the least recently used site's idle
// socket is closed first, and when every socket is busy a new site waits for one.
import assert from "node:assert/strict";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createHttpClient, type HttpClient } from "../../src/net/http-client.js";
import {
  defaultMaxSockets,
  MAX_DEFAULT_SOCKETS,
  MIN_DEFAULT_SOCKETS,
  readOpenFilesLimit,
} from "../../src/net/open-files.js";

interface CountingSite {
  readonly origin: string;
  /** Connections open now, as the server sees them. */
  open(): number;
  /** Holds the answers of "/slow" until called. */
  release(): void;
}

const servers: Server[] = [];

async function countingSite(name: string): Promise<CountingSite> {
  let open = 0;
  const held: ServerResponse[] = [];
  let holding = true;
  const server = createServer((req, res) => {
    if (req.url === "/slow" && holding) {
      held.push(res);
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(name);
  });
  server.keepAliveTimeout = 60_000;
  server.on("connection", (socket) => {
    open++;

    socket.on("close", () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => open,
    release: () => {
      holding = false;
      for (const res of held.splice(0)) res.end(name);
    },
  };
}

/** Waits, at most two seconds, until `condition` holds; the servers see closes a moment late. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await sleep(20);
  assert.ok(condition(), what);
}

async function get(client: HttpClient, url: string): Promise<number | string> {
  const result = await client.fetchPage(url);
  return result.kind === "response" ? result.status : result.code;
}

after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

describe("the socket cap over all sites", { timeout: 30_000 }, () => {
  it("at the cap, the least recently used site's idle socket is closed first", async () => {
    const sites = await Promise.all(["a", "b", "c", "d"].map(countingSite));
    const [a, b, c, d] = sites as [CountingSite, CountingSite, CountingSite, CountingSite];
    const client = createHttpClient({
      userAgent: "heedtest",
      allowPrivateAddresses: true,
      maxSockets: 3,
    });
    try {
      for (const site of [a, b, c]) assert.equal(await get(client, `${site.origin}/`), 200);
      await eventually(() => a.open() + b.open() + c.open() === 3, "three sockets kept open");
      // a is used again: b is now the least recently used.
      assert.equal(await get(client, `${a.origin}/`), 200);
      assert.equal(await get(client, `${d.origin}/`), 200);
      await eventually(() => b.open() === 0, "b's idle socket closed");
      assert.deepEqual(
        sites.map((site) => site.open()),
        [1, 0, 1, 1],
      );
    } finally {
      await client.close();
    }
  });

  it("with every socket busy, a new site waits for one to be free", async () => {
    const slow = await countingSite("slow");
    const next = await countingSite("next");
    const client = createHttpClient({
      userAgent: "heedtest",
      allowPrivateAddresses: true,
      maxSockets: 1,
    });
    try {
      const first = get(client, `${slow.origin}/slow`);
      await eventually(() => slow.open() === 1, "the slow site connected");
      const second = get(client, `${next.origin}/`);
      await sleep(300);
      assert.equal(next.open(), 0, "no second socket while the first is busy");
      slow.release();
      assert.deepEqual(await Promise.all([first, second]), [200, 200]);
      assert.equal(slow.open(), 0);
    } finally {
      await client.close();
    }
  });
});

describe("the default cap, from the open-files limit", () => {
  // The text of /proc/self/limits (Linux), as proc(5) shows it.
  const limits = (soft: string) =>
    "Limit                     Soft Limit           Hard Limit           Units     \n" +
    "Max cpu time              unlimited            unlimited            seconds   \n" +
    `Max open files            ${soft}                 524288               files     \n`;
  for (const [soft, read, cap] of [
    ["1024", 1024, 768],
    ["256", 256, 192],
    ["8", 8, MIN_DEFAULT_SOCKETS],
    ["unlimited", Number.POSITIVE_INFINITY, MAX_DEFAULT_SOCKETS],
    ["1048576", 1048576, MAX_DEFAULT_SOCKETS],
  ] as const) {
    it(`a soft limit of ${soft} gives a cap of ${cap}`, () => {
      assert.equal(readOpenFilesLimit(limits(soft)), read);
      assert.equal(defaultMaxSockets(read), cap);
    });
  }
  it("a text without the line gives no limit (the usual default is then assumed)", () => {
    assert.equal(readOpenFilesLimit("Max processes 100 100 processes\n"), null);
  });
});
