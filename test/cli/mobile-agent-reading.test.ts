// One reading of Mobile-agent-server (DESIGN §5: the last line in file order whose path is a
// prefix of the URL's path wins), shared by `heed lint`, `heed agents resolve` and the agent
// host: every case of seeds/000 (§3.1's example, §4's table, the record's word for
// /home/user2/) and the file a first try met (`/blog/ atp://…` before `/ none`), asked of all three.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { atpRequest } from "../../src/net/atp-client.js";
import { HEED_AGENT_CONTENT_TYPE, parseAtpUrl } from "../../src/protocol/atp/index.js";
import { parseMobileAgentServers } from "../../src/protocol/robots/index.js";
import { AgentHost } from "../../src/site/agent-host/host.js";
import { makeAgentSite, type AgentSite } from "../helpers/agent-site.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

interface Case {
  readonly name: string;
  readonly robots: string;
  /** URL → the host that takes its agents, or null. */
  readonly table: readonly (readonly [url: string, host: string | null])[];
  /** Lines lint must call shadowed (never applies). */
  readonly shadowed: readonly number[];
}

const CASES: readonly Case[] = [
  {
    name: "seeds/000 §4",
    robots: [
      "Mobile-agent-server: /             atp://www.fict.org:8001",
      "Mobile-agent-server: /home/        none",
      "Mobile-agent-server: /home/user1/  atp://user1.fict.org:854",
      "Mobile-agent-server: /home/user2/  atp://user2.fict.org:831",
    ].join("\n"),
    table: [
      ["http://www.fict.org/index.html", "atp://www.fict.org:8001"],
      ["http://www.fict.org/services/", "atp://www.fict.org:8001"],
      ["http://www.fict.org/services/index.html", "atp://www.fict.org:8001"],
      ["http://www.fict.org/robots.txt", "atp://www.fict.org:8001"],
      ["http://www.fict.org/home/", null],
      ["http://www.fict.org/home/user1/", "atp://user1.fict.org:854"],
      ["http://www.fict.org/home/user1/index.html", "atp://user1.fict.org:854"],
      // The draft's table prints user1.fict.org:831 here; its record says user2 (DESIGN §5).
      ["http://www.fict.org/home/user2/", "atp://user2.fict.org:831"],
      ["http://www.fict.org/home/user2/index.html", "atp://user2.fict.org:831"],
      ["http://www.fict.org/home/user3/", null],
      ["http://www.fict.org/home/user3/index.html", null],
    ],
    shadowed: [],
  },
  {
    name: "seeds/000 §3.1",
    robots: [
      "Mobile-agent-server: /          none",
      "Mobile-agent-server: /dir1      atp://www.fict.org:544",
      "Mobile-agent-server: /dir1/dir2 atp://www.fict.org:543",
    ].join("\n"),
    table: [
      ["http://www.fict.org/x", null],
      ["http://www.fict.org/dir1/a", "atp://www.fict.org:544"],
      ["http://www.fict.org/dir1/dir2/b", "atp://www.fict.org:543"],
    ],
    shadowed: [],
  },
  {
    name: "a later, shorter line takes the path away (§3.1: more recent lines override)",
    robots: [
      "Mobile-agent-server: /blog/ atp://127.0.0.1:27434",
      "Mobile-agent-server: /      none",
    ].join("\n"),
    table: [
      ["http://www.fict.org/blog/post-1.html", null],
      ["http://www.fict.org/blog/", null],
      ["http://www.fict.org/", null],
    ],
    shadowed: [1],
  },
];

describe("Mobile-agent-server: one reading for lint, agents resolve and the agent host", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-mas-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  CASES.forEach((c, i) => {
    it(`${c.name}: heed agents resolve`, async () => {
      const file = join(dir, `robots-${i}.txt`);
      await writeFile(file, `${c.robots}\n`);
      const r = await runCli([
        "agents",
        "resolve",
        file,
        ...c.table.flatMap(([url]) => ["--url", url]),
        "--json",
      ]);
      assert.deepEqual(
        jsonLines(r.stdout).map((l) => [l.url, l.host]),
        c.table.map(([url, host]) => [url, host]),
      );
    });

    it(`${c.name}: an agent host takes exactly the paths resolved to it`, () => {
      const servers = parseMobileAgentServers(c.robots);
      const hosts = new Set(c.table.map(([, host]) => host).filter((h) => h !== null));
      hosts.add("atp://127.0.0.1:27434");
      for (const [url, expected] of c.table) {
        for (const host of hosts) {
          assert.equal(servers.names(url, host), host === expected, `${host} for ${url}`);
        }
      }
    });

    it(`${c.name}: heed lint calls shadowed exactly the lines that never decide`, async () => {
      const file = join(dir, `robots-lint-${i}.txt`);
      await writeFile(file, `User-agent: *\nDisallow:\n\n${c.robots}\n`);
      const r = await runCli(["lint", file, "--json"]);
      const report = JSON.parse(r.stdout) as { findings: { line: number; code: string }[] };
      const lines = report.findings
        .filter((f) => f.code === "agent-server-shadowed")
        .map((f) => f.line - 3);
      assert.deepEqual(lines, c.shadowed);
    });
  });
});

describe("the agent host with `/blog/ atp://…` before `/ none`", { timeout: 60_000 }, () => {
  let site: AgentSite;
  let host: AgentHost;
  let url: string;
  before(async () => {
    site = await makeAgentSite();
    // Learn a free port, then name it in robots.txt and listen there again.
    const probe = new AgentHost({ root: site.root, host: "127.0.0.1", port: 0 });
    url = await probe.listen();
    await probe.close();
    await writeFile(
      join(site.root, "robots.txt"),
      `User-agent: *\nDisallow:\n\nMobile-agent-server: /home/ ${url}\nMobile-agent-server: / none\n`,
    );
    host = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: Number(url.split(":")[2]),
      allowPrivate: true,
    });
    await host.listen();
  });
  after(async () => {
    await host.close();
    await site.cleanup();
  });

  it("assigns itself nothing and refuses an agent for the shadowed path", async () => {
    assert.deepEqual(host.assignments(), []);
    const target = parseAtpUrl(url);
    assert.ok(target.ok);
    const body = JSON.stringify({
      format: 1,
      code: "heed.emit({ ok: true });",
      state: null,
      robot: "HeedBot",
      site: "http://www.fict.org",
      path: "/home/user1/",
    });
    const r = await atpRequest(
      target.url,
      {
        method: "DISPATCH",
        uri: "/",
        headers: [
          ["Agent-System", "heed"],
          ["Agent-Language", "javascript"],
          ["Content-Type", HEED_AGENT_CONTENT_TYPE],
        ],
        body,
      },
      { allowPrivate: true },
    );
    assert.equal(r.status, 301, new TextDecoder().decode(r.body));
  });
});
