// issue 14 §2: REGP matching of many wildcard rules against a long URL takes the same cheap
// refusals as the RFC 9309 loop (characters the path lacks, another second character), and
// still finds the rule that decides. Answers only: speed is measured in bench/.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRobots } from "../../../../src/protocol/robots/index.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

function rules(count: number): string[] {
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % 26;
  };
  const word = (n: number): string =>
    Array.from({ length: n }, () => LETTERS[next()] as string).join("");
  return Array.from({ length: count }, () => `Disallow: /*${word(3)}*${word(3)}*${word(2)}q$`);
}

describe("REGP: 25,000 wildcard rules against a 40 KB URL", () => {
  const many = rules(25_000);
  const url = `/${"abcde/".repeat(6_700)}`;
  for (const dialect of ["regp", "rfc9309"] as const) {
    it(`${dialect}: no rule matches, the URL is allowed`, () => {
      const header = dialect === "regp" ? "Robot-version: 3.0\n" : "";
      const policy = parseRobots(`${header}User-agent: *\n${many.join("\n")}\n`);
      for (let i = 0; i < 20; i++) {
        const d = policy.check(`${url}${i}`, "bot");
        assert.deepEqual([d.allowed, d.reason], [true, "default"]);
      }
    });
    it(`${dialect}: the one rule that matches decides`, () => {
      const header = dialect === "regp" ? "Robot-version: 3.0\n" : "";
      // First, so that it is read whatever the size limit cuts (REGP: the last match wins, and
      // none of the others matches).
      const lines = ["Disallow: /*bcd*e/a*cde/$", ...many];
      const policy = parseRobots(`${header}User-agent: *\n${lines.join("\n")}\n`);
      const d = policy.check(url, "bot");
      assert.deepEqual([d.allowed, d.reason, d.line], [false, "rule", dialect === "regp" ? 3 : 2]);
    });
  }
});
