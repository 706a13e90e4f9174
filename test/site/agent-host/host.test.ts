// The agent host over real TCP on 127.0.0.1, spoken to in ATP/0.1 (the draft's §6-9): methods,
// status codes, platform checks, assignment from Mobile-agent-server records, robots.txt,
// limits, MOVED, and a host that keeps serving after hostile agents and a DISPATCH flood.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { dispatchAgent } from "../../../src/crawler/agents/dispatch.js";
import {
  INDEXING_AGENT_PATH,
  INDEXING_AGENT_SOURCE,
} from "../../../src/protocol/atp/indexing-agent.js";
import { atpRequest } from "../../../src/net/atp-client.js";
import {
  HEED_AGENT_CONTENT_TYPE,
  header,
  parseAtpUrl,
  type AtpHeaders,
  type AtpResponse,
} from "../../../src/protocol/atp/index.js";
import { AgentHost, type AgentHostLimits } from "../../../src/site/agent-host/host.js";
import { type AgentSite, makeAgentSite, seedRobots } from "../../helpers/agent-site.js";

const SITE = "http://www.fict.org";
const HEED: AtpHeaders = [
  ["Agent-System", "heed"],
  ["Agent-Language", "javascript"],
  ["Content-Type", HEED_AGENT_CONTENT_TYPE],
];

function agentBody(path: string, code = "heed.emit({ ok: true });", robot = "HeedBot"): string {
  return JSON.stringify({ format: 1, code, state: null, robot, site: SITE, path });
}

describe("the agent host", { timeout: 120_000 }, () => {
  let site: AgentSite;
  let host1: AgentHost;
  let host2: AgentHost;
  let url1: string;
  let url2: string;

  async function send(
    url: string,
    method: string,
    uri: string,
    headers: AtpHeaders = [],
    body?: string,
  ): Promise<AtpResponse> {
    const target = parseAtpUrl(url);
    assert.ok(target.ok);
    return atpRequest(
      target.url,
      { method, uri, headers, ...(body === undefined ? {} : { body }) },
      { allowPrivate: true },
    );
  }
  const text = (r: AtpResponse) => new TextDecoder().decode(r.body);

  before(async () => {
    site = await makeAgentSite();
    const limits: Partial<AgentHostLimits> = {
      timeMs: 3000,
      maxPerSender: 4,
      maxHeld: 6,
      maxRunning: 2,
    };
    // Two hosts on free ports; the robots.txt in the root names them, as seeds/000 §4 does.
    host1 = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: 0,
      assign: ["/home/user1/"],
      limits,
      allowPrivate: true,
    });
    host2 = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: 0,
      limits,
      allowPrivate: true,
    });
    url1 = await host1.listen();
    url2 = await host2.listen();
    await writeFile(
      join(site.root, "robots.txt"),
      seedRobots(url1, url2, "User-agent: BadBot\nDisallow: /"),
    );
    await host1.close();
    await host2.close();
    // Listen again on the same ports, now that the robots.txt names them.
    host1 = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: Number(url1.split(":")[2]),
      limits,
      allowPrivate: true,
    });
    host2 = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: Number(url2.split(":")[2]),
      limits,
      allowPrivate: true,
    });
    await host1.listen();
    await host2.listen();
  });
  after(async () => {
    await host1.close();
    await host2.close();
    await site.cleanup();
  });

  it("takes its paths from the Mobile-agent-server records that name it", () => {
    assert.deepEqual(host1.assignments(), ["/home/user1/"]);
    assert.deepEqual(host2.assignments(), ["/home/user2/"]);
  });

  it("PING: 100 OKAY with its Agent-System, Agent-Language and Date", async () => {
    const r = await send(url1, "PING", "/");
    assert.deepEqual(
      [r.status, r.reason, header(r.headers, "agent-system"), header(r.headers, "agent-language")],
      [100, "OKAY", "heed", "javascript"],
    );
    // ATP draft §4.4: the IETF date syntax, "Sat, 12 Aug 1995 13:30:00 GMT".
    assert.match(
      String(header(r.headers, "date")),
      /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    );
  });

  it("DISPATCH then RETRACT: the agent's records come back, then it is gone (302)", async () => {
    const sent = await send(url1, "DISPATCH", "/", HEED, agentBody("/home/user1/"));
    assert.equal(sent.status, 100, text(sent));
    const id = header(sent.headers, "agent-id");
    assert.match(String(id), /^[0-9a-f]{32}$/);
    const back = await send(url1, "RETRACT", `#${id}`);
    assert.equal(back.status, 100);
    assert.equal(header(back.headers, "agent-id"), id);
    const report = JSON.parse(text(back)) as { status: string; records: unknown[] };
    assert.deepEqual([report.status, report.records], ["finished", [{ ok: true }]]);
    const again = await send(url1, "RETRACT", `#${id}`);
    assert.equal(again.status, 302);
  });

  const refusals: readonly (readonly [string, AtpHeaders, string, number, RegExp])[] = [
    [
      "another agent system",
      [
        ["Agent-System", "ibm.aglets/Alpha4b"],
        ["Agent-Language", "java"],
        ["Content-Type", "x-aglets"],
      ],
      agentBody("/home/user1/"),
      401,
      /Agent-System "ibm.aglets\/Alpha4b" is not supported/,
    ],
    [
      "another language",
      [
        ["Agent-System", "heed"],
        ["Agent-Language", "java"],
        ["Content-Type", HEED_AGENT_CONTENT_TYPE],
      ],
      agentBody("/home/user1/"),
      401,
      /Agent-Language/,
    ],
    [
      "another content type",
      [
        ["Agent-System", "heed"],
        ["Agent-Language", "javascript"],
        ["Content-Type", "x-aglets"],
      ],
      agentBody("/home/user1/"),
      401,
      /Content-Type/,
    ],
    [
      "a gzip body",
      [...HEED, ["Content-Encoding", "gzip"]],
      agentBody("/home/user1/"),
      401,
      /Content-Encoding/,
    ],
    ["a body that is not an agent", HEED, "{}", 300, /format/],
    [
      "a path not assigned to it",
      HEED,
      agentBody("/home/user2/"),
      301,
      /not assigned to this host/,
    ],
    [
      "a path robots.txt forbids",
      HEED,
      agentBody("/home/user1/private/"),
      301,
      /robots\.txt forbids/,
    ],
    [
      "an encoded way out of its path",
      HEED,
      agentBody("/home/user1/%2e%2e/user2/"),
      301,
      /not assigned to this host/,
    ],
    ["a bad percent-encoding", HEED, agentBody("/home/user1/%zz/"), 301, /bad percent-encoding/],
    [
      "a robot robots.txt shuts out",
      HEED,
      agentBody("/home/user1/", "1", "BadBot"),
      301,
      /robots\.txt forbids/,
    ],
  ];
  for (const [name, headers, body, status, message] of refusals) {
    it(`refuses ${name} with ${status}`, async () => {
      const r = await send(url1, "DISPATCH", "/", headers, body);
      assert.equal(r.status, status, text(r));
      assert.match(text(r), message);
    });
  }

  it("answers an unknown method 401 NOT IMPLEMENTED (§6.1), another version 400, garbage 300", async () => {
    assert.equal((await send(url1, "LAUNCH", "/")).status, 401);
    const target = parseAtpUrl(url1);
    assert.ok(target.ok);
    const { connect } = await import("node:net");
    const raw = (wire: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(target.url.port, "127.0.0.1");
        let got = "";
        socket.on("data", (c) => (got += c.toString()));
        socket.on("end", () => resolve(got));
        socket.on("error", reject);
        socket.end(wire);
      });
    assert.match(
      await raw("PING / ATP/1.0\r\n\r\n"),
      /^ATP\/0\.1 400 INTERNAL RECIPIENT ERROR\r\n/,
    );
    assert.match(await raw("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), /^ATP\/0\.1 300 BAD REQUEST\r\n/);
  });

  it("FETCH serves the indexing agent's code; other paths 302 NOT FOUND", async () => {
    const code = await send(url1, "FETCH", INDEXING_AGENT_PATH);
    assert.deepEqual([code.status, text(code)], [100, INDEXING_AGENT_SOURCE]);
    assert.equal((await send(url1, "FETCH", "/agents/../../etc/passwd")).status, 302);
  });

  it("MESSAGE reaches a running agent's heed.receive()", async () => {
    const code = `let got = []; const until = Date.now() + 2500;
      while (got.length === 0 && Date.now() < until) got = heed.receive();
      heed.emit({ got });`;
    const sent = await send(url1, "DISPATCH", "/", HEED, agentBody("/home/user1/", code));
    const id = String(header(sent.headers, "agent-id"));
    let delivered = false;
    for (let i = 0; i < 20 && !delivered; i++) {
      const m = await send(
        url1,
        "MESSAGE",
        `#${id}`,
        [["Content-Type", "application/json"]],
        JSON.stringify({ hello: i }),
      );
      assert.equal(m.status, 100);
      delivered = (JSON.parse(text(m)) as { delivered: boolean }).delivered;
      if (!delivered) await new Promise((r) => setTimeout(r, 50));
    }
    const report = JSON.parse(text(await send(url1, "RETRACT", `#${id}`))) as {
      records: { got: unknown[] }[];
    };
    assert.ok(delivered);
    assert.equal(report.records[0]?.got.length, 1);
    assert.equal((await send(url1, "MESSAGE", "#0123abcd")).status, 302);
  });

  it("an agent that moves on is followed: 200 MOVED, then the second host's records", async () => {
    const code = `if (heed.info.path === "/home/user1/") { heed.emit({ at: 1 }); heed.moveTo("${url2}", "/home/user2/"); }
      else heed.emit({ at: 2, files: heed.list(heed.info.path).map((e) => e.name) });`;
    const raw = await send(url1, "DISPATCH", "/", HEED, agentBody("/home/user1/", code));
    const id = String(header(raw.headers, "agent-id"));
    const moved = await send(url1, "RETRACT", `#${id}`);
    assert.equal(moved.status, 200);
    const location = (JSON.parse(text(moved)) as { location: string }).location;
    assert.match(location, new RegExp(`^${url2}#[0-9a-f]{32}$`));
    const there = await send(url2, "RETRACT", location.slice(url2.length));
    assert.deepEqual((JSON.parse(text(there)) as { records: unknown[] }).records, [
      { at: 2, files: ["b.html", "index.html"] },
    ]);
    const index = await dispatchAgent(url1, {
      site: SITE,
      path: "/home/user1/",
      robot: "HeedBot",
      userAgent: "HeedBot/1",
      code,
      allowPrivate: true,
    });
    assert.deepEqual(index.hosts, [url1, url2]);
    assert.deepEqual(index.records, [{ at: 1 }, { at: 2, files: ["b.html", "index.html"] }]);
  });

  it("hostile agents fail with their reason and the host keeps serving", async () => {
    const hostile = [
      "for (;;) {}",
      "const a = []; for (;;) a.push(new Uint8Array(1 << 20));",
      "heed.read('../user2/b.html')",
      "process.exit(1)",
    ];
    const ids: string[] = [];
    for (const code of hostile) {
      const r = await send(url1, "DISPATCH", "/", HEED, agentBody("/home/user1/", code));
      assert.equal(r.status, 100, text(r));
      ids.push(String(header(r.headers, "agent-id")));
    }
    assert.equal((await send(url1, "PING", "/")).status, 100);
    const errors: string[] = [];
    for (const id of ids) {
      const report = JSON.parse(text(await send(url1, "RETRACT", `#${id}`))) as {
        status: string;
        error: { code: string; message: string };
      };
      assert.equal(report.status, "failed");
      errors.push(`${report.error.code}: ${report.error.message}`);
    }
    assert.match(errors[0] ?? "", /^time-limit/);
    assert.match(errors[1] ?? "", /^(memory-limit|time-limit)/);
    assert.match(errors[2] ?? "", /^agent-error: Error: read: .*outside-subtree/);
    assert.match(errors[3] ?? "", /^agent-error: ReferenceError: .*process/);
    const ok = await dispatchAgent(url1, {
      site: SITE,
      path: "/home/user1/",
      robot: "HeedBot",
      userAgent: "HeedBot/1",
      allowPrivate: true,
    });
    assert.equal(ok.status, "finished");
  });

  it("a flood of DISPATCH requests meets 403 SERVICE UNAVAILABLE, and PING still answers", async () => {
    const slow = "const until = Date.now() + 1500; while (Date.now() < until) {}";
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        send(url2, "DISPATCH", "/", HEED, agentBody("/home/user2/", slow)),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 100).length, 4, statuses.join(","));
    assert.equal(statuses.filter((s) => s === 403).length, 8);
    assert.match(text(answers.find((a) => a.status === 403) as AtpResponse), /limit per sender/);
    assert.equal((await send(url2, "PING", "/")).status, 100);
    for (const a of answers.filter((x) => x.status === 100))
      await send(url2, "RETRACT", `#${header(a.headers, "agent-id")}`);
    assert.deepEqual(host2.counts(), { held: 0, running: 0, queued: 0 });
  });
});
