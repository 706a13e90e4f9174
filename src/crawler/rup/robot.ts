/**
 * The robot's RUP actions (seeds/001 §3.1.2, §3.3): register with a site, change preferences,
 * unregister, ask for the sequence number, read an index. Registrations and their keys are
 * kept in the crawl store (./robot-state.ts); a key is returned once, by `register`.
 */
import type { HttpClient } from "../../net/http-client.js";
import {
  type ActionRequest,
  LATENCY_UNITS,
  type Latency,
  latencyMs,
  parseLatency,
  parseReport,
  type PathFilter,
  readRegistrationKey,
  readSequenceNumber,
  type ReportResult,
} from "../../protocol/rup/index.js";
import type { RobotState, SiteRegistration } from "./robot-state.js";
import {
  type ActionAnswer,
  fetchRupInfo,
  refusalMessage,
  RupClientError,
  sendAction,
  type SiteTurn,
} from "./rup-client.js";

export interface RobotContext {
  readonly client: HttpClient;
  readonly state: RobotState;
  readonly now: () => number;
  /** Each exchange under the site's shared reservation; default: at once (no store). */
  readonly turn?: SiteTurn;
}

export interface Preferences {
  readonly latency?: Latency;
  readonly filter?: PathFilter;
}

function expectOk(answer: ActionAnswer, what: string): void {
  if (answer.status !== 200)
    throw new RupClientError("HEED_RUP_REFUSED", `${what} refused: ${refusalMessage(answer)}`);
}

async function registered(state: RobotState, site: string): Promise<SiteRegistration> {
  const r = await state.site(new URL(site).origin);
  if (r === null)
    throw new RupClientError(
      "HEED_RUP_NOT_REGISTERED",
      `not registered with ${new URL(site).origin} in this store`,
    );
  return r;
}

/** The smallest unit the site offers: GetIndex spans are counted in it, to ask no more than needed. */
function smallestUnit(latencies: readonly string[]): string {
  const units = latencies.map((l) => parseLatency(l)).flatMap((p) => (p.ok ? [p.value.unit] : []));
  units.sort((a, b) => LATENCY_UNITS[a] - LATENCY_UNITS[b]);
  return units[0] ?? "day";
}

function firstOffered(latencies: readonly string[]): Latency | undefined {
  const first = latencies.map((l) => parseLatency(l)).find((p) => p.ok);
  return first?.ok === true ? first.value : undefined;
}

function latencyText(latency: Latency | undefined): string | null {
  return latency === undefined ? null : `${latency.count}-${latency.unit}`;
}

export async function register(
  ctx: RobotContext,
  site: string,
  email: string,
  prefs: Preferences,
): Promise<{ registration: SiteRegistration; key: string }> {
  const origin = new URL(site).origin;
  if ((await ctx.state.site(origin)) !== null) {
    throw new RupClientError(
      "HEED_RUP_REGISTERED",
      `registered with ${origin} already in this store: unregister first, or modify`,
    );
  }
  const info = await fetchRupInfo(ctx.client, site, ctx.turn);
  if (info.info === null || info.cgiUrl === null)
    throw new RupClientError("HEED_RUP_NO_INFO", `${info.url} names no RUP-CGI`);
  const answer = await sendAction(
    ctx.client,
    info.cgiUrl,
    {
      action: "Register",
      robotEmail: email,
      ...prefs,
    },
    ctx.turn,
  );
  expectOk(answer, "Register");
  const key = readRegistrationKey(answer.body);
  if (key === null)
    throw new RupClientError(
      "HEED_RUP_REFUSED",
      "Register answered 200 without a RegistrationKey line",
    );
  const now = ctx.now();
  const registration: SiteRegistration = {
    origin,
    urlBase: new URL("/", site).href,
    cgiUrl: info.cgiUrl,
    email,
    key,
    // Without a latency asked for, the site's first offered one is assumed (heed's site
    // uses it; the seed names no default): the overdue check needs one.
    latency: latencyText(prefs.latency ?? firstOffered(info.info.latencies)),
    maxQuerySpanMs: info.info.maxQuerySpan === null ? null : latencyMs(info.info.maxQuerySpan),
    spanUnit: smallestUnit(info.info.latencies),
    lastSeq: 0,
    lastReportAt: now,
    registeredAt: now,
  };
  await ctx.state.save(registration);
  return { registration, key };
}

export async function modify(
  ctx: RobotContext,
  site: string,
  change: Preferences & { email?: string },
): Promise<SiteRegistration> {
  const r = await registered(ctx.state, site);
  const request: ActionRequest = {
    action: "ModifyPreferences",
    key: r.key,
    registeredEmail: r.email,
    ...(change.email === undefined ? {} : { robotEmail: change.email }),
    ...(change.latency === undefined ? {} : { latency: change.latency }),
    ...(change.filter === undefined ? {} : { filter: change.filter }),
  };
  expectOk(await sendAction(ctx.client, r.cgiUrl, request, ctx.turn), "ModifyPreferences");
  const next: SiteRegistration = {
    ...r,
    email: change.email ?? r.email,
    latency:
      change.latency === undefined ? r.latency : `${change.latency.count}-${change.latency.unit}`,
  };
  await ctx.state.save(next);
  return next;
}

export async function unregister(ctx: RobotContext, site: string): Promise<void> {
  const r = await registered(ctx.state, site);
  expectOk(
    await sendAction(
      ctx.client,
      r.cgiUrl,
      {
        action: "Unregister",
        key: r.key,
        registeredEmail: r.email,
      },
      ctx.turn,
    ),
    "Unregister",
  );
  await ctx.state.remove(r.origin);
}

/** seeds/001 §3.3.3: the site's sequence number, beside the last one this robot took in. */
export async function sequence(
  ctx: RobotContext,
  site: string,
): Promise<{ site: number; received: number }> {
  const r = await registered(ctx.state, site);
  const answer = await sendAction(
    ctx.client,
    r.cgiUrl,
    {
      action: "GetSequenceNumber",
      key: r.key,
      registeredEmail: r.email,
    },
    ctx.turn,
  );
  expectOk(answer, "GetSequenceNumber");
  const n = readSequenceNumber(answer.body);
  if (n === null)
    throw new RupClientError(
      "HEED_RUP_REFUSED",
      "GetSequenceNumber answered 200 without a SequenceNumber=N line",
    );
  return { site: n, received: r.lastSeq };
}

/** seeds/001 §3.3.4: the changes of the last `span`, for registered robots and others alike. */
export async function index(
  client: HttpClient,
  site: string,
  span: Latency,
  turn?: SiteTurn,
): Promise<ReportResult> {
  const info = await fetchRupInfo(client, site, turn);
  if (info.info === null || info.cgiUrl === null)
    throw new RupClientError("HEED_RUP_NO_INFO", `${info.url} names no RUP-CGI`);
  const answer = await sendAction(client, info.cgiUrl, { action: "GetIndex", span }, turn);
  expectOk(answer, "GetIndex");
  return parseReport(answer.text);
}
