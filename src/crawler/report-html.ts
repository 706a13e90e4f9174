/**
 * The crawl report as one self-contained HTML page: no script, no external style, font or
 * image; inline SVG step charts of requests over time per host (so far, and per bucket), and
 * tables for the rest.
 * Every text that comes from the log (origins, outcomes, messages) is escaped. Pure: the
 * report and the moment it was made are arguments.
 */
import {
  TOP_ERROR_MESSAGES,
  VIA_KEYS,
  formatBytes,
  formatDuration,
  formatMoment,
  type CrawlReport,
  linkedFrom,
  type OriginReport,
  type ReportPart,
  type Timeline,
} from "./report.js";

export interface HtmlReportOptions {
  /** Where the records came from (the store), shown under the title. */
  readonly source?: string;
  /** When the report was made (ms since the epoch). */
  readonly generatedAt?: number;
}

/** Hosts drawn as their own series; past that, the rest are summed into one. */
export const MAX_SERIES = 10;

/** Tableau 10: distinct in colour and in lightness, for the chart's series. */
const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
] as const;

const CHART = {
  width: 960,
  height: 340,
  rateHeight: 200,
  left: 64,
  right: 20,
  top: 16,
  bottom: 52,
} as const;

/** Escapes text for HTML content and for quoted attribute values (SVG too). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const esc = escapeHtml;

export function reportHtml(report: CrawlReport, options: HtmlReportOptions = {}): string {
  const { overall, origins } = report;
  const subtitle = [
    options.source === undefined ? null : `store ${options.source}`,
    options.generatedAt === undefined ? null : `made ${formatMoment(options.generatedAt)}`,
  ].filter((s) => s !== null);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>heed crawl report</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>heed crawl report</h1>
${subtitle.length > 0 ? `<p class="sub">${esc(subtitle.join(" · "))}</p>` : ""}
</header>
<main>
${glance(report)}
<section id="activity">
<h2>Requests over time</h2>
${origins.length === 0 ? "<p>No requests in this log.</p>" : chart(report)}
</section>
<section>
<h2>Hosts</h2>
${hostsTable(origins, overall)}
</section>
<section>
<h2>Gaps kept against gaps required</h2>
<p class="note">A request's gap is the one its record gives; otherwise the log's: from the end of the host's previous request to its start. Every gap below the required one is counted.</p>
${gapsTable(origins, overall)}
</section>
<section>
<h2>How pages were found</h2>
${viaTable(origins, overall)}
</section>
<section>
<h2>Statuses</h2>
${pivotTable("statuses", "status", origins, overall, (part) =>
  part.byStatus.map(({ key, count }) => [key === null ? "no answer" : String(key), count]),
)}
</section>
<section>
<h2>Outcomes</h2>
<p class="note">Every record, requests or not: a disallowed URL is decided without asking the site.</p>
${pivotTable("outcomes", "outcome", origins, overall, (part) =>
  part.byOutcome.map(({ key, count }) => [key, count]),
)}
</section>
<section>
<h2>Refused by robots.txt</h2>
${messagesTable("refusals", origins, overall)}
</section>
<section>
<h2>Broken links</h2>
${brokenTable(overall)}
</section>
<section>
<h2>Errors</h2>
${messagesTable("errors", origins, overall)}
</section>
</main>
</body>
</html>
`;
}

function glance(report: CrawlReport): string {
  const { overall, origins } = report;
  const duration =
    overall.firstAt === null || overall.lastAt === null
      ? "–"
      : formatDuration(overall.lastAt - overall.firstAt);
  const below = overall.gaps.belowRequired;
  const cards: [string, string, string][] = [
    ["hosts", String(origins.length), ""],
    ["requests", String(overall.requests), ""],
    ["records", String(overall.records), ""],
    ["2xx pages", String(overall.byStatusClass["2xx"]), ""],
    ["errors", String(overall.errors.count), overall.errors.count > 0 ? "warn" : ""],
    ["received", formatBytes(overall.bytes), ""],
    ["time crawling", duration, ""],
    ["time waited", formatDuration(overall.waitedMs), ""],
    [
      "gaps below required",
      overall.gaps.compared === 0 ? `${below} (none stated)` : String(below),
      below > 0 ? "bad" : "good",
    ],
  ];
  const span =
    overall.firstAt === null || overall.lastAt === null
      ? ""
      : `<p class="sub">from ${esc(formatMoment(overall.firstAt))} to ${esc(formatMoment(overall.lastAt))}</p>`;
  return `<section id="glance">
<dl class="cards">
${cards
  .map(
    ([name, value, tone]) =>
      `<div class="card${tone === "" ? "" : ` ${tone}`}" data-card="${esc(name)}"><dt>${esc(name)}</dt><dd>${esc(value)}</dd></div>`,
  )
  .join("\n")}
</dl>
${span}
</section>`;
}

interface Series {
  readonly name: string;
  readonly requests: number;
  readonly counts: readonly number[];
}

function seriesOf(report: CrawlReport): Series[] {
  const { origins, timeline } = report;
  const shown = origins.length <= MAX_SERIES ? origins : origins.slice(0, MAX_SERIES - 1);
  const series: Series[] = shown.map((o) => ({
    name: o.origin,
    requests: o.requests,
    counts: o.timeline,
  }));
  const rest = origins.slice(shown.length);
  if (rest.length > 0) {
    const counts = new Array<number>(timeline.buckets).fill(0);
    for (const o of rest) o.timeline.forEach((n, i) => (counts[i] = (counts[i] ?? 0) + n));
    // Drawn as one host of them on average: their sum would stand ten times higher than any
    // one host beside the hosts drawn alone, and read as one busy host.
    for (let i = 0; i < counts.length; i++) counts[i] = (counts[i] ?? 0) / rest.length;
    series.push({
      name: `${rest.length} other hosts, mean per host`,
      requests: rest.reduce((sum, o) => sum + o.requests, 0),
      counts,
    });
  }
  return series;
}

/**
 * Two charts over one time axis: requests so far per host (the slope is the pace, a flat
 * stretch a wait), and requests per bucket; one legend for both.
 */
function chart(report: CrawlReport): string {
  const { timeline } = report;
  const series = seriesOf(report);
  const so = series.map((s) => {
    let total = 0;
    return s.counts.map((n) => (total += n));
  });
  const per = `requests per ${formatDuration(timeline.bucketMs)}`;
  const legend = series
    .map(
      (s, i) =>
        `<li data-origin="${esc(s.name)}"><span class="swatch" style="background:${color(i)}"></span>${esc(s.name)} <span class="muted">${s.requests} requests</span></li>`,
    )
    .join("\n");
  return `<figure>
${plot("chart", series, so, timeline, "requests so far", CHART.height, true)}
<figcaption><ul class="legend">
${legend}
</ul></figcaption>
${plot(
  "rate",
  series,
  series.map((s) => s.counts),
  timeline,
  per,
  CHART.rateHeight,
  false,
)}
</figure>`;
}

function color(i: number): string {
  return PALETTE[i % PALETTE.length] ?? "#000";
}

/** One SVG step chart: a line per series, values per bucket of `timeline`. */
function plot(
  id: string,
  series: readonly Series[],
  values: readonly (readonly number[])[],
  timeline: Timeline,
  yLabel: string,
  height: number,
  fromZero: boolean,
): string {
  const { width, left, right, top, bottom } = CHART;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const peak = Math.max(1, ...values.flat());
  const yStep = niceStep(peak, height > 250 ? 5 : 3);
  const yMax = Math.ceil(peak / yStep) * yStep;
  const spanMs = Math.max(1, timeline.buckets) * timeline.bucketMs;
  const x = (ms: number) => left + (ms / spanMs) * plotW;
  const y = (n: number) => top + plotH - (n / yMax) * plotH;
  const fmt = (v: number) => v.toFixed(1);

  const grid: string[] = [];
  for (let v = 0; v <= yMax + 1e-9; v += yStep) {
    grid.push(
      `<line class="grid" x1="${left}" x2="${width - right}" y1="${fmt(y(v))}" y2="${fmt(y(v))}"/>` +
        `<text class="tick" x="${left - 8}" y="${fmt(y(v) + 4)}" text-anchor="end">${v}</text>`,
    );
  }
  const xStep = timeStep(spanMs, 8);
  for (let ms = 0; ms <= spanMs + 1e-9; ms += xStep) {
    grid.push(
      `<line class="axis" x1="${fmt(x(ms))}" x2="${fmt(x(ms))}" y1="${top + plotH}" y2="${top + plotH + 5}"/>` +
        `<text class="tick" x="${fmt(x(ms))}" y="${top + plotH + 19}" text-anchor="middle">${esc(tickLabel(ms, xStep))}</text>`,
    );
  }
  const paths = series.map((s, i) => {
    let d = fromZero ? `M${fmt(x(0))} ${fmt(y(0))}` : "";
    (values[i] ?? []).forEach((n, b) => {
      const x0 = fmt(x(b * timeline.bucketMs));
      const x1 = fmt(x((b + 1) * timeline.bucketMs));
      d += d === "" ? `M${x0} ${fmt(y(n))}H${x1}` : `V${fmt(y(n))}H${x1}`;
    });
    const label = `${s.name}: ${s.requests} requests`;
    // Earlier (busier) series are drawn wider, so a line hidden under a later one still shows.
    const stroke = 2 + (3 * (series.length - 1 - i)) / Math.max(1, series.length - 1);
    return `<g class="series" data-origin="${esc(s.name)}" data-requests="${s.requests}" stroke="${color(i)}" stroke-width="${stroke.toFixed(2)}"><title>${esc(label)}</title><path d="${d}"/></g>`;
  });
  return `<svg id="${id}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title" xmlns="http://www.w3.org/2000/svg">
<title id="${id}-title">${esc(yLabel)}, per host, over time</title>
${grid.join("\n")}
<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}"/>
<line class="axis" x1="${left}" x2="${width - right}" y1="${top + plotH}" y2="${top + plotH}"/>
<text class="label" x="${left + plotW / 2}" y="${height - 8}" text-anchor="middle">time since ${esc(formatMoment(timeline.startAt))}</text>
<text class="label" transform="translate(16 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>
${paths.join("\n")}
</svg>`;
}

/** A step of 1, 2 or 5 × 10^k that cuts `max` into at most `ticks` steps. */
function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return Math.max(1, m * power);
  return 10 * power;
}

const TIME_STEPS_MS = [
  100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
  900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
];

/** A round time step that cuts `spanMs` into at most `ticks` steps. */
function timeStep(spanMs: number, ticks: number): number {
  for (const step of TIME_STEPS_MS) if (spanMs / step <= ticks) return step;
  return Math.ceil(spanMs / ticks / 86_400_000) * 86_400_000;
}

function tickLabel(ms: number, step: number): string {
  if (step < 1000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, "")} s`;
  if (step < 60_000) return `${Math.round(ms / 1000)} s`;
  if (step < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (step < 86_400_000) return `${Math.round(ms / 3_600_000)} h`;
  return `${Math.round(ms / 86_400_000)} d`;
}

type Cell = string | number;

/** A row of cells, the first naming it; `bad` rows are shown in red. */
interface Row {
  readonly cells: readonly Cell[];
  readonly bad?: boolean;
}

/**
 * A table: `rows` in the body, `total` in the foot. Every column but the first and the
 * `text` ones holds numbers: right-aligned, zeros muted.
 */
function table(
  id: string,
  head: readonly string[],
  rows: readonly Row[],
  total: readonly Cell[] | null,
  text: readonly number[] = [],
): string {
  const cell = (tag: "td" | "th", value: Cell, i: number) => {
    const numeric = i > 0 && !text.includes(i);
    const classes = [numeric ? "num" : "", value === 0 ? "zero" : ""].filter((c) => c !== "");
    const attr = classes.length === 0 ? "" : ` class="${classes.join(" ")}"`;
    return `<${tag}${attr}>${esc(String(value))}</${tag}>`;
  };
  const line = (tag: "td" | "th", values: readonly Cell[], bad = false) =>
    `<tr${bad ? ' class="bad"' : ""}>${values
      .map((v, i) => cell(i === 0 && tag === "td" ? "th" : tag, v, i))
      .join("")}</tr>`;
  return `<div class="scroll"><table id="${esc(id)}">
<thead>${line("th", head)}</thead>
<tbody>
${rows.map((r) => line("td", r.cells, r.bad === true)).join("\n")}
</tbody>
${total === null ? "" : `<tfoot>${line("td", total)}</tfoot>`}
</table></div>`;
}

const dash = (value: number | null, format: (v: number) => string = String) =>
  value === null ? "–" : format(value);

function hostsTable(origins: readonly OriginReport[], overall: ReportPart): string {
  const head = [
    "host",
    "requests",
    "2xx",
    "3xx",
    "4xx",
    "5xx",
    "no answer",
    "errors",
    "received",
    "waited",
    "first request",
    "crawling",
  ];
  const row = (name: string, p: ReportPart): Cell[] => [
    name,
    p.requests,
    p.byStatusClass["2xx"],
    p.byStatusClass["3xx"],
    p.byStatusClass["4xx"],
    p.byStatusClass["5xx"],
    p.byStatusClass.none,
    p.errors.count,
    formatBytes(p.bytes),
    formatDuration(p.waitedMs),
    dash(p.firstAt, (at) => formatMoment(at).slice(11)),
    p.firstAt === null || p.lastAt === null ? "–" : formatDuration(p.lastAt - p.firstAt),
  ];
  return table(
    "hosts",
    head,
    origins.map((o) => ({ cells: row(o.origin, o) })),
    row("all hosts", overall),
  );
}

function gapsTable(origins: readonly OriginReport[], overall: ReportPart): string {
  const head = [
    "host",
    "gaps",
    "from records",
    "min",
    "median",
    "max",
    "required",
    "compared",
    "below required",
    "worst shortfall",
  ];
  const ms = (v: number) => `${Math.round(v)} ms`;
  const row = (name: string, p: ReportPart): Cell[] => {
    const g = p.gaps;
    const required =
      g.requiredMinMs === null || g.requiredMaxMs === null
        ? "not stated"
        : g.requiredMinMs === g.requiredMaxMs
          ? ms(g.requiredMinMs)
          : `${ms(g.requiredMinMs)} – ${ms(g.requiredMaxMs)}`;
    return [
      name,
      g.count,
      g.fromRecords,
      dash(g.minMs, ms),
      dash(g.medianMs, ms),
      dash(g.maxMs, ms),
      required,
      g.compared,
      g.belowRequired,
      dash(g.worstShortfallMs, ms),
    ];
  };
  return table(
    "gaps",
    head,
    origins.map((o) => ({ cells: row(o.origin, o), bad: o.gaps.belowRequired > 0 })),
    row("all hosts", overall),
  );
}

function viaTable(origins: readonly OriginReport[], overall: ReportPart): string {
  const keys = VIA_KEYS.filter((k) => k !== "unknown" || overall.byVia.unknown > 0);
  const row = (name: string, p: ReportPart): Cell[] => [name, ...keys.map((k) => p.byVia[k])];
  return table(
    "discovery",
    ["host", ...keys.map((k) => (k === "unknown" ? "not recorded" : k))],
    origins.map((o) => ({ cells: row(o.origin, o) })),
    row("all hosts", overall),
  );
}

/** Hosts down, `keyName`s across (in the overall order), counts in the cells. */
function pivotTable(
  id: string,
  keyName: string,
  origins: readonly OriginReport[],
  overall: ReportPart,
  pairs: (part: ReportPart) => readonly (readonly [string, number])[],
): string {
  const keys = pairs(overall).map(([k]) => k);
  const row = (name: string, p: ReportPart): Cell[] => {
    const found = new Map(pairs(p));
    return [name, ...keys.map((k) => found.get(k) ?? 0)];
  };
  if (keys.length === 0) return `<p>No ${esc(keyName)}s.</p>`;
  return table(
    id,
    ["host", ...keys],
    origins.map((o) => ({ cells: row(o.origin, o) })),
    row("all hosts", overall),
  );
}

/** The most frequent messages of each host's errors, or lines of its robots.txt refusals. */
function messagesTable(
  id: "errors" | "refusals",
  origins: readonly OriginReport[],
  overall: ReportPart,
): string {
  const of = (part: ReportPart) => (id === "errors" ? part.errors : part.refusals);
  const [what, none, column] =
    id === "errors"
      ? ["message", "No errors.", "errors"]
      : ["robots.txt line", "No URL was refused by robots.txt.", "refused"];
  if (of(overall).count === 0) return `<p id="${id}">${none}</p>`;
  const rows: Row[] = [];
  for (const o of origins) {
    for (const { message, count } of of(o).top) rows.push({ cells: [o.origin, message, count] });
    if (of(o).untracked > 0)
      rows.push({ cells: [o.origin, `(other ${what}s, not counted apart)`, of(o).untracked] });
  }
  const shown = `the ${TOP_ERROR_MESSAGES} most frequent ${what}s of each host`;
  return table(id, ["host", what, column], rows, ["all hosts", shown, of(overall).count], [1]);
}

/** URLs that answered 4xx or 5xx, with the pages that led to them. */
function brokenTable(overall: ReportPart): string {
  if (overall.brokenLinks.length === 0) return `<p id="broken">No broken links.</p>`;
  const rows: Row[] = overall.brokenLinks.map((b) => ({
    cells: [b.url, b.status, linkedFrom(b)],
    bad: true,
  }));
  const more = overall.brokenUntracked > 0 ? `${overall.brokenUntracked} more, not listed` : "";
  return table(
    "broken",
    ["URL", "status", "linked from"],
    rows,
    [`${overall.brokenLinks.length} URLs`, "", more],
    [2],
  );
}

const STYLE = `
:root { color-scheme: light; --ink: #1d2430; --muted: #667085; --line: #d9dee7; --bg: #f6f7f9;
  --good: #1a7f37; --bad: #c62828; --warn: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 18px 32px 12px; }
h1 { margin: 0; font-size: 22px; }
h2 { font-size: 16px; margin: 0 0 10px; }
.sub, .note, .muted { color: var(--muted); }
.sub { margin: 4px 0 0; }
.note { margin: -4px 0 10px; font-size: 13px; }
main { padding: 20px 32px 40px; max-width: 1280px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px;
  margin: 0 0 18px; }
#glance { background: none; border: 0; padding: 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px;
  margin: 0 0 6px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.card dt { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card dd { margin: 2px 0 0; font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
.card.good dd { color: var(--good); } .card.bad dd { color: var(--bad); } .card.warn dd { color: var(--warn); }
figure { margin: 0; }
svg { width: 100%; height: auto; display: block; }
svg .grid { stroke: #eceff4; } svg .axis { stroke: #8a94a6; }
svg .tick { fill: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
svg .label { fill: var(--ink); font-size: 12px; }
svg .series path { fill: none; stroke-linejoin: round; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 6px 22px; padding: 0; margin: 4px 0 14px 64px; }
.swatch { display: inline-block; width: 14px; height: 4px; border-radius: 2px; margin-right: 6px;
  vertical-align: middle; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
thead th { font-size: 12px; color: var(--muted); font-weight: 600; border-bottom: 2px solid var(--line); }
tbody th { font-weight: 500; }
td.num, th.num { text-align: right; }
td.zero { color: #b8c0cc; }
tfoot td, tfoot th { font-weight: 700; border-top: 2px solid var(--line); border-bottom: 0; }
tr.bad td, tr.bad th { color: var(--bad); }
#errors td:nth-child(2), #refusals td:nth-child(2), #broken td:nth-child(3) { white-space: normal; }
`;
