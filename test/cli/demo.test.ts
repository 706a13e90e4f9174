// `heed demo` end to end, as `npm run demo` runs it: the built CLI starts the news site of
// seeds/003 §4.1 and crawls it five times. Each run's table is checked against the paper's
// Tables 9-11, with what was fetched and the gaps read here, independently, from the site's own
// request log that the JSON carries (not from the rows the demo computed, which must agree).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "../helpers/run-cli.js";

/** Arrival stamps may be a few ms closer than the gap the crawler kept (crawl-harness.ts). */
const TOLERANCE_S = 0.02;

interface LogEntry {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly cookie: string | null;
}

interface Row {
  readonly resource: string;
  readonly fetched: number;
  readonly total: number;
  readonly minGapSeconds: number | null;
  readonly withComments?: number;
}

interface Run {
  readonly robots: string;
  readonly rows: readonly Row[];
  readonly log: readonly LogEntry[];
  readonly waitedSeconds?: number | null;
  readonly opensAt?: string;
  readonly refused?: string | null;
  readonly agrees: boolean | null;
}

type Class = "home page" | "useless pages" | "latest news" | "old news";

/** The class and the resource of a logged path, as the paper's tables sort them. */
function resourceOf(
  path: string,
  latest: ReadonlySet<number>,
): { cls: Class; key: string; form: string } | null {
  const url = new URL(path, "http://x.invalid");
  if (url.pathname === "/") return { cls: "home page", key: "/", form: "page" };
  if (["/login.do", "/reg.do", "/newsRelease.do"].includes(url.pathname))
    return { cls: "useless pages", key: url.pathname, form: "page" };
  const snap = /^\/html\/news(\d+)\.html$/.exec(url.pathname);
  const id =
    snap !== null
      ? Number(snap[1])
      : url.pathname === "/newsItem.do"
        ? Number(url.searchParams.get("id"))
        : NaN;
  if (Number.isNaN(id)) return null;
  return {
    cls: latest.has(id) ? "latest news" : "old news",
    key: String(id),
    form: snap !== null ? "snapshot" : "item",
  };
}

interface Observed {
  readonly resources: Set<string>;
  readonly forms: Set<string>;
  /** Gaps, in seconds, between each request of the class and the one before it. */
  readonly gaps: number[];
}

function observe(log: readonly LogEntry[], items: number): Map<Class, Observed> {
  const latest = new Set([items, items - 1, items - 2]);
  const out = new Map<Class, Observed>();
  const sorted = [...log].filter((r) => r.method === "GET").sort((a, b) => a.at - b.at);
  sorted.forEach((r, i) => {
    const c = resourceOf(r.path, latest);
    if (c === null) return;
    const o = out.get(c.cls) ?? { resources: new Set(), forms: new Set(), gaps: [] };
    o.resources.add(c.key);
    o.forms.add(c.form);
    const before = sorted[i - 1];
    if (before !== undefined) o.gaps.push((r.at - before.at) / 1000);
    out.set(c.cls, o);
  });
  return out;
}

/**
 * seeds/003 Tables 9, 10, 11: fetched or not, and the crawl delay. "Yes" is read as every
 * resource of the class; a delay above 0 as the smallest gap the site saw.
 */
const PAPER: Record<string, readonly [Class, boolean, number][]> = {
  // Table 9: without robots.txt
  none: [
    ["home page", true, 0],
    ["useless pages", true, 0],
    ["latest news", true, 0],
    ["old news", false, 0],
  ],
  // Table 10: with the REGP robots.txt
  regp: [
    ["home page", true, 0.5],
    ["useless pages", false, 0],
    ["latest news", true, 1.0],
    ["old news", true, 1.0],
  ],
  // Table 11: with the old REP
  rep: [
    ["home page", true, 0],
    ["useless pages", false, 0],
    ["latest news", true, 0],
    ["old news", false, 0],
  ],
};

const TOTALS = (items: number): Record<Class, number> => ({
  "home page": 1,
  "useless pages": 3,
  "latest news": 3,
  "old news": items - 3,
});

function checkTable(run: Run, items: number): void {
  const expected = PAPER[run.robots];
  assert.ok(expected !== undefined, run.robots);
  const seen = observe(run.log, items);
  for (const [cls, fetched, delay] of expected) {
    const o = seen.get(cls);
    const count = o?.resources.size ?? 0;
    const row = run.rows.find((r) => r.resource === cls);
    assert.ok(row !== undefined, cls);
    const what = `${run.robots}, ${cls}`;
    assert.equal(count, fetched ? TOTALS(items)[cls] : 0, `${what}: resources fetched`);
    assert.equal(row.fetched, count, `${what}: the row says what the log says`);
    assert.equal(row.total, TOTALS(items)[cls], `${what}: total`);
    const minGap = o === undefined || o.gaps.length === 0 ? null : Math.min(...o.gaps);
    assert.equal(row.minGapSeconds, minGap, `${what}: min gap from the log`);
    if (fetched && delay > 0)
      assert.ok(
        minGap !== null && minGap >= delay - TOLERANCE_S,
        `${what}: gap ${minGap} s < ${delay} s`,
      );
  }
  assert.equal(run.agrees, true);
}

describe("heed demo", { timeout: 180_000 }, () => {
  it("--json: Tables 9-11 as the paper has them, then the Visit-time wait and the Language refusal", async () => {
    const result = await runCli(["demo", "--json"], { timeoutMs: 150_000 });
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout) as { items: number; agrees: boolean; runs: Run[] };
    assert.equal(out.items, 30);
    assert.deepEqual(
      out.runs.map((r) => r.robots),
      ["none", "rep", "regp", "regp-visit-time", "regp-language-fr"],
    );
    const [none, rep, regp, visit, language] = out.runs as [Run, Run, Run, Run, Run];
    for (const run of [none, rep, regp]) checkTable(run, 30);

    // Table 9's and 11's crawler never learns where the sitemap is; Table 10's reads it.
    assert.ok(!none.log.some((r) => r.path === "/sitemap.xml"));
    assert.ok(!rep.log.some((r) => r.path === "/sitemap.xml"));
    assert.ok(regp.log.some((r) => r.path === "/sitemap.xml"));
    // §5: without robots.txt the latest news come without comments (item pages, no Ajax) …
    const latestNone = none.rows.find((r) => r.resource === "latest news");
    assert.equal(latestNone?.withComments, 0);
    assert.ok(
      !none.log.some((r) => r.path.startsWith("/comments.do") || r.path.startsWith("/html/")),
    );
    // … with REGP every item comes through its snapshot, comments included, never its item page.
    assert.ok(!regp.log.some((r) => r.path.startsWith("/newsItem.do")));
    for (const cls of ["latest news", "old news"])
      assert.equal(
        regp.rows.find((r) => r.resource === cls)?.withComments,
        regp.rows.find((r) => r.resource === cls)?.total,
      );
    // REGP Cookie: sent on every request after robots.txt.
    assert.ok(regp.log.slice(1).every((r) => r.cookie === "user=robot"));

    // Visit-time: robots.txt read, then nothing until the window opens; then the crawl.
    const robotsAt = visit.log[0];
    const next = visit.log[1];
    assert.equal(robotsAt?.path, "/robots.txt");
    assert.ok(next !== undefined && robotsAt !== undefined);
    const opens = Date.parse(visit.opensAt ?? "");
    assert.ok(
      next.at >= opens - TOLERANCE_S * 1000,
      `${next.path} at ${next.at}, window opens ${opens}`,
    );
    assert.ok(opens - robotsAt.at >= 1000, "the window opened at least a second after robots.txt");
    assert.equal(visit.waitedSeconds, (next.at - robotsAt.at) / 1000);
    assert.ok(
      visit.rows.filter((r) => r.resource.endsWith("news")).every((r) => r.fetched === r.total),
    );

    // Language: fr: robots.txt and nothing else, and why.
    assert.deepEqual(
      language.log.map((r) => r.path),
      ["/robots.txt"],
    );
    assert.match(language.refused ?? "", /Language: fr/);
    assert.equal(out.agrees, true);
  });

  it("text: a table a run beside the paper's, and the verdict", async () => {
    const result = await runCli(["demo", "--items", "4"], { timeoutMs: 90_000 });
    assert.equal(result.code, 0, result.stderr);
    for (const heading of [
      "No robots.txt (REGP paper Table 9)",
      "The old REP robots.txt (REGP paper Table 11)",
      "The REGP robots.txt (REGP paper Table 10)",
      "The REGP robots.txt with a Visit-time window (REGP paper §5)",
      "The REGP robots.txt with Language: fr (REGP paper §5)",
      "Every table agrees with the paper's.",
    ])
      assert.ok(result.stdout.includes(heading), heading);
    assert.match(
      result.stdout,
      /old news +yes 1\/1 +1\.\d{3} s +yes, 1 s +same +1 snapshots; 1 with comments/,
    );
    assert.match(result.stdout, /Nothing fetched but robots\.txt: .*Language: fr/);
    assert.doesNotMatch(result.stdout, /DIFFERS/);
  });

  it("bad --items: exit 2 with the reason", async () => {
    for (const items of ["3", "x", "10001"]) {
      const result = await runCli(["demo", "--items", items]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--items: expected a whole number from 4 to 10000/);
    }
  });
});
