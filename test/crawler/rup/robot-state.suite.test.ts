// One contract for the robot's RUP state, run against both back ends: the SQLite file and a
// real redis-server (as the crawl store's own suite is, DESIGN §2).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openRobotState } from "../../../src/crawler/rup/open-robot-state.js";
import type { RobotState, SiteRegistration } from "../../../src/crawler/rup/robot-state.js";
import { clusterForFile } from "../../helpers/redis-cluster.js";
import { redisForFile } from "../../helpers/redis-server.js";

const SITE: SiteRegistration = {
  origin: "http://site.test",
  urlBase: "http://site.test/",
  cgiUrl: "http://site.test/cgi-bin/rup",
  email: "robot@robot.test",
  key: "k3y",
  latency: "1-day",
  maxQuerySpanMs: 2_592_000_000,
  spanUnit: "day",
  lastSeq: 0,
  lastReportAt: 1_795_000_000_000,
  registeredAt: 1_795_000_000_000,
};

function contract(name: string, open: (n: number) => Promise<RobotState>): void {
  describe(`robot state: ${name}`, () => {
    let n = 0;
    const fresh = () => open(++n);

    it("keeps a registration, every field as saved; null fields too", async () => {
      const s = await fresh();
      try {
        await s.save(SITE);
        assert.deepEqual(await s.site(SITE.origin), SITE);
        const bare = { ...SITE, origin: "http://b.test", latency: null, maxQuerySpanMs: null };
        await s.save(bare);
        assert.deepEqual(await s.site("http://b.test"), bare);
        assert.deepEqual(
          (await s.sites()).map((r) => r.origin),
          ["http://b.test", "http://site.test"],
        );
        assert.equal(await s.site("http://none.test"), null);
        await s.remove("http://b.test");
        assert.equal(await s.site("http://b.test"), null);
      } finally {
        await s.close();
      }
    });

    it("took: moves the sequence number on, never back; duplicates move nothing", async () => {
      const s = await fresh();
      try {
        await s.save(SITE);
        const origin = SITE.origin;
        await s.took({ origin, seq: 3, receivedAt: 10, outcome: "recovered", detail: "d" }, [
          { url: "http://site.test/a", at: 5 },
        ]);
        assert.equal((await s.site(origin))?.lastSeq, 3);
        assert.equal((await s.site(origin))?.lastReportAt, 10);
        await s.took({ origin, seq: 2, receivedAt: 20, outcome: "duplicate", detail: null }, []);
        assert.equal((await s.site(origin))?.lastSeq, 3);
        assert.equal((await s.site(origin))?.lastReportAt, 10);
        assert.deepEqual(
          (await s.reports(origin)).map((r) => `${r.seq} ${r.outcome}`),
          ["3 recovered", "2 duplicate"],
        );
        assert.deepEqual(await s.gone(origin), ["http://site.test/a"]);
        await s.back(["http://site.test/a"]);
        assert.deepEqual(await s.gone(origin), []);
      } finally {
        await s.close();
      }
    });
  });
}

let tmp: string;
const redis = redisForFile();
before(async () => {
  tmp = await mkdtemp(join(tmpdir(), "heed-robot-state-suite-"));
});
after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

contract("SQLite", (n) => openRobotState(join(tmp, `state-${n}.db`)));
contract("Redis", async (n) => openRobotState(`${await redis.url()}#suite-${n}:`));
// `heed rup` on a cluster store: the state beside the crawl's, in the prefix's hash slot.
const cluster = clusterForFile();
contract("Redis Cluster", async (n) => openRobotState(`${await cluster.url()}#suite-${n}:`));
