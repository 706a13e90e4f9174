// heed's agent format on ATP (agent-package.ts): every field checked, every limit tested.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  isHeedLanguage,
  isHeedSystem,
  MAX_AGENT_CODE_LENGTH,
  MAX_AGENT_STATE_LENGTH,
  readAgentPackage,
} from "../../../src/protocol/atp/agent-package.js";

const GOOD = {
  format: 1,
  code: "heed.emit({})",
  state: { n: 1 },
  robot: "HeedBot",
  site: "http://www.fict.org/",
  path: "/home/user1/",
};

describe("agent packages", () => {
  it("reads a good one; the site becomes its origin", () => {
    const read = readAgentPackage(JSON.stringify(GOOD));
    assert.ok(read.ok);
    assert.equal(read.agent.site, "http://www.fict.org");
    assert.deepEqual(read.agent.state, { n: 1 });
  });

  const bad: readonly (readonly [string, unknown, RegExp])[] = [
    ["not JSON", "{", /not JSON/],
    ["an array", [], /JSON object/],
    ["another format", { ...GOOD, format: 2 }, /format/],
    ["no code", { ...GOOD, code: "" }, /code/],
    [
      "code over the limit",
      { ...GOOD, code: "x".repeat(MAX_AGENT_CODE_LENGTH + 1) },
      /over the limit/,
    ],
    ["state over the limit", { ...GOOD, state: "x".repeat(MAX_AGENT_STATE_LENGTH) }, /state/],
    ["no robot", { ...GOOD, robot: 5 }, /robot/],
    ["a site that is not http", { ...GOOD, site: "file:///etc" }, /site/],
    ["a relative path", { ...GOOD, path: "home/" }, /path/],
    [
      "a replyTo that is not an agent service",
      { ...GOOD, replyTo: "http://robot.example/" },
      /replyTo/,
    ],
    ["a replyTo naming an agent", { ...GOOD, replyTo: "atp://robot.example#123" }, /replyTo/],
  ];
  for (const [name, value, message] of bad) {
    it(`refuses ${name}`, () => {
      const read = readAgentPackage(typeof value === "string" ? value : JSON.stringify(value));
      assert.equal(read.ok, false);
      if (!read.ok) assert.match(read.error, message);
    });
  }

  it("names the platform and language with an optional version (§8.4, §8.5)", () => {
    assert.ok(isHeedSystem("heed") && isHeedSystem("Heed/1"));
    assert.ok(!isHeedSystem("ibm.aglets/Alpha4b") && !isHeedSystem(null));
    assert.ok(isHeedLanguage("JavaScript") && !isHeedLanguage("java"));
  });
});
