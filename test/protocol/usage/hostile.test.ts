// Usage preferences as a hostile site writes them: each case once broke, or could have broken,
// a reader; each is pinned here.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRobots } from "../../../src/protocol/robots/index.js";
import { readUsageDescription } from "../../../src/protocol/usage/description.js";
import {
  MAX_PREFERENCE_LENGTH,
  MAX_UNKNOWN_SHOWN,
  parseDictionary,
  readContentSignal,
  readNoAi,
  readTdmRepJson,
  tdmAnswer,
  type UsageSource,
  usageFor,
  usageJson,
} from "../../../src/protocol/usage/index.js";

const SOURCE: UsageSource = {
  form: "content-usage",
  place: "header",
  line: null,
  name: null,
  text: "",
};

describe("hostile usage preferences", () => {
  it("a group of 9,000 Content-Usage paths: the longest match, found among them", () => {
    const lines = ["User-agent: *"];
    for (let i = 0; i < 9_000; i++)
      lines.push(`Content-Usage: /d${i}/ train-ai=${i % 2 === 0 ? "y" : "n"}`);
    lines.push("Content-Usage: /d7/deeper/ train-ai=y");
    const policy = parseRobots(lines.join("\n"));
    for (let q = 0; q < 200; q++) {
      const i = (q * 37) % 9_000;
      const a = usageFor({ url: `/d${i}/page`, agent: "bot", robots: policy });
      assert.equal(a.categories["train-ai"].value, i % 2 === 0 ? "allowed" : "disallowed");
    }
    assert.equal(
      usageFor({ url: "/d7/deeper/x", agent: "bot", robots: policy }).categories["train-ai"].value,
      "allowed",
    );
  });

  it("a header of thousands of unknown labels: the record shows a bounded few", () => {
    const labels = Array.from({ length: 1000 }, (_, i) => `x${i}=y`).join(",");
    const a = usageFor({
      url: "/",
      agent: "bot",
      response: { headers: { "content-usage": labels } },
    });
    assert.equal(a.unknown.length, 1000);
    const json = usageJson(a);
    assert.equal((json.unknown as unknown[]).length, MAX_UNKNOWN_SHOWN);
    assert.equal(json.unknownMore, a.unknown.length - MAX_UNKNOWN_SHOWN);
  });

  it("a robots meta content of a megabyte: only its start is read", () => {
    const big = `${"index ".repeat(MAX_PREFERENCE_LENGTH)}noai`;
    assert.deepEqual(readNoAi(big, "bot"), { noai: false, noimageai: false });
    assert.deepEqual(readNoAi(`noai ${big}`, "bot"), { noai: true, noimageai: false });
  });

  it("bytes that are not ASCII, NUL, invalid UTF-8 in a display string: a failed parse, not a crash", () => {
    for (const text of [
      "train-ai=n\u0000",
      "train-ai=ñ",
      'a=%"%ff"',
      'a=%"%C3"',
      "a=:not base64!:",
      "a=(b c",
      'a="\\x"',
    ]) {
      assert.equal(parseDictionary(text).ok, false, text);
    }
    assert.equal(parseDictionary('a=%"caf%c3%a9"').ok, true);
  });

  it("__proto__ and friends stay data", () => {
    const signal = readContentSignal("__proto__=yes, constructor=no, search=no", {
      ...SOURCE,
      form: "content-signal",
    });
    assert.equal(signal.statement.preferences.search, "disallowed");
    assert.equal(Object.getPrototypeOf(signal.statement.preferences), Object.prototype);
    const file = readTdmRepJson(
      '[{"location":"/","tdm-reservation":1,"__proto__":{"tdm-reservation":0}}]',
    );
    assert.equal(tdmAnswer({ file, url: "/x" }).reservation, 1);
    const description = readUsageDescription('{"default":{"__proto__":{"train-ai":"y"}}}');
    assert.equal(description.ok, false);
  });

  it("a Content-Usage line of 16 KiB is refused as too long, and the rest of the file still read", () => {
    const policy = parseRobots(
      `User-agent: *\nContent-Usage: train-ai=n, x="${"a".repeat(16_000)}"\nContent-Usage: search=n\n`,
    );
    const a = usageFor({ url: "/", agent: "bot", robots: policy });
    assert.equal(a.categories["train-ai"].value, "unknown");
    assert.equal(a.categories.search.value, "disallowed");
    assert.ok(a.diagnostics.some((d) => d.code === "usage-too-long"));
  });
});
