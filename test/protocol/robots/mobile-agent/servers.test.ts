// Mobile-agent-server records: seeds/000 §3.2 (formal syntax), §4 (the example and its
// table) and DESIGN §5 (last matching line in file order; none).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  lintRobots,
  MAX_AGENT_SERVER_RECORDS,
  parseMobileAgentServers,
  readSimplifiedUrl,
} from "../../../../src/index.js";

// seeds/000 §4: the extended /robots.txt of the fictional site.
const SEED_ROBOTS = [
  "Mobile-agent-server: /             atp://www.fict.org:8001",
  "Mobile-agent-server: /home/        none",
  "Mobile-agent-server: /home/user1/  atp://user1.fict.org:854",
  "Mobile-agent-server: /home/user2/  atp://user2.fict.org:831",
  "",
].join("\n");

// seeds/000 §4 table, whole. The draft prints atp://user1.fict.org:831 for /home/user2/; its own
// record says user2.fict.org, and DESIGN §5 takes the record's word.
const SEED_TABLE: readonly (readonly [url: string, host: string | null])[] = [
  ["http://www.fict.org/index.html", "atp://www.fict.org:8001"],
  ["http://www.fict.org/services/", "atp://www.fict.org:8001"],
  ["http://www.fict.org/services/index.html", "atp://www.fict.org:8001"],
  ["http://www.fict.org/robots.txt", "atp://www.fict.org:8001"],
  ["http://www.fict.org/home/", null],
  ["http://www.fict.org/home/user1/", "atp://user1.fict.org:854"],
  ["http://www.fict.org/home/user1/index.html", "atp://user1.fict.org:854"],
  ["http://www.fict.org/home/user2/", "atp://user2.fict.org:831"],
  ["http://www.fict.org/home/user2/index.html", "atp://user2.fict.org:831"],
  ["http://www.fict.org/home/user3/", null],
  ["http://www.fict.org/home/user3/index.html", null],
];

function hostOf(robots: string, url: string): string | null {
  const answer = parseMobileAgentServers(robots).resolve(url);
  return answer.available ? answer.host.text : null;
}

describe("seeds/000 §4 table", () => {
  for (const [url, host] of SEED_TABLE) {
    it(`${url} → ${host ?? "not available"}`, () => {
      assert.equal(hostOf(SEED_ROBOTS, url), host);
    });
  }

  it("names the deciding line, and none as the reason for /home/", () => {
    const servers = parseMobileAgentServers(SEED_ROBOTS);
    assert.deepEqual(servers.diagnostics, []);
    const home = servers.resolve("http://www.fict.org/home/user3/");
    assert.equal(home.available, false);
    assert.equal(home.available ? null : home.reason, "none");
    assert.equal(home.record?.line, 2);
    const user1 = servers.resolve("/home/user1/a.html");
    assert.equal(user1.record?.line, 3);
  });
});

describe("resolution (DESIGN §5)", () => {
  it("seeds/000 §3.1 example: / none, /dir1 and /dir1/dir2 to different hosts", () => {
    const robots =
      "Mobile-agent-server: /          none\n" +
      "Mobile-agent-server: /dir1      atp://www.fict.org:544\n" +
      "Mobile-agent-server: /dir1/dir2 atp://www.fict.org:543\n";
    assert.equal(hostOf(robots, "/x"), null);
    assert.equal(hostOf(robots, "/dir1/a"), "atp://www.fict.org:544");
    assert.equal(hostOf(robots, "/dir1/dir2/b"), "atp://www.fict.org:543");
    // A prefix, not a directory: /dir1 also covers /dir10 (as robots.txt paths do).
    assert.equal(hostOf(robots, "/dir10"), "atp://www.fict.org:544");
  });

  it("the last matching line wins even when it is less specific", () => {
    const robots = "Mobile-agent-server: /a/b/ atp://h1:1\nMobile-agent-server: /a/ atp://h2:2\n";
    assert.equal(hostOf(robots, "/a/b/c"), "atp://h2:2");
  });

  it("no record: no host, reason no-record", () => {
    const answer = parseMobileAgentServers("User-agent: *\nDisallow:\n").resolve("/x");
    assert.equal(answer.available ? null : answer.reason, "no-record");
  });

  it("records are file-wide: inside a group they still count", () => {
    const robots = "User-agent: a\nDisallow: /p\nMobile-agent-server: / atp://h:9\nUser-agent: b\n";
    assert.equal(hostOf(robots, "/q"), "atp://h:9");
  });

  it("key and none are case-insensitive (RFC 822 literals); comments are removed", () => {
    const robots = "MOBILE-AGENT-SERVER: / atp://h:9 # main host\nmobile-agent-server: /x NONE\n";
    assert.equal(hostOf(robots, "/a"), "atp://h:9");
    assert.equal(hostOf(robots, "/x/a"), null);
  });

  it("percent-encodings of unreserved characters compare decoded", () => {
    const robots = "Mobile-agent-server: /%7Euser/ atp://h:9\n";
    assert.equal(hostOf(robots, "http://s/~user/page"), "atp://h:9");
    assert.equal(hostOf(robots, "http://s/%7euser/page"), "atp://h:9");
  });

  it("an atp URL without a port means port 434 (ATP/0.1 §4.2.1)", () => {
    const answer = parseMobileAgentServers("Mobile-agent-server: / atp://h.example\n").resolve("/");
    assert.ok(answer.available);
    assert.equal(answer.host.port, 434);
    assert.equal(answer.host.text, "atp://h.example");
  });

  it("an unreadable URL is answered invalid-url", () => {
    const answer = parseMobileAgentServers(SEED_ROBOTS).resolve("http://[bad/");
    assert.equal(answer.available ? null : answer.reason, "invalid-url");
  });

  it(`stops at ${MAX_AGENT_SERVER_RECORDS} records and says so`, () => {
    const lines: string[] = [];
    for (let i = 0; i <= MAX_AGENT_SERVER_RECORDS; i++) {
      lines.push(`Mobile-agent-server: /p${i}/ atp://h:1`);
    }
    const servers = parseMobileAgentServers(lines.join("\n"));
    assert.equal(servers.records.length, MAX_AGENT_SERVER_RECORDS);
    const limit = servers.diagnostics.find((d) => d.code === "agent-server-limit");
    assert.equal(limit?.line, MAX_AGENT_SERVER_RECORDS + 1);
    assert.equal(hostOf(lines.join("\n"), `/p${MAX_AGENT_SERVER_RECORDS}/`), null);
  });
});

describe("seeds/000 §3.2 formal syntax", () => {
  const cases: readonly (readonly [
    name: string,
    value: string,
    code: string | null,
    used: boolean,
  ])[] = [
    ["path and URL", "/a atp://h:1", null, true],
    ["path and none", "/a none", null, true],
    ["only a path", "/a", "agent-server-incomplete", false],
    ["nothing", "", "agent-server-incomplete", false],
    ["three words", "/a atp://h:1 atp://g:2", "agent-server-extra", false],
    ["URL first", "atp://h:1 /a", "agent-server-bad-path", false],
    ["relative path", "home/ atp://h:1", "agent-server-bad-path", false],
    ["tilde outside pchar, kept", "/~u/ atp://h:1", "agent-server-path-chars", true],
    ["bad escape, kept", "/a%zz atp://h:1", "agent-server-path-chars", true],
    ["not a URL", "/a somewhere", "agent-server-bad-url", false],
    ["URL with a path", "/a atp://h:1/agents", "agent-server-bad-url", false],
    ["trailing slash, tolerated", "/a atp://h:1/", "agent-server-url-path", true],
    ["port out of range", "/a atp://h:70000", "agent-server-bad-url", false],
    ["bad scheme", "/a a_b://h:1", "agent-server-bad-url", false],
    ["space in net_loc impossible: empty host", "/a atp://", "agent-server-bad-url", false],
  ];
  for (const [name, value, code, used] of cases) {
    it(name, () => {
      const servers = parseMobileAgentServers(`Mobile-agent-server: ${value}\n`);
      assert.equal(servers.records.length, used ? 1 : 0);
      assert.deepEqual(
        servers.diagnostics.map((d) => [d.code, d.line]),
        code === null ? [] : [[code, 1]],
      );
    });
  }

  it("readSimplifiedUrl keeps IPv6 brackets and lower-cases host and scheme", () => {
    const read = readSimplifiedUrl("ATP://[::1]:4434");
    assert.ok(read.ok);
    assert.deepEqual(read.url, {
      scheme: "atp",
      host: "[::1]",
      port: 4434,
      text: "atp://[::1]:4434",
    });
  });
});

describe("heed lint on Mobile-agent-server lines", () => {
  function codes(robots: string): [string, number | null][] {
    return lintRobots(robots)
      .findings.filter((f) => f.code.startsWith("agent-server") || f.code.endsWith("-key"))
      .map((f) => [f.code, f.line]);
  }

  it("the seed's file is clean: no extension-key notes for the records", () => {
    assert.deepEqual(codes(`User-agent: *\nDisallow:\n${SEED_ROBOTS}`), []);
  });

  it("a line covered by a later one is reported shadowed", () => {
    const robots = "Mobile-agent-server: /home/u/ atp://h:1\nMobile-agent-server: / none\n";
    assert.deepEqual(codes(robots), [["agent-server-shadowed", 1]]);
  });

  it("misspelt key: read, and named", () => {
    const robots = "Mobile agent server: / atp://h:1\n";
    assert.deepEqual(codes(robots), [["agent-server-misspelt", 1]]);
    assert.equal(hostOf(robots, "/x"), "atp://h:1");
  });

  it("a host of another protocol is noted; a bad line is an error", () => {
    const report = lintRobots("Mobile-agent-server: / tcp://h:1\nMobile-agent-server: /x\n");
    assert.deepEqual(
      report.findings.filter((f) => f.line !== null).map((f) => [f.code, f.line, f.severity]),
      [
        ["agent-server-not-atp", 1, "info"],
        ["agent-server-incomplete", 2, "error"],
      ],
    );
  });
});
