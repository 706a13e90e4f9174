// crawler/usage-verdict.ts: what a crawl records and keeps for a page, per purpose.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pageUsage, refusalDetail } from "../../src/crawler/usage-verdict.js";
import { parseRobots } from "../../src/protocol/robots/index.js";

const robots = parseRobots(
  "User-agent: *\nAllow: /\nContent-Usage: /no-train/ train-ai=n\nContent-Signal: search=yes\n",
);
const input = (
  url: string,
  headers: Record<string, string> = {},
  meta: { name: string; content: string }[] = [],
) => ({
  url,
  agent: "bot",
  robots,
  headers,
  contentType: headers["content-type"] ?? "text/html",
  meta,
});

describe("pageUsage", () => {
  const rows: readonly [
    string,
    ReturnType<typeof input>,
    readonly ("search" | "train-ai" | "ai-input")[],
    boolean,
    string | null,
  ][] = [
    ["no purpose refuses nothing", input("https://s.test/no-train/a"), [], true, null],
    [
      "train-ai refused by robots.txt",
      input("https://s.test/no-train/a"),
      ["train-ai"],
      false,
      "train-ai",
    ],
    [
      "search allowed by Content-Signal",
      input("https://s.test/no-train/a"),
      ["search"],
      true,
      null,
    ],
    [
      "the first refused purpose is named",
      input("https://s.test/x", { "content-usage": "search=n, train-ai=n" }),
      ["search", "train-ai"],
      false,
      "search",
    ],
    ["unknown is kept", input("https://s.test/x"), ["ai-input"], true, null],
    [
      "noai meta refuses ai-input",
      input("https://s.test/x", {}, [{ name: "robots", content: "noai" }]),
      ["ai-input"],
      false,
      "ai-input",
    ],
    [
      "TDMRep header refuses training",
      input("https://s.test/x", { "tdm-reservation": "1" }),
      ["train-ai"],
      false,
      "train-ai",
    ],
  ];
  for (const [name, page, purposes, keep, refused] of rows) {
    it(name, () => {
      const u = pageUsage(page, { purposes });
      assert.equal(u.keep, keep);
      assert.equal(u.refused?.purpose ?? null, refused);
    });
  }

  it("keepRefused keeps the page and still says what refused it", () => {
    const u = pageUsage(input("https://s.test/no-train/a"), {
      purposes: ["train-ai"],
      keepRefused: true,
    });
    assert.equal(u.keep, true);
    assert.equal(u.refused?.purpose, "train-ai");
  });

  it("the record is JSON with each category, or null when nothing was stated", () => {
    const u = pageUsage(input("https://s.test/no-train/a"), { purposes: [] });
    const record = JSON.parse(u.record ?? "null") as Record<
      string,
      { value: string; from: { line?: number } | null }
    >;
    assert.equal(record["train-ai"]?.value, "disallowed");
    assert.equal(record["train-ai"]?.from?.line, 3);
    assert.equal(record.search?.value, "allowed");
    const none = pageUsage(
      { ...input("https://s.test/x"), robots: null },
      { purposes: ["train-ai"] },
    );
    assert.equal(none.record, null);
    assert.equal(none.keep, true);
  });

  it("the refusal detail names the place and the text", () => {
    const u = pageUsage(input("https://s.test/no-train/a"), { purposes: ["train-ai"] });
    assert.equal(
      refusalDetail(u.refused ?? { purpose: "train-ai", from: null }),
      "usage: train-ai refused by robots.txt line 3: Content-Usage: /no-train/ train-ai=n",
    );
  });
});
