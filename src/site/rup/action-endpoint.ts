/**
 * The RUP action endpoint (seeds/001 §3.1.2, §3.3): form fields from a form-encoded POST (the
 * seed's preference) or a GET query, read within {@link MAX_REQUEST_BYTES}, at most
 * {@link MAX_ACTIONS_PER_WINDOW} requests per client address per minute. Every refusal is an
 * HTML document saying what was wrong, with 400 (bad request), 501 (not offered), 405 or 429,
 * and changes nothing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type ActionError,
  type ActionRequest,
  type Latency,
  checkOffer,
  htmlDocument,
  isCallbackUrl,
  latencyMs,
  MAX_REQUEST_BYTES,
  parseActionRequest,
  parseLatency,
  registrationAnswer,
  type RupInfo,
  sequenceAnswer,
} from "../../protocol/rup/index.js";
import { productToken } from "../../protocol/robots/index.js";
import { hashKey, keyMatches, newKey } from "./keys.js";
import { readSiteRobots, reportBody, reportFilter } from "./reports.js";
import { networkOf } from "../client-network.js";
import { CONFIRM_PATH } from "./confirm-page.js";
import { emailKey, type Registration, type SiteState } from "./state.js";
import { isWebhookTarget } from "./webhook.js";

/** Requests one client address may make per window: registering is rare, a loop is not. */
export const MAX_ACTIONS_PER_WINDOW = 60;
export const ACTION_WINDOW_MS = 60_000;
/** Client addresses whose windows are remembered; the oldest are forgotten beyond this. */
const MAX_TRACKED_CLIENTS = 10_000;
/**
 * Registrations a site keeps at once. Each is a few hundred bytes and, at its latency, one
 * report per period: 10,000 robots are far more than index any one site.
 */
export const MAX_REGISTRATIONS = 10_000;
/** Registrations from one network (an IPv4 /24, an IPv6 /64): one operator's robots. */
export const MAX_REGISTRATIONS_PER_NETWORK = 16;
/** New registrations per hour, site-wide: rotating addresses across networks stops here. */
export const MAX_REGISTRATIONS_PER_HOUR = 300;
const HOUR_MS = 3_600_000;

export interface ActionContext {
  readonly state: SiteState;
  /** What the site offers, as its /rupinfo.txt says. */
  readonly info: RupInfo;
  readonly root: string;
  readonly urlBase: string;
  readonly now: () => number;
  /** Why a callback URL given as RobotEmail is refused, or null (callback-check.ts). */
  readonly callbackProblem?: (url: string) => string | null;
  /**
   * `heed serve --confirm`: a new registration (or a new address) gets one mail asking its
   * recipient to confirm; nothing else is sent to it until it does.
   */
  readonly confirm?: boolean;
  /** Defaults: MAX_REGISTRATIONS, MAX_REGISTRATIONS_PER_NETWORK, MAX_REGISTRATIONS_PER_HOUR. */
  readonly maxRegistrations?: number;
  readonly maxRegistrationsPerNetwork?: number;
  readonly maxRegistrationsPerHour?: number;
}

/** A digest no key has: compared when no registration matches, so both cases take as long. */
const NO_KEY = hashKey("");

type Answer = {
  readonly status: number;
  readonly body: string;
  readonly headers?: Record<string, string>;
};

const refusal = (
  e: ActionError | { status: number; field: string | null; message: string },
): Answer => ({
  status: e.status,
  body: htmlDocument(`RUP error ${e.status}`, `Error: ${e.message}\n`),
});

export class ActionEndpoint {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly ctx: ActionContext) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = await this.answer(req);
    res.writeHead(answer.status, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      ...answer.headers,
    });
    res.end(answer.body);
  }

  private async answer(req: IncomingMessage): Promise<Answer> {
    const now = this.ctx.now();
    const limited = this.rateLimited(req.socket.remoteAddress ?? "", now);
    if (limited !== null) {
      return {
        ...refusal({
          status: 429,
          field: null,
          message: `more than ${MAX_ACTIONS_PER_WINDOW} requests a minute`,
        }),
        headers: { "retry-after": String(limited) },
      };
    }
    const fields = await readFields(req);
    if ("status" in fields) return fields;
    const parsed = parseActionRequest(fields.list);
    if (!parsed.ok) return refusal(parsed);
    const offer = checkOffer(parsed.request, this.ctx.info);
    if (offer !== null) return refusal(offer);
    return this.act(parsed.request, req, now);
  }

  /**
   * A RobotEmail that is a callback URL the site will not post to: refused at registration.
   * Under --confirm no callback is offered at all, since a URL cannot confirm by mail.
   */
  private callbackRefusal(robotEmail: string): Answer | null {
    if (this.ctx.confirm === true && isWebhookTarget(robotEmail)) {
      return refusal({
        status: 501,
        field: "RobotEmail",
        message:
          "this site confirms every recipient by mail; webhook registrations are not offered",
      });
    }
    if (!isCallbackUrl(robotEmail)) return null;
    const problem = this.ctx.callbackProblem?.(robotEmail) ?? null;
    return problem === null
      ? null
      : refusal({ status: 400, field: "RobotEmail", message: problem });
  }

  private async act(request: ActionRequest, req: IncomingMessage, now: number): Promise<Answer> {
    const { state } = this.ctx;
    switch (request.action) {
      case "Register": {
        const callback = this.callbackRefusal(request.robotEmail);
        if (callback !== null) return callback;
        if (state.findByEmail(request.robotEmail) !== null) {
          return refusal({
            status: 400,
            field: "RobotEmail",
            message: `${request.robotEmail} is registered already: use ModifyPreferences or Unregister with its key`,
          });
        }
        const network = networkOf(req.socket.remoteAddress ?? "");
        const full = this.registrationRefusal(network, now);
        if (full !== null) return full;
        const latency = request.latency ?? this.defaultLatency();
        const key = newKey();
        const token = this.ctx.confirm === true ? newKey() : null;
        const registration = state.insert({
          email: request.robotEmail,
          keyHash: hashKey(key),
          agent: agentOf(req),
          latency,
          filter: request.filter ?? { kind: "all" },
          lastChangeId: state.maxChangeId(),
          nextDue: now + latencyMs(latency),
          createdAt: now,
          network,
          ...(token === null ? {} : { confirmHash: hashKey(token) }),
        });
        if (token !== null) {
          state.enqueueConfirmation(
            registration,
            confirmationText(this.ctx.urlBase, token, registration.email),
            now,
          );
        }
        return { status: 200, body: registrationAnswer(key) };
      }
      case "GetIndex":
        return this.index(request.span, req, now);
      default:
        break;
    }
    const registration = this.authenticate(request.key, request.registeredEmail);
    if (registration === null) {
      return refusal({
        status: 400,
        field: "RegistrationKey",
        message: "no registration has this RegistrationKey and RegisteredRobotEmail",
      });
    }
    state.seen(registration.id, now);
    switch (request.action) {
      case "Unregister":
        state.remove(registration.id);
        return { status: 200, body: htmlDocument("RUP", `Unregistered: ${registration.email}\n`) };
      case "GetSequenceNumber":
        return { status: 200, body: sequenceAnswer(registration.seq) };
      case "ModifyPreferences": {
        const email = request.robotEmail;
        const callback = email === undefined ? null : this.callbackRefusal(email);
        if (callback !== null) return callback;
        if (
          email !== undefined &&
          emailKey(email) !== emailKey(registration.email) &&
          state.findByEmail(email) !== null
        ) {
          return refusal({
            status: 400,
            field: "RobotEmail",
            message: `${email} is registered already`,
          });
        }
        if (
          this.ctx.confirm === true &&
          email !== undefined &&
          emailKey(email) !== emailKey(registration.email)
        ) {
          // A new recipient must confirm too, or one could confirm one's own address and
          // then move the reports to anyone's.
          const token = newKey();
          state.update(registration.id, { email });
          state.requireConfirmation(registration.id, hashKey(token), now);
          const moved = state.get(registration.id);
          if (moved !== null)
            state.enqueueConfirmation(moved, confirmationText(this.ctx.urlBase, token, email), now);
        }
        state.update(registration.id, {
          ...(email === undefined ? {} : { email }),
          ...(request.filter === undefined ? {} : { filter: request.filter }),
          // A new latency starts a new period now.
          ...(request.latency === undefined
            ? {}
            : { latency: request.latency, nextDue: now + latencyMs(request.latency) }),
        });
        return {
          status: 200,
          body: htmlDocument("RUP", `Preferences changed: ${email ?? registration.email}\n`),
        };
      }
    }
  }

  /**
   * seeds/001 §3.3.4: the changes of the last `span`, in the report format. An index is no
   * numbered report: heed writes `SequenceNumber: 0` in it (the seed does not say which).
   */
  private async index(span: Latency, req: IncomingMessage, now: number): Promise<Answer> {
    const max = this.ctx.info.maxQuerySpan;
    if (max !== null && latencyMs(span) > latencyMs(max)) {
      return refusal({
        status: 400,
        field: "Span",
        message: `Span=${span.count}-${span.unit} reaches further back than this site keeps its log (MaxQuerySpan ${max.count}-${max.unit})`,
      });
    }
    const robots = await readSiteRobots(this.ctx.root);
    const keep = reportFilter({ kind: "all" }, agentOf(req), robots, this.ctx.urlBase);
    const body = reportBody(
      0,
      this.ctx.urlBase,
      this.ctx.state.changesSince(now - latencyMs(span)),
      keep,
    );
    return { status: 200, body: htmlDocument("RUP index", body) };
  }

  private authenticate(key: string, email: string): Registration | null {
    const r = this.ctx.state.findByEmail(email);
    const ok = keyMatches(key, r?.keyHash ?? NO_KEY);
    return r !== null && ok ? r : null;
  }

  /** Null when one more registration from `network` may be made now, else the refusal. */
  private registrationRefusal(network: string, now: number): Answer | null {
    const { state } = this.ctx;
    const total = this.ctx.maxRegistrations ?? MAX_REGISTRATIONS;
    const perNetwork = this.ctx.maxRegistrationsPerNetwork ?? MAX_REGISTRATIONS_PER_NETWORK;
    const perHour = this.ctx.maxRegistrationsPerHour ?? MAX_REGISTRATIONS_PER_HOUR;
    const busy = (message: string, retryAfter: number): Answer => ({
      ...refusal({ status: 503, field: null, message }),
      headers: { "retry-after": String(retryAfter) },
    });
    if (state.count() >= total)
      return busy(`this site holds ${total} registrations, its limit; try again later`, 86_400);
    if (state.countByNetwork(network) >= perNetwork) {
      return busy(
        `${network} has ${perNetwork} registrations here, the limit per network; unregister one first`,
        86_400,
      );
    }
    if (state.countSince(now - HOUR_MS) >= perHour)
      return busy(`more than ${perHour} registrations this hour; try again later`, 3_600);
    return null;
  }

  /** The first latency the site offers (seeds/001 names no default). */
  private defaultLatency(): Latency {
    const first = this.ctx.info.latencies[0];
    const parsed = first === undefined ? null : parseLatency(first);
    return parsed?.ok === true ? parsed.value : { count: 1, unit: "day" };
  }

  /** Null when the request may go on, else the seconds until the client's window ends. */
  private rateLimited(client: string, now: number): number | null {
    const w = this.windows.get(client);
    if (w === undefined || now - w.start >= ACTION_WINDOW_MS) {
      this.windows.delete(client);
      if (this.windows.size >= MAX_TRACKED_CLIENTS) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
      this.windows.set(client, { start: now, count: 1 });
      return null;
    }
    w.count += 1;
    return w.count > MAX_ACTIONS_PER_WINDOW
      ? Math.ceil((w.start + ACTION_WINDOW_MS - now) / 1000)
      : null;
  }
}

/** The one mail a recipient gets before it confirms: what it is, and how to confirm or ignore it. */
function confirmationText(urlBase: string, token: string, email: string): string {
  const link = new URL(`${CONFIRM_PATH}?token=${token}`, urlBase).href;
  return [
    `A robot registered ${email} with ${urlBase} to receive reports of the`,
    "site's changes (the Remote Update Protocol).",
    "",
    "No report is sent to this address until you confirm. To confirm, open",
    "",
    `  ${link}`,
    "",
    "and press the button there. If you did not ask for this, ignore this mail:",
    "nothing more will be sent, and the registration is forgotten after a few days.",
    "",
  ].join("\n");
}

/** The robot's name token from its User-Agent, for the site's robots.txt; null without one. */
function agentOf(req: IncomingMessage): string | null {
  const ua = req.headers["user-agent"];
  return ua === undefined || ua.trim() === "" ? null : productToken(ua);
}

/** The request's fields, or the refusal of a request that cannot be read. */
async function readFields(req: IncomingMessage): Promise<{ list: [string, string][] } | Answer> {
  const url = new URL(req.url ?? "/", "http://site.invalid");
  // seeds/001 §3.1.1: POST preferred, GET honoured. HEAD is neither: it must not act.
  if (req.method === "GET") {
    if (url.search.length > MAX_REQUEST_BYTES)
      return refusal({
        status: 400,
        field: null,
        message: `the query is longer than ${MAX_REQUEST_BYTES} bytes`,
      });
    return { list: [...url.searchParams] };
  }
  if (req.method !== "POST")
    return {
      ...refusal({ status: 405, field: null, message: "use POST (or GET)" }),
      headers: { allow: "POST, GET" },
    };
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    return refusal({
      status: 400,
      field: null,
      message: `expected a form (application/x-www-form-urlencoded), got ${type === "" ? "no Content-Type" : type}`,
    });
  }
  const declared = Number(req.headers["content-length"] ?? "0");
  const tooLarge = refusal({
    status: 400,
    field: null,
    message: `the request body is larger than ${MAX_REQUEST_BYTES} bytes`,
  });
  if (declared > MAX_REQUEST_BYTES) return { ...tooLarge, headers: { connection: "close" } };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return { ...tooLarge, headers: { connection: "close" } };
    chunks.push(chunk);
  }
  return { list: [...new URLSearchParams(Buffer.concat(chunks).toString("utf8"))] };
}
