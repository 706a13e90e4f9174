// Each limit of the usage readers (limits.ts), at the limit and past it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRobots } from "../../../src/protocol/robots/index.js";
import {
  MAX_DICTIONARY_MEMBERS,
  MAX_PARAMETERS,
  MAX_PREFERENCE_LENGTH,
  MAX_TDMREP_BYTES,
  MAX_TDMREP_DEPTH,
  MAX_TDMREP_RULES,
  MAX_USAGE_LINES,
  parseDictionary,
  readContentSignal,
  readContentUsage,
  readTdmRepJson,
  type UsageSource,
  usageFor,
  usageLines,
} from "../../../src/protocol/usage/index.js";

const SOURCE: UsageSource = {
  form: "content-usage",
  place: "header",
  line: null,
  name: null,
  text: "",
};

describe("usage limits", () => {
  it(`a statement of ${MAX_PREFERENCE_LENGTH} characters is read; one more is not`, () => {
    const pad = (n: number) => `train-ai=n, x=${"a".repeat(n - "train-ai=n, x=".length)}`;
    assert.equal(
      readContentUsage(pad(MAX_PREFERENCE_LENGTH), SOURCE).statement.preferences["train-ai"],
      "disallowed",
    );
    const over = readContentUsage(pad(MAX_PREFERENCE_LENGTH + 1), SOURCE);
    assert.equal(over.statement.preferences["train-ai"], undefined);
    assert.equal(over.diagnostics[0]?.code, "usage-too-long");
    assert.equal(
      readContentSignal(`ai-train=no,${" ".repeat(MAX_PREFERENCE_LENGTH)}`, SOURCE).diagnostics[0]
        ?.code,
      "signal-too-long",
    );
  });

  it(`${MAX_DICTIONARY_MEMBERS} members parse; one more fails`, () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=y`).join(",");
    assert.equal(parseDictionary(members(MAX_DICTIONARY_MEMBERS)).ok, true);
    const over = parseDictionary(members(MAX_DICTIONARY_MEMBERS + 1));
    assert.equal(over.ok, false);
    // A repeated key is not a new member.
    assert.equal(parseDictionary(`${members(MAX_DICTIONARY_MEMBERS)},k0=n`).ok, true);
  });

  it(`${MAX_PARAMETERS} parameters parse; one more fails`, () => {
    const params = (n: number) =>
      `train-ai=n${Array.from({ length: n }, (_, i) => `;p${i}`).join("")}`;
    assert.equal(parseDictionary(params(MAX_PARAMETERS)).ok, true);
    assert.equal(parseDictionary(params(MAX_PARAMETERS + 1)).ok, false);
  });

  it(`the first ${MAX_USAGE_LINES} usage lines of a robots.txt are read`, () => {
    const lines = ["User-agent: *"];
    for (let i = 0; i < MAX_USAGE_LINES; i++) lines.push(`Content-Usage: /p${i}/ search=y`);
    lines.push("Content-Usage: train-ai=n");
    const policy = parseRobots(lines.join("\n"));
    assert.equal(usageLines(policy).size, MAX_USAGE_LINES);
    assert.equal(
      usageFor({ url: "/x", agent: "bot", robots: policy }).categories["train-ai"].value,
      "unknown",
    );
    assert.equal(
      usageFor({ url: "/p7/x", agent: "bot", robots: policy }).categories.search.value,
      "allowed",
    );
  });

  it(`tdmrep.json: ${MAX_TDMREP_BYTES} bytes, ${MAX_TDMREP_RULES} rules, depth ${MAX_TDMREP_DEPTH}`, () => {
    const tooBig = readTdmRepJson(" ".repeat(MAX_TDMREP_BYTES + 1));
    assert.equal(tooBig.diagnostics[0]?.code, "tdmrep-too-large");
    const rules = Array.from({ length: MAX_TDMREP_RULES + 5 }, () => ({
      location: "/",
      "tdm-reservation": 1,
    }));
    const many = readTdmRepJson(JSON.stringify(rules));
    assert.equal(many.rules.length, MAX_TDMREP_RULES);
    assert.equal(many.diagnostics.filter((d) => d.code === "tdmrep-too-many").length, 1);
    const deep = readTdmRepJson(
      `${"[".repeat(MAX_TDMREP_DEPTH + 1)}${"]".repeat(MAX_TDMREP_DEPTH + 1)}`,
    );
    assert.equal(deep.diagnostics[0]?.code, "tdmrep-too-deep");
    const ok = readTdmRepJson(`${"[".repeat(MAX_TDMREP_DEPTH)}${"]".repeat(MAX_TDMREP_DEPTH)}`);
    assert.notEqual(ok.diagnostics[0]?.code, "tdmrep-too-deep");
    // Brackets inside strings do not count.
    const quoted = readTdmRepJson(
      JSON.stringify([{ location: `/${"[".repeat(100)}`, "tdm-reservation": 1 }]),
    );
    assert.equal(quoted.rules.length, 1);
  });
});
