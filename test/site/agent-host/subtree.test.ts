// The agent's view of the site (subtree.ts): seeds/000 §5's security model, read as "only the
// assigned subtree, and only what robots.txt allows the sending robot", on a real directory
// with real symlinks.
import assert from "node:assert/strict";
import { realpath } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { parseMobileAgentServers, parseRobots } from "../../../src/index.js";
import { Subtree } from "../../../src/site/agent-host/subtree.js";
import { type AgentSite, makeAgentSite, seedRobots } from "../../helpers/agent-site.js";

const SITE = "http://www.fict.org";

describe("an agent's subtree", () => {
  let site: AgentSite;
  let tree: Subtree;
  before(async () => {
    site = await makeAgentSite();
    const robots = seedRobots(
      "atp://127.0.0.1:1",
      "atp://127.0.0.1:2",
      "Disallow: /home/user1/sub/hidden",
    );
    tree = new Subtree({
      root: await realpath(site.root),
      base: "/home/user1/",
      site: SITE,
      robot: "HeedBot",
      policy: parseRobots(robots, { origin: SITE }),
      servers: parseMobileAgentServers(robots),
    });
  });
  after(() => site.cleanup());

  const cases: readonly (readonly [input: unknown, want: string])[] = [
    ["/home/user1/index.html", "ok /home/user1/index.html"],
    ["index.html", "ok /home/user1/index.html"],
    ["sub/a.html", "ok /home/user1/sub/a.html"],
    ["/home/user1/sub/", "ok /home/user1/sub/"],
    ["/home/user1", "ok /home/user1/"],
    ["/home/user1/%73ub/a.html", "ok /home/user1/sub/a.html"],
    ["/home/user1/./sub/../index.html", "ok /home/user1/index.html"],
    ["../user2/b.html", "outside-subtree"],
    ["/home/user1/../user2/b.html", "outside-subtree"],
    ["/home/user1/%2e%2e/user2/b.html", "outside-subtree"],
    ["/home/user1/sub/..%2f..%2fuser2/b.html", "bad-path"],
    ["/etc/passwd", "outside-subtree"],
    ["/../../../../etc/passwd", "outside-subtree"],
    ["to-user2.html", "outside-subtree"],
    ["to-outside.txt", "outside-subtree"],
    ["private/p.html", "forbidden-by-robots"],
    ["/home/user1/PRIVATE/p.html", "not-found"],
    ["nothing.html", "not-found"],
    ["/home/user1/%zz", "bad-path"],
    ["/home/user1/a%00b", "bad-path"],
    ["/home/user1/index.html?x=1", "bad-path"],
    ["", "bad-path"],
    [42, "bad-path"],
    ["x".repeat(5000), "bad-path"],
  ];
  for (const [input, want] of cases) {
    it(`${JSON.stringify(input).slice(0, 50)} → ${want}`, () => {
      const check = tree.resolve(input);
      assert.equal(
        check.ok ? `ok ${check.urlPath}` : check.code,
        want,
        check.ok ? "" : check.message,
      );
    });
  }

  it("a path assigned to another host is not this agent's, though under its base", () => {
    const robots =
      "Mobile-agent-server: / atp://h:1\nMobile-agent-server: /home/user1/sub/ atp://h:2\n";
    const wide = new Subtree({
      ...tree.options,
      base: "/",
      servers: parseMobileAgentServers(robots),
      policy: parseRobots(""),
    });
    assert.equal(wide.resolve("/index.html").ok, true);
    const other = wide.resolve("/home/user1/sub/a.html");
    assert.equal(other.ok ? "ok" : other.code, "assigned-elsewhere");
  });
});
