// Every request to a site takes the one shared reservation (DESIGN §2), not only robots.txt,
// sitemaps and pages: the catalog step of `heed crawl --datasets` and RUP actions (`heed rup
// register`, `heed rup seq`) run by other processes on the same Redis store keep the site's
// Crawl-delay with the crawl's pages. The site's own log of arrival times is the evidence.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { crawlArgs, runCli } from "../helpers/run-cli.js";
import { redisForFile } from "../helpers/redis-server.js";

const DELAY_MS = 400;
const ROBOTS = `User-agent: *\nCrawl-delay: ${DELAY_MS / 1000}\n`;

interface Arrival {
  readonly path: string;
  readonly at: number;
}

/** A site answering every kind of request heed makes, logging when each arrived. */
async function startSite() {
  const log: Arrival[] = [];
  const pages = Array.from({ length: 6 }, (_, i) => `/p/${i}.html`);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    log.push({ path, at: Date.now() });
    const send = (body: string, type = "text/plain") => {
      res.writeHead(200, { "content-type": type });
      res.end(body);
    };
    if (path === "/robots.txt") return send(ROBOTS);
    if (path === "/")
      return send(pages.map((p) => `<a href="${p}">${p}</a>`).join(" "), "text/html");
    if (pages.includes(path)) return send("<p>page</p>", "text/html");
    if (path === "/data.txt") return send("- path: /a.csv\n  name: a\n- path: /b.csv\n  name: b\n");
    if (path === "/rupinfo.txt") return send("RUP-CGI: /rup\nAuthentifier: none\nLatency: day\n");
    if (path === "/rup") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        const action = new URLSearchParams(body).get("Action") ?? "";
        send(action === "Register" ? "RegistrationKey: k-1\n" : "SequenceNumber=0\n");
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every gap between two requests the site saw, start to start, is at least the Crawl-delay. */
function assertGaps(log: readonly Arrival[]): void {
  for (let i = 1; i < log.length; i++) {
    const gap = log[i]!.at - log[i - 1]!.at;
    assert.ok(
      gap >= DELAY_MS - TOLERANCE_MS,
      `${log[i]!.path} came ${gap} ms after ${log[i - 1]!.path} (Crawl-delay ${DELAY_MS} ms); log: ${log
        .map((r) => `${r.path}@${r.at - log[0]!.at}`)
        .join(" ")}`,
    );
  }
}

const redis = redisForFile();

async function redisStore(name: string): Promise<string> {
  return `${await redis.url()}#heed-exchanges-${name}:${process.pid}:`;
}

describe("datasets and RUP exchanges share the site's reservation", { timeout: 150_000 }, () => {
  it("two `heed crawl --datasets` on one Redis store: no gap below Crawl-delay", async () => {
    const store = await redisStore("datasets");
    const site = await startSite();
    try {
      const args = crawlArgs(
        `${site.origin}/`,
        store,
        "--datasets",
        "--no-sitemaps",
        "--quiet",
        "--json",
      );
      const [a, b] = await Promise.all([
        runCli(args, { timeoutMs: 100_000 }),
        runCli(args, { timeoutMs: 100_000 }),
      ]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      // Each process read the catalog after its pages: both steps are in the log.
      assert.equal(site.log.filter((r) => r.path === "/data.txt").length, 2);
      assertGaps(site.log);
    } finally {
      await site.close();
    }
  });

  it("RUP actions beside a crawl on one Redis store: no gap below Crawl-delay", async () => {
    const store = await redisStore("rup");
    const site = await startSite();
    try {
      const crawl = runCli(crawlArgs(`${site.origin}/`, store, "--quiet", "--json"), {
        timeoutMs: 100_000,
      });
      const rup = (async () => {
        const common = ["--store", store, "--agent", "heedtest"];
        const reg = await runCli(
          ["rup", "register", `${site.origin}/`, "--email", "bot@robot.test", ...common],
          { timeoutMs: 60_000 },
        );
        assert.equal(reg.code, 0, reg.stderr);
        for (let i = 0; i < 2; i++) {
          const seq = await runCli(["rup", "seq", `${site.origin}/`, ...common], {
            timeoutMs: 60_000,
          });
          assert.equal(seq.code, 0, seq.stderr);
        }
      })();
      const [done] = await Promise.all([crawl, rup]);
      assert.equal(done.code, 0, done.stderr);
      assert.equal(site.log.filter((r) => r.path === "/rup").length, 3, "register and two seqs");
      assertGaps(site.log);
    } finally {
      await site.close();
    }
  });
});
