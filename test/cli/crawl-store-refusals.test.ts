// A Redis that refuses writes (out of memory under noeviction, a read-only replica, a failed
// snapshot with stop-writes-on-bgsave-error) or stops answering with its connection open ends
// the crawl with exit 3 and the server's own words, within --store-wait: it no longer spins on
// failing calls, silently, forever. The site's log shows no page fetched after the crawl knew.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { sleep } from "../../src/crawler/sleep.js";
import { freePorts } from "../helpers/static-site.js";
import { startRedisServer, type RedisServer } from "../helpers/redis-server.js";
import { spawnCli } from "../helpers/run-cli.js";
import { startSite } from "../helpers/synthetic-site.js";

interface Case {
  readonly name: string;
  /** Extra redis-server options. */
  readonly args?: (dir: string) => string[];
  /** Breaks the running server. */
  readonly breakIt: (redis: Redis, server: RedisServer, dir: string) => Promise<void>;
  readonly said: RegExp;
}

const cases: readonly Case[] = [
  {
    name: "out of memory (maxmemory, noeviction)",
    breakIt: async (redis) => {
      await redis.config("SET", "maxmemory-policy", "noeviction");
      await redis.config("SET", "maxmemory", "1");
    },
    said: /refuses writes: out of memory: OOM command not allowed/,
  },
  {
    name: "read-only (made a replica)",
    breakIt: async (redis) => {
      const [closed] = await freePorts(1);
      await redis.call("REPLICAOF", "127.0.0.1", String(closed));
    },
    said: /refuses writes: read-only: READONLY/,
  },
  {
    name: "unable to save (a snapshot that failed)",
    args: (dir) => ["--dir", dir, "--save", "3600 1"],
    breakIt: async (redis, _server, dir) => {
      await rm(dir, { recursive: true, force: true });
      await redis.bgsave();
      // The snapshot fails in its child process; writes are refused once the server knows.
      for (let i = 0; i < 100; i++) {
        const info = await redis.info("persistence");
        if (/rdb_last_bgsave_status:err/.test(info)) return;
        await sleep(50);
      }
    },
    said: /refuses writes: cannot save its data: MISCONF/,
  },
  {
    name: "stopped with its connection open (SIGSTOP)",
    breakIt: async (_redis, server) => {
      process.kill(server.pid, "SIGSTOP");
    },
    said: /answered nothing for 3 s with its connection open/,
  },
];

describe(
  "heed crawl on a Redis that refuses writes or stops answering",
  { concurrency: true, timeout: 150_000 },
  () => {
    for (const c of cases) {
      it(`${c.name}: exit 3 with the server's words, nothing fetched after`, async () => {
        const dir = await mkdtemp(join(tmpdir(), "heed-redis-refuses-"));
        const server = await startRedisServer({ args: c.args?.(dir) ?? [] });
        const admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
        const site = await startSite({ pages: 60, robots: "User-agent: *\nCrawl-delay: 0.3\n" });
        try {
          const run = spawnCli(
            ["crawl", `${site.origin}/`, "--agent", "heedtest", "--store-wait", "3"].concat([
              "--store",
              `${server.url}#refuse:`,
            ]),
            { timeoutMs: 90_000 },
          );
          for (let i = 0; i < 400 && site.log.length < 4; i++) await sleep(50);
          assert.ok(site.log.length >= 4, "the crawl never got going");
          await c.breakIt(admin, server, dir);
          const broken = site.log.length;
          const done = await run.done;
          assert.equal(done.code, 3, done.stderr);
          assert.match(done.stderr, c.said);
          assert.doesNotMatch(done.stderr, /\n\s+at /, "no stack trace");
          // At most the exchange in flight when the store broke.
          assert.ok(site.log.length <= broken + 1, `${site.log.length - broken} fetched after`);
        } finally {
          if (c.name.includes("SIGSTOP")) spawnSync("kill", ["-CONT", String(server.pid)]);
          admin.disconnect();
          await site.close();
          await server.stop();
          await rm(dir, { recursive: true, force: true });
        }
      });
    }
  },
);
