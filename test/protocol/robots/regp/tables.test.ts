// seeds/003 §3.2.3-3.2.5 row by row: User-agent containment (Tables 4 and 5), the path groups
// with their implicit first line (Tables 6, 7 and 8), and the three IP examples of §3.2.4.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Decision,
  parseRobots,
  type RobotsPolicy,
} from "../../../../src/protocol/robots/index.js";

const HEADER = "Robot-version: 3.0\n\n";

function regp(body: string): { policy: RobotsPolicy; text: string } {
  const text = HEADER + body;
  return { policy: parseRobots(text), text };
}

/** 1-based number of the first line of `text` that reads exactly `line` (trimmed). */
function lineOf(text: string, line: string): number {
  const at = text.split("\n").findIndex((l) => l.trim() === line);
  assert.ok(at >= 0, `no line ${JSON.stringify(line)}`);
  return at + 1;
}

function brief(d: Decision) {
  return { allowed: d.allowed, reason: d.reason, basis: d.basis, line: d.line, rule: d.rule };
}

describe("seeds/003 Table 4: User-agent: infoseeker (the robot's token contains the value)", () => {
  // A sequence that refuses everything: a robot it matches is refused, any other is not.
  const { policy, text } = regp("User-agent: infoseeker\nDisallow: /\n");
  const disallowLine = lineOf(text, "Disallow: /");
  const ROWS: readonly [token: string, match: boolean][] = [
    ["Infoseeker", true],
    ["InfoSeeker", true],
    ["BobbyInfoSeeker", true],
    ["Info_seeker", false],
    ["InformationSeeker", false],
    ["Infoseek", false],
  ];
  it("the file is read as REGP", () => assert.equal(policy.dialect, "regp"));
  for (const [token, match] of ROWS) {
    it(`Table 4: ${token} → ${match ? "Yes" : "No"}`, () => {
      const d = policy.check("/anything.html", token);
      if (match) {
        assert.deepEqual(brief(d), {
          allowed: false,
          reason: "rule",
          basis: undefined,
          line: disallowLine,
          rule: "Disallow: /",
        });
        assert.deepEqual(d.group?.agents, ["infoseeker"]);
      } else {
        assert.equal(d.allowed, true);
        assert.equal(d.group, null, `${token} matches no sequence`);
        assert.equal(d.basis, "no-group");
      }
    });
  }
  it("Table 4: the token is read from a whole User-Agent header", () => {
    assert.equal(policy.check("/a", "BobbyInfoSeeker/2.1 (+http://bobby.example)").allowed, false);
    assert.equal(policy.check("/a", "Mozilla/5.0 (compatible; InfoSeeker/1.0)").allowed, false);
    assert.equal(policy.check("/a", "Infoseek/1.0").allowed, true);
  });
});

describe("seeds/003 Table 5: User-agent: infoseeker + User-agent: wiseRobot", () => {
  const { policy } = regp("User-agent: infoseeker\nUser-agent: wiseRobot\nDisallow: /\n");
  const ROWS: readonly [token: string, match: boolean][] = [
    ["Infoseeker", true],
    ["Wiserobot", true],
    ["Inforobot", false],
  ];
  for (const [token, match] of ROWS) {
    it(`Table 5: ${token} → ${match ? "Yes" : "No"}`, () => {
      const d = policy.check("/x", token);
      assert.equal(d.allowed, !match);
      if (match) assert.deepEqual(d.group?.agents, ["infoseeker", "wiserobot"]);
      else assert.equal(d.group, null);
    });
  }
  it("§3.2.3: sequences are tried top to bottom; the first that matches is used", () => {
    const { policy: p } = regp(
      "User-agent: seeker\nDisallow: /a\n\nUser-agent: infoseeker\nDisallow: /b\n",
    );
    // "infoseeker" contains "seeker": the first sequence applies, the second never does.
    assert.equal(p.check("/a", "infoseeker").allowed, false);
    assert.equal(p.check("/b", "infoseeker").allowed, true);
  });
  it("§3.2.3 Example 3: User-agent: * matches any crawler", () => {
    const { policy: p } = regp("User-agent: *\nDisallow: /\n");
    for (const token of ["Infoseeker", "x", "Googlebot", "Info_seeker"]) {
      assert.equal(p.check("/x", token).allowed, false, token);
    }
  });
});

/** Paths of one table: path, allowed, and what decided (a line's text, or the implicit line). */
type Row = readonly [path: string, allowed: boolean, decidedBy: string];

function tableTests(table: string, body: string, rows: readonly Row[]): void {
  const { policy, text } = regp(`User-agent: *\n${body}`);
  for (const [path, allowed, decidedBy] of rows) {
    it(`${table}: ${path} → ${allowed ? "Yes" : "No"} (${decidedBy})`, () => {
      const d = policy.check(path, "AnyBot");
      assert.equal(d.allowed, allowed);
      if (decidedBy.startsWith("implicit")) {
        assert.equal(d.reason, "default");
        assert.equal(d.basis, decidedBy);
        assert.equal(d.line, null);
      } else {
        assert.equal(d.reason, "rule");
        assert.equal(d.rule, decidedBy);
        assert.equal(d.line, lineOf(text, decidedBy));
      }
    });
  }
}

describe("seeds/003 Table 6: Disallow: /tmp (implicit Allow: / before it)", () => {
  tableTests("Table 6", "Disallow: /tmp\n", [
    ["/tmp", false, "Disallow: /tmp"],
    ["/temp", true, "implicit-allow"],
    ["/tmp1", false, "Disallow: /tmp"],
    ["/tmp.html", false, "Disallow: /tmp"],
    ["/tmp/tmp0001.html", false, "Disallow: /tmp"],
  ]);
});

describe("seeds/003 Table 7: Allow: /tmp/ (implicit Disallow: / before it)", () => {
  tableTests("Table 7", "Allow: /tmp/\n", [
    ["/tmp", false, "implicit-disallow"],
    ["/temp", false, "implicit-disallow"],
    ["/tmp1", false, "implicit-disallow"],
    ["/tmp.html", false, "implicit-disallow"],
    ["/tmp/tmp0001.html", true, "Allow: /tmp/"],
  ]);
});

describe("seeds/003 Table 8: Disallow: /news/, Disallow: /info, Allow: /info/open (last match)", () => {
  tableTests("Table 8", "Disallow: /news/\nDisallow: /info\nAllow: /info/open\n", [
    ["/news/news0001.html", false, "Disallow: /news/"],
    ["/info/infoShow.html", false, "Disallow: /info"],
    ["/info/latest/info0001.html", false, "Disallow: /info"],
    ["/info0001.html", false, "Disallow: /info"],
    ["/info/open/info0001.html", true, "Allow: /info/open"],
    ["/tmp/tmp0001.html", true, "implicit-allow"],
  ]);
});

describe("seeds/003 §3.2.5: values are case-insensitive, with * and $", () => {
  const { policy } = regp("User-agent: *\nDisallow: /TMP\nDisallow: /*.php$\nAllow: /tmp/open\n");
  const ROWS: readonly [path: string, allowed: boolean][] = [
    ["/tmp/x", false],
    ["/Tmp/x", false],
    ["/TMP/OPEN/x", true],
    ["/index.php", false],
    ["/INDEX.PHP", false],
    ["/index.php?x=1", true],
    ["/index.html", true],
  ];
  for (const [path, allowed] of ROWS) {
    it(`${path} → ${allowed ? "allowed" : "disallowed"}`, () => {
      assert.equal(policy.check(path, "bot").allowed, allowed);
    });
  }
  it('§3.2.5: "/robots.txt" is always allowed', () => {
    const { policy: p } = regp("User-agent: *\nDisallow: /\n");
    const d = p.check("/robots.txt", "bot");
    assert.equal(d.allowed, true);
    assert.equal(d.reason, "robots-txt");
  });
});

describe("seeds/003 §3.2.4 Example 1: Ip-disallow: 222.69.212.* (implicit Ip-allow: * before it)", () => {
  const { policy, text } = regp("Ip-disallow: 222.69.212.*\nDisallow: /private\n");
  const ipLine = lineOf(text, "Ip-disallow: 222.69.212.*");
  const ROWS: readonly [ip: string, admitted: boolean][] = [
    ["222.69.212.14", false],
    ["222.69.212.0", false],
    ["222.69.212.255", false],
    ["222.69.213.14", true],
    ["222.70.212.14", true],
    ["10.0.0.1", true],
    ["::ffff:222.69.212.9", false],
  ];
  for (const [ip, admitted] of ROWS) {
    it(`robot at ${ip}: ${admitted ? "admitted" : 'refused, reason "ip"'}`, () => {
      const d = policy.check("/public/page.html", { agent: "AnyBot", ip });
      assert.equal(d.allowed, admitted);
      if (admitted) {
        assert.notEqual(d.reason, "ip");
        // Admitted robots still follow the sequence's path group.
        assert.equal(policy.check("/private/x", { agent: "AnyBot", ip }).allowed, false);
      } else {
        assert.equal(d.reason, "ip");
        assert.equal(d.line, ipLine);
        assert.equal(d.rule, "Ip-disallow: 222.69.212.*");
      }
    });
  }
  it("a refused robot may fetch nothing on the site, not even the root", () => {
    for (const url of ["/", "/index.html", "/private/x", "http://www.example.com/a?b=c"]) {
      const d = policy.check(url, { agent: "AnyBot", ip: "222.69.212.77" });
      assert.equal(d.allowed, false, url);
      assert.equal(d.reason, "ip", url);
    }
  });
  it("a robot whose address is unknown meets only the implicit Ip-allow: *", () => {
    assert.equal(policy.check("/public", "AnyBot").allowed, true);
  });
  it("the sequence has no User-agent line: User-agent: * is implied", () => {
    const d = policy.check("/public", { agent: "Whoever", ip: "222.69.212.1" });
    assert.equal(d.reason, "ip");
    assert.deepEqual(d.group?.agents, ["*"]);
  });
});

describe("seeds/003 §3.2.4 Example 2: Ip-disallow: 222.69.*.*, Ip-allow: .14, Ip-allow: .15", () => {
  const { policy, text } = regp(
    "Ip-disallow: 222.69.*.*\nIp-allow: 222.69.212.14\nIp-allow: 222.69.212.15\nDisallow: /tmp\n",
  );
  const ROWS: readonly [ip: string, admitted: boolean, decidedBy: string | null][] = [
    ["222.69.212.14", true, "Ip-allow: 222.69.212.14"],
    ["222.69.212.15", true, "Ip-allow: 222.69.212.15"],
    ["222.69.212.16", false, "Ip-disallow: 222.69.*.*"],
    ["222.69.1.1", false, "Ip-disallow: 222.69.*.*"],
    ["222.69.255.255", false, "Ip-disallow: 222.69.*.*"],
    ["222.68.212.14", true, null],
    ["8.8.8.8", true, null],
  ];
  for (const [ip, admitted, decidedBy] of ROWS) {
    it(`robot at ${ip}: ${admitted ? "admitted" : "refused"} (${decidedBy ?? "implicit Ip-allow: *"})`, () => {
      const d = policy.check("/index.html", { agent: "bot", ip });
      assert.equal(d.allowed, admitted);
      if (!admitted) {
        assert.equal(d.reason, "ip");
        assert.equal(d.rule, decidedBy);
        assert.equal(d.line, lineOf(text, decidedBy as string));
      } else {
        assert.notEqual(d.reason, "ip");
      }
    });
  }
  it("an admitted robot is still bound by the path group", () => {
    assert.equal(policy.check("/tmp/x", { agent: "bot", ip: "222.69.212.14" }).allowed, false);
  });
});

describe("seeds/003 §3.2.4 Example 3: Ip-allow: *", () => {
  const { policy } = regp("Ip-allow: *\nDisallow: /tmp\n");
  for (const ip of ["222.69.212.14", "1.2.3.4", "2001:db8::1", "255.255.255.255"]) {
    it(`robot at ${ip} is admitted`, () => {
      const d = policy.check("/index.html", { agent: "bot", ip });
      assert.equal(d.allowed, true);
      assert.notEqual(d.reason, "ip");
    });
  }
  it("a robot whose address is unknown is admitted (* matches it)", () => {
    assert.equal(policy.check("/index.html", "bot").allowed, true);
  });
});

describe("seeds/003 §3.2.4: IP group with User-agent lines", () => {
  const { policy } = regp(
    "User-agent: infoseeker\nIp-disallow: 10.*.*.*\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n",
  );
  it("a matching robot refused by the IP group is refused the whole site", () => {
    const d = policy.check("/y", { agent: "infoseeker", ip: "10.1.2.3" });
    assert.equal(d.allowed, false);
    assert.equal(d.reason, "ip");
  });
  it("a matching robot admitted by the IP group follows its sequence", () => {
    assert.equal(policy.check("/y", { agent: "infoseeker", ip: "11.1.2.3" }).allowed, true);
    assert.equal(policy.check("/x", { agent: "infoseeker", ip: "11.1.2.3" }).allowed, false);
  });
  it("a robot the User-agent lines do not name is not concerned by the IP group", () => {
    const d = policy.check("/x", { agent: "otherbot", ip: "10.1.2.3" });
    assert.equal(d.allowed, true);
    assert.equal(policy.check("/y", { agent: "otherbot", ip: "10.1.2.3" }).allowed, false);
  });
});
