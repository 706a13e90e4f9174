// A REGP policy answers isAllowed without building a decision when the robot gives no moment
// and no supported lists (only its IP group and the path groups can then refuse), keeps the
// sequence each robot falls to, and keeps the plan of a sequence whose plan cannot depend on
// the URL. Each must answer exactly as check does, on a fresh policy and a policy asked before.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { regpFiles } from "../../../../bench/regp-files.js";
import { parseRobots, type Robot } from "../../../../src/protocol/robots/index.js";

const HEADER = "Robot-version: 3.0\n\n";

/** isAllowed of a fresh policy, and of one asked before, against check of a third. */
function assertAgree(text: string, paths: readonly string[], robots: readonly (string | Robot)[]) {
  const checked = parseRobots(text);
  const fresh = parseRobots(text);
  for (const robot of robots) {
    for (const path of paths) {
      const want = checked.check(path, robot).allowed;
      const label = `${path} ${JSON.stringify(robot)}`;
      assert.equal(parseRobots(text).isAllowed(path, robot), want, `fresh: ${label}`);
      assert.equal(fresh.isAllowed(path, robot), want, `warm: ${label}`);
    }
  }
}

describe("REGP's isAllowed answers as check does", () => {
  it("on written files with IP groups, windows, requirements and nested blocks", () => {
    for (const file of regpFiles(300, 0x5eed)) {
      // Robots with neither a moment nor lists take the short way; the others check's.
      const robots = [
        ...file.robots,
        ...file.robots.map((r) => r.agent),
        ...file.robots.map((r) =>
          r.ip === undefined ? { agent: r.agent } : { agent: r.agent, ip: r.ip },
        ),
      ];
      assertAgree(file.text, file.paths, robots);
    }
  });

  it("an IP address it cannot read refuses, as check refuses it", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /x\n`;
    const policy = parseRobots(text);
    assert.equal(policy.isAllowed("/y", { agent: "bot", ip: "10.0.0.300" }), false);
    assert.equal(policy.check("/y", { agent: "bot", ip: "10.0.0.300" }).reason, "invalid-query");
    assert.equal(policy.isAllowed("/robots.txt", { agent: "bot", ip: "::1" }), true);
  });

  it("overlapping IPv4 and IPv6 ranges, the last line that matches deciding", () => {
    const text = `${HEADER}User-agent: *\nIp-disallow: 10.0.0.0/8\nIp-allow: 10.1.0.0/16\nIp-disallow: 10.1.2.*\nIp-allow: 10.1.2.3\nIp-disallow: 2001:db8::/32\nIp-allow: ::ffff:10.1.2.4/128\nDisallow: /private\n`;
    const ips = [
      "10.0.0.1",
      "10.1.0.1",
      "10.1.2.9",
      "10.1.2.3",
      "10.1.2.4",
      "2001:db8::1",
      "::ffff:10.1.2.4",
      "8.8.8.8",
      "::1",
    ];
    assertAgree(
      text,
      ["/", "/private/a", "/public"],
      ips.map((ip) => ({ agent: "bot", ip })),
    );
    const policy = parseRobots(text);
    assert.deepEqual(
      ips.map((ip) => policy.isAllowed("/public", { agent: "bot", ip })),
      [false, true, false, true, true, false, true, true, true],
    );
  });

  it("a Visit-time across midnight refuses isAllowed with a moment, and not without one", () => {
    const text = `${HEADER}User-agent: *\nVisit-time: 22:00-06:00 UT\nDisallow: /x\n`;
    const policy = parseRobots(text);
    const at = (h: number) => ({ agent: "bot", at: Date.UTC(2024, 0, 1, h, 30) });
    assert.deepEqual(
      [23, 0, 5, 6, 12, 21].map((h) => policy.isAllowed("/a", at(h))),
      [true, true, true, false, false, false],
    );
    assert.equal(policy.isAllowed("/a", "bot"), true);
    assertAgree(text, ["/a", "/x"], [0, 6, 12, 22].map(at));
  });

  it("more robots than the policy keeps sequences for, each answered by its own sequence", () => {
    // 600 sequences, one robot each, asked in turn twice over: the kept sequences are
    // cleared on the way, which must change no answer.
    const body = Array.from(
      { length: 600 },
      (_, i) => `User-agent: r${i}x\nDisallow: /only-${i}\n`,
    ).join("\n");
    const policy = parseRobots(`${HEADER}${body}\nUser-agent: *\nDisallow: /\n`);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 600; i += 7) {
        assert.equal(policy.isAllowed(`/only-${i}`, `r${i}x`), false, `r${i}x`);
        assert.equal(policy.isAllowed(`/only-${i + 1}`, `r${i}x`), true, `r${i}x`);
        assert.equal(policy.check(`/only-${i}`, `r${i}x`).line, 3 + 3 * i + 1);
      }
      assert.equal(policy.isAllowed("/a", "nobody"), false);
    }
  });

  it("thousands of sequences and blocks: the plan follows the URL where a block or an Index-page can", () => {
    const blocks = Array.from(
      { length: 2000 },
      (_, i) => `{\nAllow: /b${i}/\nCrawl-delay: ${i + 1}\n}`,
    ).join("\n");
    const text = `${HEADER}User-agent: *\nIndex-page: /b7/*\n${blocks}\n\nRequest-rate: 1/10s\n`;
    const policy = parseRobots(text);
    assert.equal(policy.check("/b5/a", "bot").plan?.crawlDelay?.value, 6);
    assert.equal(policy.check("/b1999/a", "bot").plan?.crawlDelay?.value, 2000);
    assert.equal(policy.check("/b7/a", "bot").plan?.indexPage?.value, "/b7/*");
    assert.equal(policy.check("/b8/a", "bot").plan?.indexPage, null);
    assert.equal(policy.check("/c", "bot").plan?.crawlDelay, null);
    assert.equal(policy.check("/c", "bot").plan?.delaySeconds, 10);
    assertAgree(text, ["/b5/a", "/b1999/", "/c"], ["bot", { agent: "bot", ip: "::1" }]);
  });

  it("a fixed plan is the same for every URL and every robot of the sequence", () => {
    const text = `${HEADER}User-agent: a\nUser-agent: b\nCrawl-delay: 3\nDisallow: /x\n`;
    const policy = parseRobots(text);
    const first = policy.check("/y", "a").plan;
    assert.deepEqual(policy.check("/x/z", "b").plan, first);
    assert.equal(first?.crawlDelay?.value, 3);
  });
});
