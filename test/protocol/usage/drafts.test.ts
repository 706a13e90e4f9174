// Table tests from the examples of the texts heed implements, restated: draft-ietf-aipref-vocab-07
// (vocab), draft-ietf-aipref-attach-05 (attach), draft-romm-aipref-contentsignals-00 and
// Cloudflare's Content Signals Policy, the W3C TDMRep final report, and DeviantArt's noai.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRobots } from "../../../src/protocol/robots/index.js";
import {
  type Category,
  combineStatements,
  mayUse,
  readContentSignal,
  readContentUsage,
  readTdmRepJson,
  type StatementReading,
  tdmAnswer,
  type UsageSource,
  type UsageValue,
  usageFor,
} from "../../../src/protocol/usage/index.js";

const HEADER: UsageSource = {
  form: "content-usage",
  place: "header",
  line: null,
  name: "content-usage",
  text: "",
};

function values(reading: StatementReading): Record<Category, UsageValue> {
  const p = reading.statement.preferences;
  return {
    search: p.search ?? "unknown",
    "train-ai": p["train-ai"] ?? "unknown",
    "ai-input": p["ai-input"] ?? "unknown",
  };
}

describe("Content-Usage statements (vocab §6)", () => {
  const rows: readonly [string, string, Partial<Record<Category, UsageValue>>][] = [
    [
      "vocab §6: allow training, disallow search",
      "train-ai=y, search=n",
      { "train-ai": "allowed", search: "disallowed" },
    ],
    ["attach §1.2: the header example", "train-ai=n", { "train-ai": "disallowed" }],
    // vocab §6.5.1: repeated keys keep the last value; a bare key is a boolean, "n" a string.
    ["vocab §6.5.1: last values are not tokens", 'train-ai=y, train-ai, search=n, search="n"', {}],
    ["vocab §6.5.1: upper case fails the parse", "Train-AI=n", {}],
    [
      "vocab §6.5.2: parameters of the selected value only",
      "train-ai;allow=n, train-ai=y",
      { "train-ai": "allowed" },
    ],
    // The draft's own example ends in ";", which RFC 9651 §4.2.3.2 refuses: unknown either way.
    ["vocab §6.5.2: parameters on an unknown preference", 'train-ai;has;parameters="?";', {}],
    ["vocab §6.5.2: the same without the trailing ;", 'train-ai;has;parameters="?"', {}],
    ["vocab §6.5: other tokens are unknown", "train-ai=no, search=yes", {}],
    ["vocab §6.5: an integer is unknown", "train-ai=0", {}],
    [
      "blanks around commas",
      "search=y ,\ttrain-ai=n",
      { search: "allowed", "train-ai": "disallowed" },
    ],
    ["leading SP is discarded (RFC 9651 §4.2)", "  train-ai=n", { "train-ai": "disallowed" }],
    ["a trailing comma fails the parse", "train-ai=n,", {}],
    ["an empty statement states nothing", "", {}],
  ];
  for (const [name, value, want] of rows) {
    it(name, () => {
      const got = values(readContentUsage(value, HEADER));
      assert.deepEqual(got, {
        search: "unknown",
        "train-ai": "unknown",
        "ai-input": "unknown",
        ...want,
      });
    });
  }

  it("vocab §6.4: unknown labels are kept and reported, and ignored", () => {
    const r = readContentUsage("train-genai=n, bulk=n, search=y", HEADER);
    assert.deepEqual(
      r.statement.unknown.map((u) => u.label),
      ["train-genai", "bulk"],
    );
    assert.equal(r.statement.preferences["train-ai"], undefined);
    assert.equal(r.statement.preferences.search, "allowed");
  });

  it("a failed parse says where and why", () => {
    const r = readContentUsage("train-ai=n search=y", HEADER);
    assert.equal(r.diagnostics[0]?.code, "usage-syntax");
    assert.match(r.diagnostics[0]?.message ?? "", /character \d+/);
  });
});

describe("robots.txt Content-Usage rules (attach §3)", () => {
  // attach §3.4, restated: one group for everyone with a general and a path rule, one for
  // ExampleBot that allows training everywhere.
  const file = [
    "User-Agent: *",
    "Allow: /",
    "Disallow: /never/",
    "Content-Usage: train-ai=n",
    "Content-Usage: /ai-ok/ train-ai=y",
    "",
    "User-Agent: ExampleBot",
    "Allow: /",
    "Content-Usage: train-ai=y",
  ].join("\n");
  const policy = parseRobots(file);
  const rows: readonly [string, string, boolean, UsageValue, number | null][] = [
    ["OtherBot", "https://example.com/test", true, "disallowed", 4],
    ["OtherBot", "https://example.com/never/test", false, "unknown", null],
    ["OtherBot", "https://example.com/ai-ok/test", true, "allowed", 5],
    ["ExampleBot", "https://example.com/test", true, "allowed", 9],
    ["ExampleBot", "https://example.com/never/test", true, "allowed", 9],
  ];
  for (const [agent, url, crawl, want, line] of rows) {
    it(`${agent} ${new URL(url).pathname}: crawl ${crawl}, train-ai ${want}`, () => {
      assert.equal(policy.check(url, agent).allowed, crawl);
      const answer = usageFor({ url, agent, robots: policy });
      assert.equal(answer.categories["train-ai"].value, want);
      assert.equal(answer.categories["train-ai"].from?.line ?? null, line);
    });
  }

  it("attach §1.2: a group with Allow and Content-Usage", () => {
    const p = parseRobots("User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n");
    const a = usageFor({ url: "/x", agent: "bot", robots: p });
    assert.equal(a.categories["train-ai"].value, "disallowed");
    assert.equal(a.categories.search.value, "unknown");
  });

  it("attach §3.1: rules with identical paths both apply, the restrictive one wins", () => {
    const p = parseRobots(
      "User-Agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n",
    );
    const a = usageFor({ url: "/a/b", agent: "bot", robots: p });
    assert.equal(a.categories["train-ai"].value, "disallowed");
    assert.equal(a.categories["train-ai"].sources.length, 2);
  });

  it("attach §3.1: order carries no meaning; Content-Usage does not end a group", () => {
    const p = parseRobots(
      "User-Agent: a\nContent-Usage: train-ai=n\nDisallow: /x\nUser-Agent: b\nDisallow: /y\n",
    );
    assert.equal(p.check("/x", "a").allowed, false);
    assert.equal(p.check("/y", "a").allowed, true);
    assert.equal(
      usageFor({ url: "/z", agent: "a", robots: p }).categories["train-ai"].value,
      "disallowed",
    );
    assert.equal(
      usageFor({ url: "/z", agent: "b", robots: p }).categories["train-ai"].value,
      "unknown",
    );
  });

  it("attach §3.2: a value not starting with / has no path; # ends the value", () => {
    const p = parseRobots("User-Agent: *\nContent-Usage: train-ai=n # not for training\n");
    const a = usageFor({ url: "/anything", agent: "bot", robots: p });
    assert.equal(a.categories["train-ai"].value, "disallowed");
    assert.equal(a.diagnostics.length, 0);
  });

  it("attach §3.1: wildcards and percent-encoding as for Allow and Disallow", () => {
    const p = parseRobots(
      "User-Agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /%7Euser/ search=n\n",
    );
    assert.equal(
      usageFor({ url: "/doc/a.pdf", agent: "bot", robots: p }).categories["train-ai"].value,
      "disallowed",
    );
    assert.equal(
      usageFor({ url: "/doc/a.pdf?x", agent: "bot", robots: p }).categories["train-ai"].value,
      "unknown",
    );
    assert.equal(
      usageFor({ url: "/~user/page", agent: "bot", robots: p }).categories.search.value,
      "disallowed",
    );
  });

  it("merged groups (RFC 9309 §2.2.1) merge their Content-Usage rules", () => {
    const p = parseRobots(
      "User-Agent: bot\nContent-Usage: search=n\n\nUser-Agent: bot\nContent-Usage: train-ai=n\n",
    );
    const a = usageFor({ url: "/", agent: "bot", robots: p });
    assert.equal(a.categories.search.value, "disallowed");
    assert.equal(a.categories["train-ai"].value, "disallowed");
  });

  it("a line before any User-agent line belongs to no group and applies to no robot", () => {
    const p = parseRobots("Content-Usage: train-ai=n\nUser-Agent: *\nAllow: /\n");
    assert.equal(
      usageFor({ url: "/", agent: "bot", robots: p }).categories["train-ai"].value,
      "unknown",
    );
  });
});

describe("Content-Signal (draft-romm-aipref-contentsignals-00, Cloudflare's policy)", () => {
  const SOURCE: UsageSource = { ...HEADER, form: "content-signal", place: "robots.txt", line: 2 };
  const rows: readonly [string, string, Partial<Record<Category, UsageValue>>][] = [
    [
      "Cloudflare's managed default",
      "search=yes, ai-train=no",
      { search: "allowed", "train-ai": "disallowed" },
    ],
    [
      "all three",
      "search=yes,ai-input=no,ai-train=no",
      { search: "allowed", "ai-input": "disallowed", "train-ai": "disallowed" },
    ],
    [
      "case and blanks are read",
      "Search = YES , AI-Train=No",
      { search: "allowed", "train-ai": "disallowed" },
    ],
    ["a label left out states nothing", "ai-input=yes", { "ai-input": "allowed" }],
    ["values other than yes and no state nothing", "search=y, ai-train=conditional", {}],
    [
      "the same label twice: the restrictive value",
      "ai-train=yes, ai-train=no",
      { "train-ai": "disallowed" },
    ],
  ];
  for (const [name, value, want] of rows) {
    it(name, () => {
      const got = values(readContentSignal(value, SOURCE));
      assert.deepEqual(got, {
        search: "unknown",
        "train-ai": "unknown",
        "ai-input": "unknown",
        ...want,
      });
    });
  }

  it("in a robots.txt group, beside Allow", () => {
    const p = parseRobots("User-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n");
    const a = usageFor({ url: "/page", agent: "bot", robots: p });
    assert.equal(a.categories.search.value, "allowed");
    assert.equal(a.categories["train-ai"].value, "disallowed");
    assert.equal(a.categories["train-ai"].from?.form, "content-signal");
    assert.equal(a.categories["train-ai"].from?.line, 2);
  });

  it("a typo of a label is kept and named", () => {
    const r = readContentSignal("train-ai=no", SOURCE);
    assert.deepEqual(r.statement.unknown, [{ label: "train-ai", value: "no" }]);
    assert.match(r.diagnostics[0]?.message ?? "", /ai-train/);
  });
});

describe("TDMRep (W3C final report)", () => {
  // The report's example: three groups of files, reserved without policy, reserved with one,
  // and JPEG images not reserved.
  const file = readTdmRepJson(
    JSON.stringify([
      { location: "/directory-a/", "tdm-reservation": 1 },
      {
        location: "/directory-b/html/",
        "tdm-reservation": 1,
        "tdm-policy": "https://provider.com/policies/policy.json",
      },
      { location: "/directory-b/images/*.jpg", "tdm-reservation": 0 },
    ]),
  );
  const rows: readonly [string, 0 | 1 | null, string | null][] = [
    ["/directory-a/doc.pdf", 1, null],
    ["/directory-b/html/page.html", 1, "https://provider.com/policies/policy.json"],
    ["/directory-b/images/cat.jpg", 0, null],
    ["/directory-b/images/cat.png", null, null],
    ["/elsewhere", null, null],
  ];
  for (const [path, reservation, policy] of rows) {
    it(`tdmrep.json: ${path} → ${reservation}`, () => {
      const a = tdmAnswer({ file, url: `https://provider.com${path}` });
      assert.equal(a.reservation, reservation);
      assert.equal(a.policy, policy);
    });
  }

  it("the first matching rule decides, not the longest", () => {
    const f = readTdmRepJson(
      '[{"location":"/","tdm-reservation":0},{"location":"/a/","tdm-reservation":1}]',
    );
    assert.equal(tdmAnswer({ file: f, url: "/a/b" }).reservation, 0);
  });

  it("matching is case-sensitive", () => {
    const f = readTdmRepJson('[{"location":"/A/","tdm-reservation":1}]');
    assert.equal(tdmAnswer({ file: f, url: "/a/x" }).reservation, null);
  });

  it("the header example: tdm-reservation 1 with a policy", () => {
    const a = tdmAnswer({
      url: "/x",
      headers: {
        "tdm-reservation": "1",
        "tdm-policy": "https://provider.com/policies/policy.json",
      },
    });
    assert.equal(a.reservation, 1);
    assert.equal(a.policy, "https://provider.com/policies/policy.json");
    assert.equal(a.source?.place, "header");
  });

  it("processing priority: header supersedes the file, meta the header; absence resets nothing", () => {
    const f = readTdmRepJson('[{"location":"/","tdm-reservation":1}]');
    assert.equal(
      tdmAnswer({ file: f, url: "/x", headers: { "tdm-reservation": "0" } }).reservation,
      0,
    );
    const both = tdmAnswer({
      file: f,
      url: "/x",
      headers: { "tdm-reservation": "0" },
      meta: [{ name: "tdm-reservation", content: "1" }],
    });
    assert.equal(both.reservation, 1);
    assert.equal(both.source?.place, "meta");
    assert.equal(tdmAnswer({ file: f, url: "/x", headers: {} }).reservation, 1);
  });

  it("meta in its RDFa-style spelling is read too", () => {
    assert.equal(
      tdmAnswer({ url: "/x", meta: [{ name: "tdm:reservation", content: "1" }] }).reservation,
      1,
    );
  });

  it("other values are protocol errors: unset, and said", () => {
    const a = tdmAnswer({ url: "/x", headers: { "tdm-reservation": "yes" } });
    assert.equal(a.reservation, null);
    assert.equal(a.diagnostics[0]?.code, "tdm-reservation-value");
    const f = readTdmRepJson('[{"location":"/","tdm-reservation":"1"}]');
    assert.equal(f.rules[0]?.reservation, null);
    assert.equal(f.diagnostics[0]?.code, "tdmrep-reservation");
  });

  // TDMRep defines one value and says nothing of repeated lines (RFC 9110 §5.3 joins them with
  // ", "); heed's safe reading: any 1 reserves, else any 0, and a bad value is unset alone.
  const repeated: readonly [string, 0 | 1 | null, readonly string[]][] = [
    ["1, 0", 1, ["tdm-reservation-repeated"]],
    ["0, 1", 1, ["tdm-reservation-repeated"]],
    ["0,0", 0, []],
    ["1 , 1", 1, []],
    ["yes, 1", 1, ["tdm-reservation-value", "tdm-reservation-repeated"]],
    ["0, maybe", 0, ["tdm-reservation-value", "tdm-reservation-repeated"]],
    [
      "yes, no",
      null,
      ["tdm-reservation-value", "tdm-reservation-value", "tdm-reservation-repeated"],
    ],
    [`${"0, ".repeat(5000)}1`, 1, ["tdm-reservation-repeated"]],
  ];
  for (const [value, reservation, codes] of repeated) {
    it(`repeated header lines ${JSON.stringify(value.slice(0, 20))}: ${reservation}`, () => {
      const a = tdmAnswer({ url: "/x", headers: { "tdm-reservation": value } });
      assert.equal(a.reservation, reservation);
      assert.deepEqual(
        a.diagnostics.map((d) => d.code),
        codes,
      );
      if (reservation !== null) assert.ok((a.source?.text.length ?? 0) <= 200);
    });
  }

  it("repeated meta elements: any 1 reserves, wherever it comes", () => {
    const meta = (...contents: string[]) =>
      tdmAnswer({
        url: "/x",
        meta: contents.map((content) => ({ name: "tdm-reservation", content })),
      });
    assert.equal(meta("1", "0").reservation, 1);
    assert.equal(meta("0", "1").reservation, 1);
    assert.equal(meta("0", "0").reservation, 0);
  });

  it("bad values among many get a few diagnostics, not one each", () => {
    const a = tdmAnswer({ url: "/x", headers: { "tdm-reservation": "x,".repeat(1000) + "1" } });
    assert.equal(a.reservation, 1);
    assert.ok(a.diagnostics.length <= 6, String(a.diagnostics.length));
  });

  it("the reservation maps to train-ai and ai-input, not search", () => {
    const a = usageFor({
      url: "/x",
      agent: "bot",
      response: { headers: { "tdm-reservation": "1" } },
    });
    assert.equal(a.categories["train-ai"].value, "disallowed");
    assert.equal(a.categories["ai-input"].value, "disallowed");
    assert.equal(a.categories.search.value, "unknown");
  });
});

describe("noai and noimageai", () => {
  const rows: readonly [
    string,
    Record<string, string>,
    { name: string; content: string }[],
    UsageValue,
  ][] = [
    [
      "robots meta noai",
      { "content-type": "text/html" },
      [{ name: "robots", content: "noai" }],
      "disallowed",
    ],
    [
      "robots meta noai, noimageai",
      { "content-type": "text/html" },
      [{ name: "robots", content: "NoAI, NoImageAI" }],
      "disallowed",
    ],
    [
      "noimageai on a page says nothing of the page",
      { "content-type": "text/html" },
      [{ name: "robots", content: "noimageai" }],
      "unknown",
    ],
    [
      "X-Robots-Tag noimageai on an image",
      { "content-type": "image/png", "x-robots-tag": "noimageai" },
      [],
      "disallowed",
    ],
    ["X-Robots-Tag noai", { "x-robots-tag": "noai" }, [], "disallowed"],
    ["X-Robots-Tag naming this robot", { "x-robots-tag": "bot: noai" }, [], "disallowed"],
    ["X-Robots-Tag naming another robot", { "x-robots-tag": "otherbot: noai" }, [], "unknown"],
    ["meta naming this robot", {}, [{ name: "bot", content: "noai" }], "disallowed"],
    ["a longer word is not noai", { "x-robots-tag": "noaix" }, [], "unknown"],
  ];
  for (const [name, headers, meta, want] of rows) {
    it(name, () => {
      const a = usageFor({ url: "/x", agent: "bot", response: { headers, meta } });
      assert.equal(a.categories["train-ai"].value, want);
      assert.equal(a.categories.search.value, "unknown");
    });
  }
});

describe("combining (vocab §5.1) and purposes", () => {
  const s = (value: string) => readContentUsage(value, HEADER);
  const rows: readonly [string[], UsageValue][] = [
    [["train-ai=y", "train-ai=n"], "disallowed"],
    [["train-ai=n", "train-ai=y"], "disallowed"],
    [["train-ai=y", "search=n"], "allowed"],
    [["search=n"], "unknown"],
    [[], "unknown"],
  ];
  for (const [statements, want] of rows) {
    it(`${JSON.stringify(statements)} → train-ai ${want}`, () => {
      assert.equal(combineStatements(statements.map(s)).categories["train-ai"].value, want);
    });
  }

  it("robots.txt says allowed, a header disallows: disallowed, from the header", () => {
    const p = parseRobots("User-Agent: *\nContent-Usage: train-ai=y\n");
    const a = usageFor({
      url: "/x",
      agent: "bot",
      robots: p,
      response: { headers: { "content-usage": "train-ai=n" } },
    });
    assert.equal(a.categories["train-ai"].value, "disallowed");
    assert.equal(a.categories["train-ai"].from?.place, "header");
    assert.equal(mayUse(a, "train-ai").allowed, false);
    assert.equal(mayUse(a, "search").allowed, true);
    assert.equal(mayUse(a, "search", { unknown: "refuse" }).allowed, false);
  });
});
