/**
 * `heed demo`: the news-site experiment of seeds/003 §5 (see cli/news-experiment.ts), printed
 * as the paper's Tables 9-11 side by side with what the paper reports, then the Visit-time and
 * `Language: fr` runs. `--json` prints it all as one object.
 */
import {
  type ExperimentRun,
  type RowResult,
  type RunName,
  runNewsExperiment,
} from "../news-experiment.js";
import { MAX_ITEMS } from "../../site/news/limits.js";
import { CliError, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { VERSION } from "../version.js";

export interface DemoOptions {
  readonly json: boolean;
  readonly items?: string;
}

/** Fewest items that leave old news to miss: the home page links the three latest. */
const MIN_ITEMS = 4;

export async function runDemo(options: DemoOptions, io: Io): Promise<number> {
  const items = options.items === undefined ? 30 : Number(options.items);
  if (!Number.isInteger(items) || items < MIN_ITEMS || items > MAX_ITEMS)
    throw new CliError(
      `--items: expected a whole number from ${MIN_ITEMS} to ${MAX_ITEMS}, got "${options.items}"`,
    );
  const total = 5;
  let n = 0;
  if (!options.json)
    io.stdout.write(
      `heed demo: the news site of the REGP paper (docs/demo.md) on 127.0.0.1, crawled by heed as in §5.\n` +
        `The home page links the 3 latest of ${items} news items; older ones are reached only through the search form, or the sitemap.\n` +
        `"min gap": the shortest time the site saw between a request of that row and the request before it.\n`,
    );
  const result = await runNewsExperiment({
    items,
    userAgent: `heed/${VERSION} (+https://www.npmjs.com/package/heed)`,
    onRunStart: (_name, description) => {
      n++;
      io.stderr.write(`heed demo: run ${n} of ${total}: ${description} …\n`);
    },
    onRun: (run) => {
      if (!options.json) io.stdout.write(`\n${runText(run)}`);
    },
  });
  if (options.json) io.stdout.write(`${JSON.stringify(result)}\n`);
  else
    io.stdout.write(
      result.agrees
        ? "\nEvery table agrees with the paper's.\n"
        : "\nSome rows differ from the paper's (marked DIFFERS).\n",
    );
  return result.agrees ? EXIT_OK : EXIT_NOT_ALLOWED;
}

const TITLES: Readonly<Record<RunName, string>> = {
  none: "No robots.txt",
  rep: "The old REP robots.txt",
  regp: "The REGP robots.txt",
  "regp-visit-time": "The REGP robots.txt with a Visit-time window",
  "regp-language-fr": "The REGP robots.txt with Language: fr",
};

/** One run as text: a heading, the table, and what else the run shows. */
export function runText(run: ExperimentRun): string {
  const source = run.table === null ? "REGP paper §5" : `REGP paper ${run.table}`;
  const lines = [`${TITLES[run.robots]} (${source})`];
  if (run.visitTime !== undefined) {
    const robots = run.log.find((r) => r.path === "/robots.txt");
    lines.push(
      `  Visit-time: ${run.visitTime}. The crawler read robots.txt at ${clock(robots?.at)}, ` +
        `waited ${seconds(run.waitedSeconds ?? null)} for the window to open at ${clock(run.opensAt)}, then crawled.`,
    );
  }
  if (run.refused !== undefined) {
    const pages = run.rows.reduce((sum, r) => sum + r.requests, 0);
    lines.push(
      `  ${pages === 0 ? "Nothing fetched but robots.txt" : `${pages} pages fetched`}: ` +
        `${run.refused ?? "no reason given"} (the crawler supports ${(run.languages ?? []).join(", ")}).`,
    );
  }
  lines.push(table(run.rows, run.table !== null));
  const cookie =
    run.robots.startsWith("regp") && run.cookieSent.of > 0
      ? `; Cookie user=robot sent on ${run.cookieSent.with} of ${run.cookieSent.of} requests after robots.txt`
      : "";
  lines.push(
    `  ${run.requests} ${run.requests === 1 ? "request" : "requests"} in ${run.seconds.toFixed(1)} s; robots.txt ${run.robotsTxt === null ? "404" : "served"}; ` +
      `sitemap read: ${run.sitemapRead ? "yes" : "no"}${cookie}.`,
  );
  return `${lines.join("\n")}\n`;
}

function table(rows: readonly RowResult[], withPaper: boolean): string {
  const head = [
    "resource",
    "fetched",
    "min gap",
    ...(withPaper ? ["paper", "as paper"] : []),
    "how",
  ];
  const body = rows.map((r) => [
    r.resource,
    `${r.fetched > 0 ? "yes" : "no"} ${r.fetched}/${r.total}`,
    seconds(r.minGapSeconds),
    ...(withPaper
      ? r.paper === null
        ? ["-", "(not in it)"]
        : [
            `${r.paper.fetched ? "yes" : "no"}, ${r.paper.crawlDelaySeconds} s`,
            r.agrees === true ? "same" : "DIFFERS",
          ]
      : []),
    how(r),
  ]);
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((cells) => (cells[i] ?? "").length)));
  return all
    .map((cells) => `  ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ")}`.trimEnd())
    .join("\n");
}

function how(r: RowResult): string {
  if (r.viaSnapshot === undefined || r.fetched === 0) return "";
  const parts: string[] = [];
  if (r.viaSnapshot > 0) parts.push(`${r.viaSnapshot} snapshots`);
  if ((r.viaItemPage ?? 0) > 0) parts.push(`${r.viaItemPage} item pages`);
  return `${parts.join(", ")}; ${r.withComments ?? 0} with comments`;
}

function seconds(value: number | null): string {
  return value === null ? "-" : `${value.toFixed(3)} s`;
}

/** `HH:MM:SS.mmm UTC` of an ISO 8601 string or a time in ms. */
function clock(at: string | number | undefined): string {
  if (at === undefined) return "?";
  const iso = typeof at === "number" ? new Date(at).toISOString() : at;
  return `${iso.slice(11, 23)} UTC`;
}
