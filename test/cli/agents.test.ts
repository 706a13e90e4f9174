// seeds/000's example end to end through the CLI as users run it: a site with three subtrees
// served over HTTP, two `heed agents host` processes on 127.0.0.1 named by the site's
// Mobile-agent-server records, and `heed agents resolve` and `heed agents dispatch` against them.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type AgentSite, makeAgentSite, seedRobots } from "../helpers/agent-site.js";
import { jsonLines, type RunningCli, runCli, spawnCli } from "../helpers/run-cli.js";
import { freePorts, type StaticSite, serveDirectory } from "../helpers/static-site.js";

const START_TIMEOUT_MS = 10_000;

/** Resolves when the host has printed its address; rejects if it exits first. */
function started(host: RunningCli): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`agent host did not start: ${out}`)),
      START_TIMEOUT_MS,
    );
    host.child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    void host.done.then((r) => reject(new Error(`agent host exited ${r.code}: ${r.stderr}`)));
  });
}

describe("heed agents, seeds/000's example", { timeout: 120_000 }, () => {
  let site: AgentSite;
  let http: StaticSite;
  let hosts: RunningCli[] = [];
  let user1: string;
  let user2: string;

  before(async () => {
    site = await makeAgentSite();
    const [p1, p2] = await freePorts(2);
    user1 = `atp://127.0.0.1:${p1}`;
    user2 = `atp://127.0.0.1:${p2}`;
    http = await serveDirectory(site.root, seedRobots(user1, user2));
    hosts = [p1, p2].map((port) =>
      spawnCli(
        [
          "agents",
          "host",
          "--root",
          site.root,
          "--listen",
          `127.0.0.1:${port}`,
          "--site",
          http.origin,
        ],
        { timeoutMs: 110_000 },
      ),
    );
    const lines = await Promise.all(hosts.map(started));
    assert.equal(lines[0], `listening on ${user1}; agents accepted for /home/user1/\n`);
    assert.equal(lines[1], `listening on ${user2}; agents accepted for /home/user2/\n`);
  });
  after(async () => {
    for (const host of hosts) host.child.kill("SIGTERM");
    const ends = await Promise.all(hosts.map((h) => h.done));
    for (const end of ends) assert.equal(end.code, 0, end.stderr);
    // ATP's From field reached the host, which logs who answers for the robot.
    assert.match(
      ends[0]?.stderr ?? "",
      /\(HeedBot, bot@example\.org\) for http:\/\/127\.0\.0\.1:\d+\/home\/user1\//,
    );
    await http.close();
    await site.cleanup();
  });

  it("resolve: the seed's table over the site's own robots.txt", async () => {
    const paths = [
      "/index.html",
      "/services/",
      "/home/",
      "/home/user1/index.html",
      "/home/user2/",
      "/home/user3/index.html",
    ];
    const run = await runCli([
      "agents",
      "resolve",
      `${http.origin}/robots.txt`,
      "--json",
      ...paths.flatMap((p) => ["--url", p]),
    ]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(
      jsonLines(run.stdout).map((r) => r.host),
      [null, null, null, user1, user2, null],
    );
  });

  it("dispatch indexes /home/user1/ and /home/user2/ on their hosts; no page crosses the network", async () => {
    const before = http.requests.length;
    const one = await runCli([
      "agents",
      "dispatch",
      user1,
      "--site",
      http.origin,
      "--path",
      "/home/user1/",
      "--agent",
      "HeedBot",
      "--from",
      "bot@example.org",
    ]);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(
      jsonLines(one.stdout).map((r) => r.url),
      ["/home/user1/index.html", "/home/user1/notes.txt", "/home/user1/sub/a.html"].map(
        (p) => http.origin + p,
      ),
    );
    assert.match(one.stderr, /finished on atp:\/\/127\.0\.0\.1:\d+: 3 pages/);
    const two = await runCli([
      "agents",
      "dispatch",
      user2,
      "--site",
      http.origin,
      "--path",
      "/home/user2/",
    ]);
    assert.equal(two.code, 0, two.stderr);
    assert.deepEqual(
      jsonLines(two.stdout).map((r) => r.title),
      ["B", "User two"],
    );
    assert.deepEqual(http.requests.slice(before), []);
  });

  it("a host refuses a path it is not assigned (exit 1); an unreachable host is exit 2", async () => {
    const wrong = await runCli([
      "agents",
      "dispatch",
      user1,
      "--site",
      http.origin,
      "--path",
      "/home/user3/",
    ]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /301 FORBIDDEN.*not assigned to this host/);
    const [closed] = await freePorts(1);
    const gone = await runCli([
      "agents",
      "dispatch",
      `atp://127.0.0.1:${closed}`,
      "--site",
      http.origin,
      "--path",
      "/home/user1/",
    ]);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /cannot reach 127\.0\.0\.1/);
    const bad = await runCli(["agents", "dispatch", "http://127.0.0.1:1", "--site", http.origin]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not an ATP URL/);
    const from = await runCli([
      "agents",
      "dispatch",
      user1,
      "--site",
      http.origin,
      "--from",
      "nobody",
    ]);
    assert.equal(from.code, 2);
    assert.match(from.stderr, /--from: expected an e-mail address/);
  });

  it("a host with --site refuses agents for another site", async () => {
    const run = await runCli([
      "agents",
      "dispatch",
      user1,
      "--site",
      "http://elsewhere.example",
      "--path",
      "/home/user1/",
    ]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /this host serves http:\/\/127\.0\.0\.1:\d+, not http:\/\/elsewhere\.example/,
    );
  });

  it("--help describes every option", async () => {
    const host = await runCli(["agents", "host", "--help"]);
    for (const flag of [
      "--root",
      "--listen",
      "--site",
      "--assign",
      "--time-limit",
      "--memory-limit",
      "--max-running",
      "--max-per-sender",
      "--allow-private",
      "--quiet",
    ]) {
      assert.ok(host.stdout.includes(flag), flag);
    }
    const dispatch = await runCli(["agents", "dispatch", "--help"]);
    for (const flag of ["--site", "--path", "--agent", "--from", "--max-pages", "--allow-private"])
      assert.ok(dispatch.stdout.includes(flag), flag);
  });

  it("heed crawl --agents: user1 and user2 through their hosts, the rest over HTTP, an unreachable host falls back", async () => {
    const [closed] = await freePorts(1);
    // A record after the seed's for /home/user3/, naming a host that is not there.
    // A record for /services/ naming user1's host, which was not assigned it when it started: it refuses.
    http.robots = `${seedRobots(user1, user2)}Mobile-agent-server: /home/user3/ atp://127.0.0.1:${closed}\nMobile-agent-server: /services/ ${user1}\n`;
    const dir = await mkdtemp(join(tmpdir(), "heed-agents-crawl-"));
    try {
      const store = join(dir, "crawl.db");
      const before = http.requests.length;
      const seeds = ["/", "/home/user1/", "/home/user3/"].map((p) => http.origin + p);
      const run = await runCli(
        [
          "crawl",
          ...seeds,
          "--agent",
          "HeedBot",
          "--agents",
          "--store",
          store,
          "--json",
          "--quiet",
        ],
        { timeoutMs: 60_000 },
      );
      assert.equal(run.code, 0, run.stderr);
      const summary = JSON.parse(run.stdout) as { fetched: number };
      const exported = await runCli(["export", "--store", store, "--format", "jsonl"]);
      const log = jsonLines(exported.stdout);
      const outcome = (path: string) => log.find((r) => r.url === http.origin + path)?.outcome;
      const pathsOf = (name: string) =>
        log
          .filter((r) => r.outcome === name)
          .map((r) => new URL(String(r.url)).pathname)
          .sort();
      assert.deepEqual(pathsOf("indexed-by-agent"), [
        "/home/user1/",
        "/home/user1/index.html",
        "/home/user1/notes.txt",
        "/home/user1/sub/a.html",
        "/home/user2/",
        "/home/user2/b.html",
        "/home/user2/index.html",
      ]);
      assert.deepEqual(pathsOf("fetched"), ["/", "/home/user3/", "/services/"]);
      assert.equal(outcome("/home/user1/private/p.html"), undefined);
      assert.equal(summary.fetched, 10);
      // The site's server saw robots.txt and the HTTP pages only: nothing under user1 or user2.
      const seen = http.requests.slice(before);
      assert.deepEqual(
        seen.filter((p) => p.startsWith("/home/user1") || p.startsWith("/home/user2")),
        [],
      );
      assert.ok(seen.includes("/home/user3/"));
      const unavailable = log.filter((r) => r.outcome === "agent-unavailable");
      assert.deepEqual(unavailable.map((r) => String(r.detail).replace(/\(.*\)/, "(…)")).sort(), [
        "no agent for /home/user3/ (…); fetching over HTTP",
        "no agent for /services/ (…); fetching over HTTP",
      ]);
      assert.match(
        String(unavailable.find((r) => String(r.detail).includes("/home/user3/"))?.detail),
        /cannot reach/,
      );
      assert.match(
        String(unavailable.find((r) => String(r.detail).includes("/services/"))?.detail),
        /301 FORBIDDEN/,
      );
      assert.deepEqual(
        log
          .filter((r) => r.outcome === "agent-index")
          .map((r) => r.url)
          .sort(),
        [user1, user2].sort(),
      );
      // heed report counts HTTP requests only, as the site's own log does (the three pages,
      // robots.txt and the sitemap probe), not the pages agents indexed.
      const report = await runCli(["report", "--store", store, "--json"]);
      assert.equal(
        (JSON.parse(report.stdout) as { overall: { requests: number } }).overall.requests,
        seen.length,
        seen.join(" "),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
      http.robots = seedRobots(user1, user2);
    }
  });
});
