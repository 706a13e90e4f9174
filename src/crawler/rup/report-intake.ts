/**
 * Taking in a report (seeds/001 §3.2, §3.3.3): its sequence number checked against the last
 * one; a gap recovered with GetIndex over the time since the last report came, or, when that
 * reaches further back than the site's MaxQuerySpan (or the site will not answer it), a full
 * re-crawl of the site queued; then New and Change URLs queued for the next crawl and Delete
 * URLs marked gone. Taking in the same report twice does no harm: a duplicate is recorded and
 * nothing else. A mailed report is first tied to its registration (./inbox.ts gives what the
 * mail shows): addressed to the robot's registered address, signed with the registration's
 * key; a sequence number past the next one is checked with the site's own GetSequenceNumber
 * before anything is applied. A report that fails either is forged: refused, nothing changed.
 * The sender (the SMTP envelope's MAIL FROM) proves nothing, as anyone may write any: it is
 * recorded with the report, and named in a refusal, but not required (docs/rup.md).
 */
import type { HttpClient } from "../../net/http-client.js";
import {
  type ChangeKind,
  type ChangeLine,
  formatDate,
  latencyMs,
  type LatencyUnit,
  isLatencyUnit,
  parseLatency,
  parseReport,
  readSequenceNumber,
  type Report,
  reportSignatureMatches,
  SIGNATURE_HEADER,
  signingSecret,
  spanCovering,
} from "../../protocol/rup/index.js";
import type { CrawlStore, NewUrl } from "../../store/types.js";
import { SEED_PRIORITY, writeMeta } from "../discovery.js";
import { FETCHED_OUTCOMES } from "../frontier-entry.js";
import { normalizeUrl, originOf } from "../url-normal.js";
import type { RobotState, SiteRegistration } from "./robot-state.js";
import { refusalMessage, sendAction, type SiteTurn } from "./rup-client.js";

/** URLs queued per frontier call: one transaction each, small enough not to hold the store long. */
const QUEUE_BATCH = 1000;

export interface IntakeOptions {
  readonly state: RobotState;
  readonly store: CrawlStore;
  readonly client: HttpClient;
  readonly now: () => number;
  /** Each exchange under the site's shared reservation; default: at once. */
  readonly turn?: SiteTurn;
}

export type IntakeOutcome = "applied" | "duplicate" | "recovered" | "recrawl";

export interface IntakeResult {
  readonly origin: string;
  readonly seq: number;
  readonly outcome: IntakeOutcome;
  /** URLs queued for fetching, and URLs marked gone. */
  readonly queued: number;
  readonly gone: number;
  readonly detail: string;
}

/** A report that cannot be taken in: `permanent` ones will never be (550), others may later (451). */
export class IntakeRefusal extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "IntakeRefusal";
  }
}

/** What a mailed report shows of where it comes from. */
export interface ReportEvidence {
  /** The report's text as the message carried it: what its signature covers. */
  readonly text: string;
  /** Its `X-RUP-Signature` header, or null. */
  readonly signature: string | null;
  /** The addresses the message was delivered to (the SMTP envelope's recipients). */
  readonly recipients: readonly string[];
  /** The SMTP envelope's sender (MAIL FROM), or null for the empty (bounce) sender. */
  readonly sender: string | null;
}

/**
 * Takes a report in. `evidence`, for a report that came by mail: it must tie the report to the
 * registration it names, or the report is refused as forged and nothing changes.
 */
export async function takeReport(
  report: Report,
  options: IntakeOptions,
  evidence?: ReportEvidence,
): Promise<IntakeResult> {
  const origin = new URL(report.urlBase).origin;
  const site = await options.state.site(origin);
  if (site === null) throw new IntakeRefusal(`no registration with ${origin} in this store`, true);
  if (evidence !== undefined) {
    const forged = forgery(site, evidence);
    if (forged !== null) throw forgedReport(report, `${forged} (${sentBy(evidence)})`);
  }
  const now = options.now();
  if (report.sequenceNumber <= site.lastSeq) {
    const detail = `report ${report.sequenceNumber} taken in before (last ${site.lastSeq})`;
    await options.state.took(
      { origin, seq: report.sequenceNumber, receivedAt: now, outcome: "duplicate", detail },
      [],
    );
    return { origin, seq: report.sequenceNumber, outcome: "duplicate", queued: 0, gone: 0, detail };
  }
  let outcome: IntakeOutcome = "applied";
  let detail = "";
  let queued = 0;
  let lines: readonly ChangeLine[] = report.changes;
  if (report.sequenceNumber > site.lastSeq + 1) {
    // A jump is believed only when the site says it made that many reports: a forged number
    // would otherwise mark the reports in between lost and file the genuine ones as duplicates.
    const asked = await siteSequence(site, options);
    if ("why" in asked) throw new IntakeRefusal(asked.why, asked.permanent);
    if (asked.made < report.sequenceNumber)
      throw forgedReport(
        report,
        `the site's GetSequenceNumber answers ${asked.made}, and the last report taken in was ${site.lastSeq}`,
      );
    const gap = await recoverGap(site, report.sequenceNumber - 1, now, options);
    outcome = gap.outcome;
    detail = `${gap.detail}; `;
    queued = gap.queued;
    // What was recovered and what the report says, in time order: the latest change of a path
    // decides (an index asked now may know of changes newer than the report's).
    lines = byTime([...gap.lines, ...report.changes]);
  }
  const applied = await apply(lines, site, report.sequenceNumber, options, now);
  queued += applied.queued;
  detail += `${applied.queued} queued, ${applied.gone.length} gone`;
  if (evidence !== undefined) detail += `; ${sentBy(evidence)}`;
  await options.state.took(
    { origin, seq: report.sequenceNumber, receivedAt: now, outcome, detail },
    applied.gone,
  );
  return {
    origin,
    seq: report.sequenceNumber,
    outcome,
    queued,
    gone: applied.gone.length,
    detail,
  };
}

/** Why a mailed report is not the registration's own, or null when it is. */
function forgery(site: SiteRegistration, evidence: ReportEvidence): string | null {
  const registered = site.email.toLowerCase();
  if (!evidence.recipients.some((to) => to.toLowerCase() === registered))
    return `addressed to ${evidence.recipients.join(", ") || "nobody"}, not to ${site.email}, the address registered with the site`;
  if (evidence.signature === null)
    return `no ${SIGNATURE_HEADER} header proving the registration's key`;
  if (!reportSignatureMatches(evidence.text, evidence.signature, signingSecret(site.key)))
    return `its ${SIGNATURE_HEADER} header does not prove the registration's key`;
  return null;
}

/** Who the mail says sent it: recorded, never believed on its own. */
function sentBy(evidence: ReportEvidence): string {
  return `sent by ${evidence.sender ?? "the empty sender <>"}`;
}

function forgedReport(report: Report, why: string): IntakeRefusal {
  return new IntakeRefusal(
    `forged report ${report.sequenceNumber} for ${report.urlBase}: ${why}; nothing changed`,
    true,
  );
}

/**
 * The site's own sequence number (seeds/001 §3.3.3 GetSequenceNumber), or why it is not known:
 * `permanent` when the site refuses (a 4xx), not when it may answer another time (unreachable,
 * 5xx, an answer without the number).
 */
async function siteSequence(
  site: SiteRegistration,
  options: IntakeOptions,
): Promise<{ readonly made: number } | { readonly why: string; readonly permanent: boolean }> {
  let answer;
  try {
    answer = await sendAction(
      options.client,
      site.cgiUrl,
      { action: "GetSequenceNumber", key: site.key, registeredEmail: site.email },
      options.turn,
    );
  } catch (error) {
    return {
      why: `cannot ask the site its sequence number: ${(error as Error).message}`,
      permanent: false,
    };
  }
  const made = answer.status === 200 ? readSequenceNumber(answer.body) : null;
  if (made !== null) return { made };
  return {
    why: `the site did not answer its sequence number (${refusalMessage(answer)})`,
    permanent: answer.status >= 400 && answer.status < 500,
  };
}

/** Stable: lines of the same moment keep their order. */
function byTime(lines: readonly ChangeLine[]): ChangeLine[] {
  return lines
    .map((line, i) => ({ line, i }))
    .sort((a, b) => a.line.at - b.line.at || a.i - b.i)
    .map((x) => x.line);
}

/**
 * Recovers reports `site.lastSeq + 1` to `upTo`, which never came: the changes an index
 * gives, or a full re-crawl queued (then no lines).
 */
async function recoverGap(
  site: SiteRegistration,
  upTo: number,
  now: number,
  options: IntakeOptions,
): Promise<{
  outcome: "recovered" | "recrawl";
  detail: string;
  queued: number;
  lines: readonly ChangeLine[];
}> {
  const lost = `report${upTo > site.lastSeq + 1 ? `s ${site.lastSeq + 1}-${upTo}` : ` ${upTo}`} lost`;
  const recovery = await recover(site, now, options);
  if (recovery.kind === "index") {
    return {
      outcome: "recovered",
      detail: `${lost}; recovered with GetIndex Span=${recovery.span}`,
      queued: 0,
      lines: recovery.changes,
    };
  }
  return {
    outcome: "recrawl",
    detail: `${lost}; ${recovery.why}: full re-crawl of ${site.urlBase} queued (${recovery.queued} URLs)`,
    queued: recovery.queued,
    lines: [],
  };
}

/**
 * How long after a report was due the robot waits before it asks whether one was lost
 * (seeds/001 §3.3.3: "if the latency time expired and no message arrives in a reasonable
 * amount of time"): a quarter of the latency, at least an hour, for mail that is slow.
 */
export function overdueAfterMs(latencyMsValue: number): number {
  return latencyMsValue + Math.max(3_600_000, latencyMsValue / 4);
}

/**
 * seeds/001 §3.3.3: for each site whose report is overdue, asks GetSequenceNumber; when the
 * site made reports that never came, recovers them as for a gap. A site that made none (it is
 * late, or down) is asked again at the next check. Sites that cannot be reached are skipped.
 */
export async function checkOverdue(options: IntakeOptions): Promise<IntakeResult[]> {
  const results: IntakeResult[] = [];
  for (const site of await options.state.sites()) {
    const now = options.now();
    const latency = site.latency === null ? null : parseLatency(site.latency);
    if (latency?.ok !== true || now < site.lastReportAt + overdueAfterMs(latencyMs(latency.value)))
      continue;
    const asked = await siteSequence(site, options);
    if (!("made" in asked) || asked.made <= site.lastSeq) continue;
    const made = asked.made;
    const gap = await recoverGap(site, made, now, options).catch((error: unknown) => {
      if (error instanceof IntakeRefusal) return null;
      throw error;
    });
    if (gap === null) continue;
    const applied = await apply(gap.lines, site, made, options, now);
    const detail = `no report since ${formatDate(site.lastReportAt)}; SequenceNumber=${made}: ${gap.detail}; ${applied.queued} queued, ${applied.gone.length} gone`;
    await options.state.took(
      { origin: site.origin, seq: made, receivedAt: now, outcome: gap.outcome, detail },
      applied.gone,
    );
    results.push({
      origin: site.origin,
      seq: made,
      outcome: gap.outcome,
      queued: gap.queued + applied.queued,
      gone: applied.gone.length,
      detail,
    });
  }
  return results;
}

type Recovery =
  | { kind: "index"; span: string; changes: readonly ChangeLine[] }
  | { kind: "recrawl"; why: string; queued: number };

/**
 * seeds/001 §3.3.3: "the Robot can either get the lost data using the unregistered robot part of
 * the protocol, or, if this is not supported or the required data extends too much into the
 * past for the server to satisfy the request, completely reindex the site". The span asked
 * covers the time since the last report came, plus one unit for clocks that differ.
 */
async function recover(
  site: SiteRegistration,
  now: number,
  options: IntakeOptions,
): Promise<Recovery> {
  const unit: LatencyUnit = isLatencyUnit(site.spanUnit) ? site.spanUnit : "day";
  const base = spanCovering(Math.max(0, now - site.lastReportAt), unit);
  const span = { count: base.count + 1, unit };
  const spanText = `${span.count}-${span.unit}`;
  if (site.maxQuerySpanMs !== null && latencyMs(span) > site.maxQuerySpanMs) {
    return {
      kind: "recrawl",
      why: `Span=${spanText} is beyond the site's MaxQuerySpan`,
      queued: await recrawl(site, options),
    };
  }
  let answer;
  try {
    answer = await sendAction(
      options.client,
      site.cgiUrl,
      { action: "GetIndex", span },
      options.turn,
    );
  } catch (error) {
    // The site is unreachable now: refuse for the moment, so that the report comes again later.
    throw new IntakeRefusal(`cannot recover a lost report: ${(error as Error).message}`, false);
  }
  if (answer.status >= 500) {
    // A site in trouble now may answer later: the report comes again then.
    throw new IntakeRefusal(`cannot recover a lost report now: ${refusalMessage(answer)}`, false);
  }
  if (answer.status !== 200) {
    // 400 (too far back) or 501 (no index offered): seeds/001 §3.3.3, reindex the site.
    return {
      kind: "recrawl",
      why: `GetIndex refused (${refusalMessage(answer)})`,
      queued: await recrawl(site, options),
    };
  }
  const parsed = parseReport(answer.text);
  if (parsed.report === null) {
    return {
      kind: "recrawl",
      why: "GetIndex answered no usable report",
      queued: await recrawl(site, options),
    };
  }
  return { kind: "index", span: spanText, changes: parsed.report.changes };
}

/** Queues every page of the site the crawl log says was fetched, and its root, for fetching again. */
async function recrawl(site: SiteRegistration, options: IntakeOptions): Promise<number> {
  const urls = new Set<string>([normalizeUrl("/", site.urlBase) ?? site.urlBase]);
  for await (const batch of options.store.log.scan(QUEUE_BATCH)) {
    for (const record of batch) {
      if (record.origin === site.origin && FETCHED_OUTCOMES.has(record.outcome))
        urls.add(record.url);
    }
  }
  return queue([...urls], site.origin, options);
}

/**
 * Queues URLs for the next crawl (`heed crawl --queued`): a page fetched before is queued again
 * (its validators make the fetch conditional), a new one is added. The site named them, as a
 * seed is named: they go first.
 */
async function queue(
  urls: readonly string[],
  origin: string,
  options: IntakeOptions,
): Promise<number> {
  let n = 0;
  for (let i = 0; i < urls.length; i += QUEUE_BATCH) {
    const batch: NewUrl[] = urls.slice(i, i + QUEUE_BATCH).map((url) => ({
      url,
      origin,
      depth: 0,
      priority: SEED_PRIORITY,
      notBefore: 0,
      referrer: null,
      meta: writeMeta({ via: "revisit" }),
    }));
    n += await options.store.frontier.revisit(batch);
  }
  return n;
}

/**
 * Acts on change lines: the last line naming a path decides (a file created then deleted
 * within the period is gone). Paths that resolve outside the site are ignored.
 */
async function apply(
  lines: readonly ChangeLine[],
  site: SiteRegistration,
  seq: number,
  options: IntakeOptions,
  now: number,
): Promise<{ queued: number; gone: { url: string; at: number }[] }> {
  const last = new Map<string, { kind: ChangeKind; at: number }>();
  for (const line of lines) {
    for (const path of line.paths) {
      const url =
        path.startsWith("/") && !path.startsWith("//") ? normalizeUrl(path, site.urlBase) : null;
      if (url === null || originOf(url) !== site.origin) continue;
      last.delete(url);
      last.set(url, { kind: line.kind, at: line.at });
    }
  }
  const fetch = [...last].filter(([, v]) => v.kind !== "Delete").map(([url]) => url);
  const gone = [...last]
    .filter(([, v]) => v.kind === "Delete")
    .map(([url, v]) => ({ url, at: v.at }));
  const queued = await queue(fetch, site.origin, options);
  await options.state.back(fetch);
  for (const g of gone) {
    await options.store.log.append({
      url: g.url,
      origin: site.origin,
      at: now,
      ms: 0,
      status: null,
      bytes: 0,
      outcome: "gone",
      detail: `RUP report ${seq}: Delete[${formatDate(g.at)}]`,
    });
  }
  return { queued, gone };
}
