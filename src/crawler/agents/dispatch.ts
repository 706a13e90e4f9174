/**
 * The robot's side of a mobile agent (seeds/000 §2, ATP draft §2.4): DISPATCH the indexing agent
 * to the host a site names for a path, RETRACT it when it is done (following 200 MOVED when it
 * moved on), and hand back its index.
 */
import { type AtpClientOptions, atpRequest } from "../../net/atp-client.js";
import {
  AGENT_FORMAT,
  type AgentPackage,
  type AgentReport,
  HEED_AGENT_CONTENT_TYPE,
  HEED_AGENT_LANGUAGE,
  HEED_AGENT_SYSTEM,
  type Json,
} from "../../protocol/atp/agent-package.js";
import { type AtpHeaders, type AtpResponse, header } from "../../protocol/atp/message.js";
import { ATP_STATUS } from "../../protocol/atp/status.js";
import { AGENT_ID, parseAtpUrl } from "../../protocol/atp/url.js";
import type { AgentInbox } from "./inbox.js";
import { INDEXING_AGENT_SOURCE } from "../../protocol/atp/indexing-agent.js";

/** How many times an agent may move on before the robot stops following it. */
export const MAX_AGENT_MOVES = 4;

export type AgentDispatchErrorCode =
  /** The URL is not an ATP URL. */
  | "HEED_AGENT_BAD_URL"
  /** The host could not be reached or answered nonsense. */
  | "HEED_AGENT_UNREACHABLE"
  /** The host refused the agent or its retraction: `status` has the ATP code. */
  | "HEED_AGENT_REFUSED";

export class AgentDispatchError extends Error {
  constructor(
    readonly code: AgentDispatchErrorCode,
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AgentDispatchError";
  }
}

export interface DispatchOptions extends AtpClientOptions {
  /** The site's origin. */
  readonly site: string;
  /** The path to index (a Mobile-agent-server path, or under one). */
  readonly path: string;
  /** The robot's name token: the site's robots.txt rules for it bind the agent. */
  readonly robot: string;
  readonly userAgent: string;
  /** Sent as ATP's From field (§8.3): who answers for the robot. */
  readonly from?: string;
  /** Default: heed's indexing agent. */
  readonly code?: string;
  readonly state?: Json;
  /**
   * Have the host push the results here by MESSAGE instead of holding a RETRACT open; the
   * robot still retracts when no push comes within `pushTimeoutMs` (an agent that moved on,
   * a push that failed).
   */
  readonly inbox?: { readonly box: AgentInbox; readonly url: string };
  /** Default {@link PUSH_TIMEOUT_MS}. */
  readonly pushTimeoutMs?: number;
}

/** How long to wait for pushed results before retracting: the host's default time limit and more. */
export const PUSH_TIMEOUT_MS = 60_000;

export interface AgentIndex {
  /** The hosts the agent was retracted from, in order (more than one when it moved on). */
  readonly hosts: readonly string[];
  readonly id: string;
  readonly status: "finished" | "failed";
  readonly records: readonly Json[];
  readonly state: Json;
  readonly error: AgentReport["error"];
  readonly cpuMs: number;
}

export async function dispatchAgent(atpUrl: string, options: DispatchOptions): Promise<AgentIndex> {
  const target = parseAtpUrl(atpUrl);
  if (!target.ok) throw new AgentDispatchError("HEED_AGENT_BAD_URL", target.error);
  const agent: AgentPackage = {
    format: AGENT_FORMAT,
    code: options.code ?? INDEXING_AGENT_SOURCE,
    state: options.state ?? null,
    robot: options.robot,
    site: options.site,
    path: options.path,
    ...(options.inbox === undefined ? {} : { replyTo: options.inbox.url }),
  };
  const sent = await exchange(
    target.url,
    {
      method: "DISPATCH",
      uri: target.url.path === "" ? "/" : target.url.path,
      headers: [
        ...baseHeaders(options),
        ["Agent-Language", HEED_AGENT_LANGUAGE],
        ["Content-Type", HEED_AGENT_CONTENT_TYPE],
      ],
      body: JSON.stringify(agent),
    },
    options,
  );
  const id = header(sent.headers, "agent-id");
  if (sent.status !== ATP_STATUS.OKAY || id === null || !AGENT_ID.test(id)) {
    throw refused(target.url.service, "took no agent", sent);
  }
  if (options.inbox !== undefined) {
    const report = await options.inbox.box.wait(id, options.pushTimeoutMs ?? PUSH_TIMEOUT_MS);
    if (report !== null) return indexOf([target.url.service], [], report);
  }
  return retract(target.url.service, id, options);
}

/** Retracts an agent, following it where it moved (at most {@link MAX_AGENT_MOVES} times). */
export async function retract(
  service: string,
  id: string,
  options: DispatchOptions,
): Promise<AgentIndex> {
  const hosts: string[] = [];
  const carried: Json[] = [];
  let where = `${service}#${id}`;
  for (let hop = 0; hop <= MAX_AGENT_MOVES; hop++) {
    const url = parseAtpUrl(where);
    if (!url.ok || url.url.agentId === null)
      throw new AgentDispatchError(
        "HEED_AGENT_UNREACHABLE",
        `the agent moved to an unusable address: ${where}`,
      );
    hosts.push(url.url.service);
    const answer = await exchange(
      url.url,
      {
        method: "RETRACT",
        uri: `#${url.url.agentId}`,
        headers: [...baseHeaders(options), ["Agent-Id", url.url.agentId]],
      },
      options,
    );
    const body = new TextDecoder().decode(answer.body);
    if (answer.status === ATP_STATUS.MOVED) {
      const moved = parseJson(body) as { location?: unknown; records?: unknown } | null;
      if (moved === null || typeof moved.location !== "string")
        throw refused(url.url.service, "said MOVED without a location", answer);
      if (Array.isArray(moved.records)) carried.push(...(moved.records as Json[]));
      where = moved.location;
      continue;
    }
    if (answer.status !== ATP_STATUS.OKAY)
      throw refused(url.url.service, "did not give the agent back", answer);
    const report = parseJson(body) as AgentReport | null;
    if (report === null || !Array.isArray(report.records))
      throw new AgentDispatchError(
        "HEED_AGENT_UNREACHABLE",
        `${url.url.service} gave back something that is not a heed agent`,
      );
    return indexOf(hosts, carried, report);
  }
  throw new AgentDispatchError(
    "HEED_AGENT_UNREACHABLE",
    `the agent moved more than ${MAX_AGENT_MOVES} times; not following it further`,
  );
}

function indexOf(
  hosts: readonly string[],
  carried: readonly Json[],
  report: AgentReport,
): AgentIndex {
  return {
    hosts,
    id: report.id,
    status: report.status === "finished" ? "finished" : "failed",
    records: [...carried, ...report.records],
    state: report.state,
    error: report.error ?? null,
    cpuMs: typeof report.cpuMs === "number" ? report.cpuMs : 0,
  };
}

function baseHeaders(options: DispatchOptions): AtpHeaders {
  return [
    ["Date", new Date().toUTCString()],
    ["User-Agent", options.userAgent],
    ...(options.from === undefined ? [] : ([["From", options.from]] as const)),
    ["Agent-System", HEED_AGENT_SYSTEM],
  ];
}

async function exchange(
  target: Parameters<typeof atpRequest>[0],
  request: Parameters<typeof atpRequest>[1],
  options: AtpClientOptions,
): Promise<AtpResponse> {
  try {
    return await atpRequest(target, request, options);
  } catch (error) {
    throw new AgentDispatchError(
      "HEED_AGENT_UNREACHABLE",
      error instanceof Error ? error.message : String(error),
      null,
      { cause: error },
    );
  }
}

function refused(service: string, what: string, answer: AtpResponse): AgentDispatchError {
  const detail = new TextDecoder().decode(answer.body).trim().slice(0, 300);
  return new AgentDispatchError(
    "HEED_AGENT_REFUSED",
    `${service} ${what}: ${answer.status} ${answer.reason}${detail === "" ? "" : ` (${detail})`}`,
    answer.status,
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
