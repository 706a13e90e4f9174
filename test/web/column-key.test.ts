// heed ui's column keys (src/web/client/column-key.ts): a robot's answers are worked out again
// only when a line that can decide for it changed (RFC 9309 §2.2.1: the groups chosen for its
// token, the User-agent lines that choose them, the lines outside any group).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRobots } from "../../src/protocol/robots/index.js";
import { columnKey } from "../../src/web/client/column-key.js";

const FILE = [
  "User-agent: *",
  "Disallow: /private/",
  "",
  "User-agent: GPTBot",
  "Disallow: /",
  "",
  "User-agent: Googlebot",
  "Disallow: /search",
].join("\n");

function keys(text: string, dialect: "rfc9309" | "regp" = "rfc9309") {
  const policy = parseRobots(text, { dialect });
  const key = (agent: string) => columnKey(policy, { agent, at: 0 }, null);
  return { star: key("Bingbot"), gpt: key("GPTBot"), google: key("Googlebot") };
}

describe("heed ui's column keys", () => {
  it("an edit inside one group changes the keys of the robots it is chosen for, only", () => {
    const before = keys(FILE);
    const after = keys(FILE.replace("Disallow: /search", "Disallow: /search/"));
    assert.notEqual(after.google, before.google);
    assert.equal(after.gpt, before.gpt);
    assert.equal(after.star, before.star);
    const starEdit = keys(FILE.replace("Disallow: /private/", "Disallow: /priv"));
    assert.notEqual(starEdit.star, before.star);
    // GPTBot and Googlebot have groups of their own: the `*` group does not decide for them.
    assert.equal(starEdit.gpt, before.gpt);
    assert.equal(starEdit.google, before.google);
  });

  it("a User-agent line, a line outside the groups, a line moved: every key changes", () => {
    const before = keys(FILE);
    for (const edited of [
      FILE.replace("User-agent: GPTBot", "User-agent: GPTBot\nUser-agent: Bingbot"),
      `${FILE}\nSitemap: https://example.com/sitemap.xml`,
      `# a comment first\n${FILE}`,
    ]) {
      const after = keys(edited);
      assert.notEqual(after.star, before.star, edited);
      assert.notEqual(after.gpt, before.gpt, edited);
      assert.notEqual(after.google, before.google, edited);
    }
  });

  it("under REGP, any edit changes every key, and so does the robot's time", () => {
    const regp = `Robot-version: 3.0\n${FILE}`;
    const before = keys(regp, "regp");
    const after = keys(regp.replace("Disallow: /search", "Disallow: /search/"), "regp");
    assert.notEqual(after.gpt, before.gpt);
    assert.notEqual(after.star, before.star);
    const policy = parseRobots(regp, { dialect: "regp" });
    assert.notEqual(
      columnKey(policy, { agent: "GPTBot", at: 0 }, null),
      columnKey(policy, { agent: "GPTBot", at: 1 }, null),
    );
  });
});
