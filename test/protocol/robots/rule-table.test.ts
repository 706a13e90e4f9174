// The rule table (rule-table.ts) keeps each rule's line number in the cell of its flags; a line
// number too large for the bits left there is kept aside. Both read back as they went in, and
// the flags beside them are unchanged.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RuleTable } from "../../../src/protocol/robots/rule-table.js";

const RFC = { wildcards: true, ignoreCase: false } as const;
const REGP = { wildcards: true, ignoreCase: true } as const;

describe("rule table: line numbers beside the flags", () => {
  it("reads back every line number, small and past 2^27, with allow and options intact", () => {
    const lines = [1, 2, 31, 2 ** 16 + 3, 2 ** 26, 2 ** 27 - 2, 2 ** 27 - 1, 2 ** 27, 2 ** 31 - 1];
    const table = new RuleTable("");
    lines.forEach((line, i) => {
      table.add(i % 2 === 0, line, i % 3 === 0 ? REGP : RFC, -1, { value: `/${i}`, text: `x` });
    });
    table.finish();
    lines.forEach((line, i) => {
      assert.equal(table.line(i), line, `row ${i}`);
      assert.equal(table.allow(i), i % 2 === 0, `row ${i}: allow`);
      assert.deepEqual(table.options(i), i % 3 === 0 ? REGP : RFC, `row ${i}: options`);
    });
  });

  it("a rule's form, found at its first query, leaves its line number as it was", () => {
    const table = new RuleTable("");
    table.add(false, 2 ** 27 - 2, RFC, -1, { value: "/a*b", text: "Disallow: /a*b" });
    table.add(true, 2 ** 27 + 9, RFC, -1, { value: "/plain/", text: "Allow: /plain/" });
    table.finish();
    assert.equal(table.plain(0), false);
    assert.equal(table.plain(1), true);
    assert.equal(table.line(0), 2 ** 27 - 2);
    assert.equal(table.line(1), 2 ** 27 + 9);
    assert.equal(table.allow(0), false);
    assert.equal(table.allow(1), true);
  });
});
