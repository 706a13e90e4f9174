// heed check --batch answers its common lines without making strings of them
// (src/cli/batch/answerer.ts). Whatever the input, and however it arrives in pieces, its output
// must be what answering each line the plain way gives: the line reader of --queries, askLine,
// and the writers every other answer uses (DESIGN §6).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { BatchAnswerer, type BatchSettings } from "../../src/cli/batch/answerer.js";
import { batchChunks } from "../../src/cli/batch/input.js";
import {
  type Answer,
  askLine,
  compile,
  defaultsOrNull,
  failed,
  quoted,
  type Rules,
  tooLong,
  toJsonText,
  toText,
} from "../../src/cli/check-answer.js";
import { readError } from "../../src/cli/read-error.js";
import { LineBytes } from "../../src/cli/line-bytes.js";
import { queryLines } from "../../src/cli/query-lines.js";
import { answersOf } from "../helpers/batch-answers.js";

const MAX = 200;

let dir = "";
const files: Record<string, string> = {
  "rfc.txt":
    "User-agent: *\nDisallow: /private\nAllow: /private/ok$\nDisallow: /*.pdf$\nCrawl-delay: 2\n\nUser-agent: bingbot\nDisallow: /\nSitemap: https://a.example/s.xml\n",
  "koster.txt": "Robot-version: 2.0\nUser-agent: *\nDisallow: /cgi-bin\nAllow: /cgi-bin/ok\n",
  "regp.txt":
    "Robot-version: 3.0\nUser-agent: *\nDisallow: /tmp\nVisit-time: 0900-1700\n\nUser-agent: *\nIp-disallow: 10.0.0.*\nDisallow: /x\n",
  'we"ird.txt': "User-agent: *\nDisallow: /q\n",
  "ünï.txt": "User-agent: ünï\nDisallow: /\n",
  "empty.txt": "",
  // Groups a robot's name may or may not pick: tokens compared whole, a trailing `*`, digits.
  "groups.txt":
    "User-agent: bot-x\nDisallow: /private\n\nUser-agent: bingbot*\nAllow: /private\nDisallow: /doc\nCrawl-delay: 3\n\nUser-agent: MJ12bot\nUser-agent: x bot\nDisallow: /tmp\n",
  "koster-groups.txt":
    "Robot-version: 1.0\nUser-agent: bot-x\nDisallow: /private\n\nUser-agent: bingbot\nDisallow: /doc\n\nUser-agent: *\nDisallow: /tmp\n",
  // Groups merged for one robot (RFC 9309 §2.2.1), each with its own delay; robots sharing the
  // `*` group beside one named only for its delay; lines ended by CR alone.
  "merged.txt":
    "User-agent: a\nDisallow: /a1\nCrawl-delay: 4\n\nUser-agent: b\nUser-agent: a\nDisallow: /b1\nCrawl-delay: 7\n\nUser-agent: *\nDisallow: /s\n\nUser-agent: a\nAllow: /s\nDisallow: /a2\n",
  "delays.txt":
    "User-agent: *\nDisallow: /p\nCrawl-delay: 3\n\nUser-agent: ab\nCrawl-delay: 9\n\nUser-agent: abc\nDisallow: /q\n",
  "cr.txt": "User-agent: *\rDisallow: /p\rCrawl-delay: 2\r\rUser-agent: a\rDisallow: /\r",
  "koster-prefix.txt":
    "Robot-version: 2.0\nUser-agent: abcbot\nDisallow: /k\n\nUser-agent: *\nDisallow: /p\nAllow: /p/ok\n",
  // A byte order mark, odd delays, and rules with bytes a URL escapes.
  "odd.txt":
    "\ufeffUser-agent: *\nCrawl-delay: 1e400\nDisallow: /\u00fc\nDisallow: /%E2%80%A8\nDisallow: /p\u007f\n",
};

before(() => {
  dir = mkdtempSync(join(tmpdir(), "heed-batch-prop-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The full line cut to the contract's fields (DESIGN §6), `error` and the plan when asked for. */
function contractJson(answer: Answer, withPlan: boolean): string {
  const full = JSON.parse(toJsonText(answer, true)) as Record<string, unknown>;
  const { allowed, agent, url, dialect, line, rule, error, plan } = full;
  return JSON.stringify({
    allowed,
    agent,
    url,
    dialect,
    line,
    rule,
    error,
    plan: withPlan ? plan : undefined,
  });
}

/** The plain way: every line read by queryLines and answered by askLine, as --queries does. */
async function reference(input: Buffer, settings: BatchSettings): Promise<string> {
  const out = new LineBytes();
  const cache = new Map<string, Rules | string>();
  // The writers of --url and --queries, not the batch's own byte writers.
  const write = (answer: Answer): void => {
    out.text(
      !settings.json
        ? toText(answer)
        : settings.fields === "all"
          ? toJsonText(answer, settings.plan)
          : contractJson(answer, settings.plan),
    );
    out.end();
  };
  async function* whole() {
    yield input;
  }
  for await (const lines of queryLines(whole(), MAX)) {
    for (const line of lines) {
      const from = { input: line.number };
      if (line.tooLong) {
        write(failed(null, "", "", tooLong(), undefined, from));
        continue;
      }
      const tab = line.text.indexOf("\t");
      if (tab < 0) {
        const error = `expected robots-file<TAB>agent<TAB>url, got ${quoted(line.text)}`;
        write(failed(null, "", "", error, undefined, from));
        continue;
      }
      const file = line.text.slice(0, tab);
      let rules = cache.get(file);
      if (rules === undefined && file === "-") {
        // The batch of these tests has no standard input to read a robots.txt from.
        rules = "cannot read a robots.txt from standard input: it holds the batch; name a file";
      }
      if (rules === undefined) {
        let bytes: Buffer | null = null;
        try {
          bytes = readFileSync(file);
        } catch (error) {
          rules = `cannot read ${file}: ${readError(error)}`;
        }
        if (bytes !== null)
          rules = compile({ bytes, origin: null, siteWide: null }, settings.dialect);
        cache.set(file, rules as Rules | string);
      }
      const robots = { ...from, robots: file };
      write(
        askLine(
          rules as Rules | string,
          line.text,
          tab + 1,
          defaultsOrNull(settings.defaults),
          robots,
        ),
      );
    }
  }
  return Buffer.from(out.take()).toString("utf8");
}

async function batch(pieces: readonly Buffer[], settings: BatchSettings): Promise<string> {
  const answerer = new BatchAnswerer(settings, null, MAX);
  const parts: Buffer[] = [];
  async function* source() {
    yield* pieces;
  }
  for await (const chunk of batchChunks(source(), MAX)) {
    for await (const result of answersOf(answerer, chunk)) parts.push(Buffer.from(result.bytes));
  }
  return Buffer.concat(parts).toString("utf8");
}

const fileName = fc.constantFrom(...Object.keys(files), "missing.txt", "", ".", "rfc.txt ");
const agent = fc.constantFrom(
  "bingbot",
  "Googlebot/2.1",
  "ünï",
  " spaced",
  "",
  'q"bot',
  "a\\b",
  "x\u0001y",
  "bot-x",
  "bot-x/2.0",
  "BOT-X",
  "bot-xy",
  "bingbot-prod",
  "MJ12bot",
  "MJ12",
  "x bot",
  "bot ",
  "*",
  "a\u2028b",
  "del\u007f",
  "nul\u0000",
  "bad\ue000utf8",
  "over\ue001long",
  "\ufeffbingbot",
);
const url = fc.constantFrom(
  "https://a.example/private",
  "https://a.example/private/ok",
  "https://a.example/doc.pdf",
  "/cgi-bin/ok?x=1",
  "/tmp/a",
  "/robots.txt",
  'https://a.example/q"uote',
  "https://a.example/back\\slash",
  "https://a.example/ünï",
  "https://a.example/%7Euser",
  "not a url",
  "",
  "   ",
  "http://[::1",
  "/p\u007f",
  "/\u2028",
  "/tmp\u0000",
  "/%C3%BC",
  "/\u00fc",
  "/private\ue000",
  "/doc\ue001",
);
const line = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fileName, agent, url)
      .map(([f, a, u]) => `${f === "" ? "" : join("DIR", f)}\t${a}\t${u}`),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(agent, url).map(([a, u]) => `-\t${a}\t${u}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fileName, agent, url, fc.constantFrom("10.0.0.1", "x", ""))
      .map(([f, a, u, ip]) => `${join("DIR", f)}\t${a}\t${u}\t${ip}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "   ", "# comment", "  # indented", "no tabs here", "\t\t"),
  },
  {
    weight: 1,
    arbitrary: fc.nat({ max: 2 * MAX }).map((n) => `DIR/rfc.txt\tbot\t/${"x".repeat(n)}`),
  },
);
/**
 * The input's bytes: U+E000 stands for a byte that is never UTF-8 (0xFF), U+E001 for an overlong
 * encoding of `/` (C0 AF); the rest is UTF-8.
 */
function toBytes(text: string): Buffer {
  return Buffer.concat(
    text
      .split(/(\ue000|\ue001)/)
      .map((part) =>
        part === "\ue000"
          ? Buffer.from([0xff])
          : part === "\ue001"
            ? Buffer.from([0xc0, 0xaf])
            : Buffer.from(part),
      ),
  );
}

const input = fc.record({
  lines: fc.array(line, { maxLength: 40 }),
  ends: fc.array(fc.constantFrom("\n", "\r\n", "\r"), { minLength: 40, maxLength: 40 }),
  lastEnd: fc.boolean(),
  cuts: fc.array(fc.nat(), { maxLength: 8 }),
});

describe("check --batch: the quick answers are the plain answers", () => {
  for (const settings of [
    { dialect: "auto", defaults: {}, json: true, plan: false, fields: "all" },
    { dialect: "auto", defaults: {}, json: true, plan: true, fields: "all" },
    { dialect: "auto", defaults: {}, json: true, plan: false, fields: "contract" },
    { dialect: "auto", defaults: {}, json: false, plan: false },
    { dialect: "rfc9309", defaults: { ip: "10.0.0.1" }, json: true, plan: false, fields: "all" },
    { dialect: "koster1996", defaults: {}, json: false, plan: false },
    { dialect: "regp", defaults: {}, json: true, plan: false, fields: "all" },
    { dialect: "regp", defaults: {}, json: true, plan: true, fields: "contract" },
    { dialect: "auto", defaults: { languages: ["en"] }, json: true, plan: false, fields: "all" },
  ] satisfies BatchSettings[]) {
    it(`${settings.json ? `JSON, ${settings.fields} fields` : "text"}${settings.plan ? " with plans" : ""}, dialect ${settings.dialect}${Object.keys(settings.defaults).length > 0 ? `, with ${Object.keys(settings.defaults).join(", ")}` : ""}`, async () => {
      await fc.assert(
        fc.asyncProperty(input, async ({ lines, ends, lastEnd, cuts }) => {
          const text = lines
            .map(
              (l, i) => l.replaceAll("DIR", dir) + (i < lines.length - 1 || lastEnd ? ends[i] : ""),
            )
            .join("");
          const bytes = toBytes(text);
          const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const pieces: Buffer[] = [];
          let from = 0;
          for (const cut of at) {
            pieces.push(bytes.subarray(from, cut));
            from = cut;
          }
          pieces.push(bytes.subarray(from));
          assert.equal(await batch(pieces, settings), await reference(bytes, settings));
        }),
        { numRuns: 150 },
      );
    });
  }
});

// Runs of plain lines, as the quick path answers them: files named in runs, again after
// others, robots whose names are prefixes of each other and more than the quick path keeps
// (8), taking turns, and /robots.txt itself.
const runFile = fc.constantFrom(
  "merged.txt",
  "delays.txt",
  "cr.txt",
  "koster-prefix.txt",
  "koster-groups.txt",
  "regp.txt",
  "rfc.txt",
  "empty.txt",
);
const runAgent = fc.constantFrom(
  ...["a", "ab", "abc", "abcd", "abcbot", "b", "A", "a/2.0", "*", "bingbot", "bingbot-x"],
  ...["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"],
);
const runUrl = fc.constantFrom(
  ...["/", "/p", "/p/ok", "/q", "/s", "/a1", "/a2", "/b1", "/k", "/tmp", "/doc", "/x"],
  ...["/robots.txt", "/robots.txt?x", "/robots.txtx", "https://a.example/robots.txt"],
);
const runs = fc.array(
  fc.tuple(runFile, fc.array(fc.tuple(runAgent, runUrl), { minLength: 1, maxLength: 12 })),
  { maxLength: 12 },
);

describe("check --batch: runs of lines answered quickly are the plain answers", () => {
  for (const settings of [
    { dialect: "auto", defaults: {}, json: true, plan: false, fields: "all" },
    { dialect: "auto", defaults: {}, json: true, plan: true, fields: "all" },
    { dialect: "auto", defaults: {}, json: true, plan: false, fields: "contract" },
    { dialect: "auto", defaults: {}, json: false, plan: false },
    { dialect: "koster1996", defaults: {}, json: true, plan: false, fields: "all" },
    { dialect: "koster1996", defaults: {}, json: true, plan: true, fields: "contract" },
  ] satisfies BatchSettings[]) {
    it(`${settings.json ? `JSON, ${settings.fields} fields` : "text"}${settings.plan ? " with plans" : ""}, dialect ${settings.dialect}`, async () => {
      await fc.assert(
        fc.asyncProperty(runs, async (runs) => {
          const text = runs
            .flatMap(([file, asks]) => asks.map(([a, u]) => `${join(dir, file)}\t${a}\t${u}\n`))
            .join("");
          const bytes = Buffer.from(text);
          assert.equal(await batch([bytes], settings), await reference(bytes, settings));
        }),
        { numRuns: 100 },
      );
    });
  }
});

describe("check --batch: hostile input shapes", () => {
  it("two hundred thousand CR-ended query lines are answered in one pass, one answer each", async () => {
    const line = `${join(dir, "rfc.txt")}\tbot\t/private\r`;
    const lines = 200_000;
    const out = await batch([Buffer.from(line.repeat(lines))], {
      dialect: "auto",
      defaults: {},
      json: false,
      plan: false,
    });
    const answers = out.split("\n");
    assert.equal(answers.length, lines + 1);
    assert.match(
      answers[lines - 1] ?? "",
      /^disallowed \/private \[.*rfc\.txt\] \(bot, rfc9309: line 2: Disallow: \/private\)$/,
    );
  });
  it("a run of lines naming a new robot each keeps a bounded set of answer pieces", async () => {
    const rfc = join(dir, "rfc.txt");
    const text = Array.from({ length: 5_000 }, (_, i) => `${rfc}\tbot${i}\t/private`).join("\n");
    const out = await batch([Buffer.from(text)], {
      dialect: "auto",
      defaults: {},
      json: true,
      plan: false,
      fields: "all",
    });
    const answers = out
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { token: string; line: number });
    assert.equal(answers.length, 5_000);
    assert.deepEqual(answers[4_999], { ...answers[4_999], token: "bot4999", line: 2 });
  });
});
