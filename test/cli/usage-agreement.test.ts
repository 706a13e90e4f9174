// `heed usage build`, `heed lint` and `heed check --purpose` read a robots.txt's Content-Usage and
// Content-Signal lines the same way: build writes lines lint finds nothing wrong with, check
// answers what the description says, and lint warns of a line's allowance exactly where check,
// for a robot that line applies to, answers "disallowed" (draft-ietf-aipref-attach-05 §3: each
// form settles its longest matching path in the robot's merged groups, RFC 9309 §2.2.1; then
// draft-ietf-aipref-vocab-07 §5.1: the restrictive value wins). Run as child processes.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const CATEGORIES = ["search", "train-ai", "ai-input"] as const;
type Category = (typeof CATEGORIES)[number];

interface Case {
  readonly name: string;
  readonly description: unknown;
  /** The robots.txt before the build writes into it. */
  readonly robots: string;
  /** Lines added after the build (a site's own edits to other groups). */
  readonly added?: string;
  readonly agents: readonly string[];
  /** What check must answer: agent, URL, purpose, value. */
  readonly expect: readonly (readonly [string, string, Category, string])[];
  /** Lint warnings of usage-conflict expected, by line (0 for none). */
  readonly conflicts: number;
}

const CASES: readonly Case[] = [
  {
    // The file: a refusal for every path, an allowance under /blog/, both forms.
    name: "path-scoped Content-Signal beside Content-Usage",
    description: {
      default: { "train-ai": "n", search: "y" },
      paths: [{ path: "/blog/", "train-ai": "y" }],
    },
    robots: "User-agent: *\nDisallow: /private/\n",
    agents: ["anybot"],
    expect: [
      ["anybot", "/blog/a", "train-ai", "allowed"],
      ["anybot", "/about", "train-ai", "disallowed"],
      ["anybot", "/blog/a", "search", "allowed"],
    ],
    conflicts: 0,
  },
  {
    name: "AIPREF categories on nested paths",
    description: {
      default: { "ai-input": "n" },
      paths: [
        { path: "/docs/", "ai-input": "y", "train-ai": "y" },
        { path: "/docs/old/", "ai-input": "n" },
      ],
    },
    robots: "",
    agents: ["anybot"],
    expect: [
      ["anybot", "/docs/new", "ai-input", "allowed"],
      ["anybot", "/docs/old/x", "ai-input", "disallowed"],
      ["anybot", "/docs/old/x", "train-ai", "allowed"],
      ["anybot", "/other", "ai-input", "disallowed"],
    ],
    conflicts: 0,
  },
  {
    // ExampleBot's two groups are merged (RFC 9309 §2.2.1): the Content-Signal refusal of one
    // shadows the Content-Usage allowance of the other; OtherBot's group stands alone (each
    // group has a rule: a User-agent line after only extension lines would join the group).
    name: "agent-specific groups, merged",
    description: { default: { "train-ai": "y" }, paths: [{ path: "/shop/", "train-ai": "n" }] },
    robots: "User-agent: ExampleBot\nAllow: /\n\nUser-agent: *\nAllow: /\n",
    added:
      "\nUser-agent: ExampleBot\nAllow: /\nContent-Usage: /blog/ train-ai=y\n\nUser-agent: examplebot\nAllow: /\nContent-Signal: ai-train=no\n\nUser-agent: OtherBot\nAllow: /\nContent-Usage: /blog/ train-ai=y\n",
    agents: ["anybot", "ExampleBot", "OtherBot"],
    expect: [
      ["anybot", "/shop/x", "train-ai", "disallowed"],
      ["anybot", "/blog/x", "train-ai", "allowed"],
      ["ExampleBot", "/blog/x", "train-ai", "disallowed"],
      ["OtherBot", "/blog/x", "train-ai", "allowed"],
      ["OtherBot", "/shop/x", "train-ai", "unknown"],
    ],
    conflicts: 1,
  },
];

interface UsageSourceJson {
  readonly place: string;
  readonly line?: number;
  readonly value?: string;
}
interface CategoryJson {
  readonly value: string;
  readonly from: UsageSourceJson | null;
  readonly sources?: readonly UsageSourceJson[];
}

/** A URL under a usage line's path (`Content-Usage: /blog/ …` → `/blog/x`), or `/x`. */
function urlUnder(line: string): string {
  const value = line.replace(/^[^:]*:\s*/, "");
  const path = /^\//.test(value) ? (value.split(/\s/)[0] ?? "/") : "/";
  return `${path.replace(/\*/g, "")}x`;
}

describe("usage build, lint and check --purpose agree", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-usage-agree-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const robots = join(dir, `${CASES.indexOf(c)}.txt`);
      const description = join(dir, `${CASES.indexOf(c)}.json`);
      await writeFile(description, JSON.stringify(c.description));
      await writeFile(robots, c.robots);
      const built = await runCli(["usage", "build", description, "--robots", robots]);
      assert.equal(built.code, 0, built.stderr);
      if (c.added !== undefined)
        await writeFile(robots, (await readFile(robots, "utf8")) + c.added);
      const text = await readFile(robots, "utf8");

      // What lint warns of: (line, category) pairs, both lines of a same-path disagreement.
      const lint = await runCli(["lint", robots, "--json"]);
      const findings = (
        JSON.parse(lint.stdout) as { findings: { line: number; code: string; message: string }[] }
      ).findings.filter((f) => f.code === "usage-conflict");
      assert.equal(findings.length, c.conflicts, JSON.stringify(findings));
      const findingKeys = findings.map((f) => {
        const category = /(?:allows|disagree on) (\S+) for/.exec(f.message)?.[1];
        const other = /of line (\d+)/.exec(f.message)?.[1];
        const keys = [`${f.line}:${category}`];
        if (/disagree on/.test(f.message)) keys.push(`${other}:${category}`);
        return keys;
      });
      const warned = new Set(findingKeys.flat());

      // What check answers at every usage line's path, for every robot.
      const urls = text
        .split("\n")
        .filter((l) => /^content-(usage|signal):/i.test(l))
        .map(urlUnder);
      const asked: [string, string][] = [];
      for (const agent of c.agents) for (const url of urls) asked.push([agent, url]);
      for (const [agent, url] of c.expect) asked.push([agent, url]);
      const answers = new Map<string, Record<Category, CategoryJson>>();
      for (const agent of c.agents) {
        const mine = asked.filter(([a]) => a === agent).flatMap(([, u]) => ["--url", u]);
        const r = await runCli(["check", robots, "--agent", agent, "--json", ...mine]);
        for (const o of jsonLines(r.stdout) as {
          url: string;
          usage: Record<Category, CategoryJson>;
        }[])
          answers.set(`${agent} ${o.url}`, o.usage);
      }
      for (const [agent, url, category, value] of c.expect)
        assert.equal(
          answers.get(`${agent} ${url}`)?.[category].value,
          value,
          `${agent} ${url} ${category}`,
        );

      // Agreement: every allowance check overrules is warned of, and every warning names an
      // allowance check overrules (a same-path warning names both lines: one is the refusal).
      const overruled = new Set<string>();
      for (const usage of answers.values()) {
        for (const category of CATEGORIES) {
          const answer = usage[category];
          const sources =
            answer.sources ??
            (answer.from === null ? [] : [{ ...answer.from, value: answer.value }]);
          for (const s of sources) {
            if (s.place === "robots.txt" && s.value === "allowed" && answer.value === "disallowed")
              overruled.add(`${s.line}:${category}`);
          }
        }
      }
      for (const key of overruled)
        assert.ok(warned.has(key), `check overrules ${key}; lint is silent`);
      for (const keys of findingKeys)
        assert.ok(
          keys.some((k) => overruled.has(k)),
          `lint warns of ${keys.join(" ")}; check disagrees`,
        );
    });
  }
});
