/**
 * The agent host: an ATP/0.1 recipient on TCP (ATP draft §2.4) that takes heed agents in by
 * DISPATCH, runs each in its sandbox on the subtree the site assigns to this host, and gives
 * them back by RETRACT. FETCH serves the standard indexing agent's code, MESSAGE queues a
 * message for an agent, PING says the host is up. One request a connection; every answer
 * uses the draft's status codes (§9).
 */
import { createServer, type Server, type Socket } from "node:net";
import { realpath } from "node:fs/promises";
import { INDEXING_AGENT_PATH, INDEXING_AGENT_SOURCE } from "../../protocol/atp/indexing-agent.js";
import { atpRequest } from "../../net/atp-client.js";
import {
  AGENT_FORMAT,
  type AgentPackage,
  type AgentReport,
  HEED_AGENT_CONTENT_TYPE,
  HEED_AGENT_LANGUAGE,
  HEED_AGENT_SYSTEM,
  isHeedLanguage,
  isHeedSystem,
  type Json,
  MAX_AGENT_STATE_LENGTH,
  readAgentPackage,
} from "../../protocol/atp/agent-package.js";
import { type AtpHeaders, type AtpRequest, header } from "../../protocol/atp/message.js";
import { MessageBuffer } from "../../protocol/atp/message-buffer.js";
import { readRequest } from "../../protocol/atp/reader.js";
import { ATP_STATUS, type AtpStatus } from "../../protocol/atp/status.js";
import { AGENT_ID, parseAtpUrl, readResourceUri } from "../../protocol/atp/url.js";
import { writeResponse } from "../../protocol/atp/writer.js";
import { AgentRegistry, type HeldAgent } from "./agent-registry.js";
import * as L from "./limits.js";
import {
  ConnectionTable,
  LISTEN_BACKLOG,
  PROGRESS_MS,
  type TableLimits,
} from "../../net/connection-table.js";
import type { SandboxJob, SandboxLimits, SandboxOutcome } from "./sandbox/job.js";
import { runSandboxed } from "./sandbox/spawn.js";
import { agentPath, encodePath } from "./subtree.js";
import { loadSiteRules, type SiteRules } from "./site-rules.js";

export interface AgentHostLimits extends SandboxLimits {
  readonly maxRunning: number;
  readonly maxHeld: number;
  readonly maxPerSender: number;
  readonly maxPerNetwork: number;
  readonly expiryMs: number;
  readonly maxHeldResultBytes: number;
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  readonly requestTimeoutMs: number;
  readonly maxBodyBytes: number;
}

export const DEFAULT_HOST_LIMITS: AgentHostLimits = {
  timeMs: L.AGENT_TIME_LIMIT_MS,
  memoryBytes: L.AGENT_MEMORY_BYTES,
  stackBytes: L.AGENT_STACK_BYTES,
  maxResultBytes: L.MAX_RESULT_BYTES,
  maxResultRecords: L.MAX_RESULT_RECORDS,
  maxReadBytes: L.MAX_READ_BYTES,
  maxListEntries: L.MAX_LIST_ENTRIES,
  maxStateLength: MAX_AGENT_STATE_LENGTH,
  maxRunning: L.MAX_RUNNING_AGENTS,
  maxHeld: L.MAX_HELD_AGENTS,
  maxPerSender: L.MAX_AGENTS_PER_SENDER,
  maxPerNetwork: L.MAX_AGENTS_PER_NETWORK,
  expiryMs: L.AGENT_EXPIRY_MS,
  maxHeldResultBytes: L.MAX_HELD_RESULT_BYTES,
  maxConnections: L.MAX_CONNECTIONS,
  maxConnectionsPerAddress: L.MAX_CONNECTIONS_PER_ADDRESS,
  requestTimeoutMs: L.REQUEST_TIMEOUT_MS,
  maxBodyBytes: L.MAX_REQUEST_BODY_BYTES,
};

export interface AgentHostOptions {
  /** The site's document root: the directory that serves `/`. */
  readonly root: string;
  /** Where to listen; port 0 picks a free one. */
  readonly host: string;
  readonly port: number;
  /** The site's origin: its robots.txt is fetched from there. Else ROOT/robots.txt is read. */
  readonly site?: string;
  /**
   * Paths this host accepts agents for. Default: the paths of the site's Mobile-agent-server
   * records that name this host (`atp://HOST:PORT`).
   */
  readonly assign?: readonly string[];
  readonly limits?: Partial<AgentHostLimits>;
  /**
   * The connection policy's limits (docs/connection-policy.md), over `limits`'
   * maxConnections and maxConnectionsPerAddress: what `heed agents host`'s flags set.
   */
  readonly connections?: Partial<TableLimits>;
  /** Let agents move on to private and loopback addresses (tests, one-machine setups). */
  readonly allowPrivate?: boolean;
  /** How often robots.txt is read again, in ms. */
  readonly rulesLifetimeMs?: number;
  readonly userAgent?: string;
  readonly log?: (line: string) => void;
  readonly now?: () => number;
}

/** robots.txt is read again after this long: a site's rules change, a running host follows. */
const RULES_LIFETIME_MS = 5 * 60_000;
const SWEEP_EVERY_MS = 30_000;

export class AgentHost {
  readonly limits: AgentHostLimits;
  private readonly registry: AgentRegistry;
  private readonly server: Server;
  private rules: SiteRules | null = null;
  private root = "";
  private identity = "";
  private sweeper: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly sockets = new Set<Socket>();
  /** Limits per address and in all, eviction of the idlest, answers' progress. */
  private readonly connections: ConnectionTable;

  constructor(private readonly options: AgentHostOptions) {
    this.limits = { ...DEFAULT_HOST_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.registry = new AgentRegistry(
      this.limits,
      (held) => this.start(held),
      (held, outcome) => this.settle(held, outcome),
      this.now,
    );
    this.connections = new ConnectionTable({
      total: this.limits.maxConnections,
      perAddress: this.limits.maxConnectionsPerAddress,
      progressMs: PROGRESS_MS,
      ...options.connections,
    });
    this.server = createServer((socket) => this.serve(socket));
  }

  /** Starts listening; resolves to the host's ATP address (`atp://host:port`). */
  async listen(): Promise<string> {
    this.root = await realpath(this.options.root);
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(
        { port: this.options.port, host: this.options.host, backlog: LISTEN_BACKLOG },
        () => resolve(),
      );
    });
    const address = this.server.address();
    const port = typeof address === "object" && address !== null ? address.port : this.options.port;
    const host = this.options.host.includes(":") ? `[${this.options.host}]` : this.options.host;
    this.identity = `atp://${host}:${port}`;
    this.rules = await this.loadRules();
    this.sweeper = setInterval(() => this.registry.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
    return this.identity;
  }

  /** Why the site is closed to robots as things stand (its robots.txt unreachable, 401/403), or null. */
  closedBecause(): string | null {
    return this.rules?.closed ?? null;
  }

  /** The paths this host accepts agents for, as things stand. */
  assignments(): readonly string[] {
    if (this.options.assign !== undefined && this.options.assign.length > 0)
      return this.options.assign;
    const own = parseAtpUrl(this.identity);
    const servers = this.rules?.servers;
    if (servers === undefined || !own.ok) return [];
    // A record a later line covers (`/ none` after `/blog/ atp://…`) assigns nothing.
    return servers.records
      .filter((r) => servers.names(r.canonicalPath, own.url.service))
      .map((r) => r.path);
  }

  async close(): Promise<void> {
    if (this.sweeper !== null) clearInterval(this.sweeper);
    this.registry.stopAll();
    this.connections.stop();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // A RETRACT waiting for an agent, or a client that never finishes its request, would keep
    // the server from closing.
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Drops agents that ended longer ago than the expiry (also run every 30 s); returns how many. */
  sweep(): number {
    return this.registry.sweep();
  }

  counts(): ReturnType<AgentRegistry["counts"]> {
    return this.registry.counts();
  }

  private async loadRules(): Promise<SiteRules> {
    return loadSiteRules({
      site: this.options.site === undefined ? null : new URL(this.options.site).origin,
      root: this.root,
      userAgent: this.options.userAgent ?? "heed-agent-host",
      now: this.now(),
    });
  }

  private async currentRules(): Promise<SiteRules> {
    const rules = this.rules;
    if (
      rules !== null &&
      this.now() - rules.readAt < (this.options.rulesLifetimeMs ?? RULES_LIFETIME_MS)
    )
      return rules;
    this.rules = await this.loadRules();
    return this.rules;
  }

  private serve(socket: Socket): void {
    // One address holding many connections (each may buffer a body) is cut off at once; when
    // the host is full, the idlest connection gives way to the newcomer.
    if (!this.connections.admit(socket)) return;
    const remote = socket.remoteAddress ?? "unknown";
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    // The body limit applies while bytes arrive: a declared length over it is refused at once.
    const buffer = new MessageBuffer({ maxBodyBytes: this.limits.maxBodyBytes });
    let answered = false;
    const timer = setTimeout(() => {
      // A client that never finishes its request (slowloris) is answered and let go.
      answered = true;
      void answer(
        ATP_STATUS.BAD_REQUEST,
        `no complete request within ${this.limits.requestTimeoutMs} ms`,
      ).finally(finish);
    }, this.limits.requestTimeoutMs);
    const answer = async (status: AtpStatus, message: string): Promise<void> => {
      await this.reply(
        socket,
        status,
        [["Content-Type", "text/plain; charset=utf-8"]],
        `${message}\n`,
      );
    };
    let linger: NodeJS.Timeout | null = null;
    const finish = (): void => {
      clearTimeout(timer);
      this.connections.done(socket);
      socket.end();
      linger = setTimeout(() => socket.destroy(), L.ANSWERED_LINGER_MS);
    };
    socket.on("error", () => {
      clearTimeout(timer);
      socket.destroy();
    });
    socket.on("close", () => {
      clearTimeout(timer);
      if (linger !== null) clearTimeout(linger);
    });
    socket.on("data", (chunk: Buffer) => {
      if (answered) return;
      this.connections.heard(socket);
      const bytes = buffer.push(chunk);
      if (bytes === null) return;
      const read = readRequest(bytes, { maxBodyBytes: this.limits.maxBodyBytes });
      if (read.kind === "incomplete") return;
      answered = true;
      socket.pause();
      clearTimeout(timer);
      this.connections.busy(socket);
      const handled =
        read.kind === "error"
          ? answer(read.status, read.message)
          : this.handle(read.message, remote, socket).catch(async (error: unknown) => {
              this.log(`error: ${error instanceof Error ? error.message : String(error)}`);
              await answer(
                ATP_STATUS.INTERNAL_RECIPIENT_ERROR,
                "the host failed to handle the request",
              );
            });
      void handled.finally(finish);
    });
  }

  private async handle(request: AtpRequest, remote: string, socket: Socket): Promise<void> {
    this.log(`${remote} ${request.method} ${request.uri}`);
    switch (request.method) {
      case "DISPATCH":
        return this.dispatch(request, remote, socket);
      case "RETRACT":
        return this.retract(request, socket);
      case "FETCH":
        return this.fetch(request, socket);
      case "MESSAGE":
        return this.message(request, socket);
      case "PING":
        return this.reply(
          socket,
          ATP_STATUS.OKAY,
          [["Content-Type", "application/json"]],
          JSON.stringify({ host: this.identity, ...this.registry.counts() }),
        );
      default:
        // §6.1: "If a recipient does not understand an extension method, it will respond to the
        // sender with status code 401 NOT IMPLEMENTED."
        return this.text(
          socket,
          ATP_STATUS.NOT_IMPLEMENTED,
          `method ${request.method} is not implemented; this host knows DISPATCH, RETRACT, FETCH, MESSAGE and PING`,
        );
    }
  }

  private async dispatch(request: AtpRequest, remote: string, socket: Socket): Promise<void> {
    const refusal = this.platformRefusal(request.headers);
    if (refusal !== null) return this.text(socket, ATP_STATUS.NOT_IMPLEMENTED, refusal);
    const read = readAgentPackage(request.body);
    if (!read.ok) return this.text(socket, ATP_STATUS.BAD_REQUEST, read.error);
    const agent = read.agent;
    const rules = await this.currentRules();
    const denied = this.assignmentRefusal(agent, rules);
    if (denied !== null) return this.text(socket, ATP_STATUS.FORBIDDEN, denied);
    if (agent.replyTo !== undefined && !sameAddress(agent.replyTo, remote)) {
      // Results go back only to the sender's own address: not a way to make the host connect anywhere.
      return this.text(
        socket,
        ATP_STATUS.FORBIDDEN,
        `replyTo must name the sender's own address (${remote})`,
      );
    }
    const admitted = this.registry.admit(remote, agent);
    if (!admitted.ok) return this.text(socket, ATP_STATUS.SERVICE_UNAVAILABLE, admitted.reason);
    const { held } = admitted;
    const from = header(request.headers, "from");
    this.log(
      `agent ${held.id} from ${remote} (${agent.robot}${from === null ? "" : `, ${from}`}) for ${agent.site}${agent.path}`,
    );
    return this.reply(
      socket,
      ATP_STATUS.OKAY,
      [
        ["Agent-Id", held.id],
        ["Content-Type", "application/json"],
      ],
      JSON.stringify({ id: held.id, status: held.status, host: this.identity }),
    );
  }

  /** §8.4-8.6: agents of another platform, language or format are not run here. */
  private platformRefusal(headers: AtpHeaders): string | null {
    const system = header(headers, "agent-system");
    if (!isHeedSystem(system)) {
      return `Agent-System ${JSON.stringify(system ?? "")} is not supported; this host runs ${HEED_AGENT_SYSTEM} agents only`;
    }
    const language = header(headers, "agent-language");
    if (!isHeedLanguage(language)) {
      return `Agent-Language ${JSON.stringify(language ?? "")} is not supported; this host runs ${HEED_AGENT_LANGUAGE} only`;
    }
    const type = (header(headers, "content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== HEED_AGENT_CONTENT_TYPE) {
      return `Content-Type ${JSON.stringify(type ?? "")} is not supported; agents come as ${HEED_AGENT_CONTENT_TYPE}`;
    }
    const encoding = header(headers, "content-encoding");
    if (encoding !== null && encoding.trim().toLowerCase() !== "identity") {
      return `Content-Encoding ${JSON.stringify(encoding)} is not supported; send the agent unencoded`;
    }
    return null;
  }

  /** The path must be one this host serves, and one the robot may fetch. */
  private assignmentRefusal(agent: AgentPackage, rules: SiteRules): string | null {
    if (this.options.site !== undefined && agent.site !== new URL(this.options.site).origin) {
      return `this host serves ${new URL(this.options.site).origin}, not ${agent.site}`;
    }
    if (rules.closed !== null) return `the site is closed to robots (${rules.closed})`;
    const path = agentPath(agent.path);
    if (path === null) return `path ${JSON.stringify(agent.path)} has a bad percent-encoding`;
    const assigned = this.assignments();
    if (!this.serves(path, assigned, rules)) {
      return assigned.length === 0
        ? "no path of the site is assigned to this host"
        : `${agent.path} is not assigned to this host (it serves ${assigned.join(", ")})`;
    }
    const url = agent.site + encodePath(path);
    const decision = rules.policy.check(url, agent.robot);
    if (!decision.allowed) {
      return `robots.txt forbids ${agent.path} to ${agent.robot}${decision.line === null ? "" : ` (line ${decision.line}: ${decision.rule ?? ""})`}`;
    }
    return null;
  }

  /**
   * With --assign, the paths given; else the robots.txt's own reading of Mobile-agent-server
   * (protocol/robots/mobile-agent: the last matching line wins), so that a later `none` line
   * takes a path away from this host as it does for every robot resolving it.
   */
  private serves(path: string, assigned: readonly string[], rules: SiteRules): boolean {
    if (this.options.assign !== undefined && this.options.assign.length > 0) {
      return assigned.some(
        (a) => path.startsWith(a) || (a.endsWith("/") && path === a.slice(0, -1)),
      );
    }
    const own = parseAtpUrl(this.identity);
    if (!own.ok) return false;
    // "/home/user1" stands for the folder "/home/user1/" a record names.
    const asked = path.endsWith("/") ? [path] : [path, `${path}/`];
    return asked.some((p) => rules.servers.names(encodePath(p), own.url.service));
  }

  private start(held: HeldAgent): ReturnType<typeof runSandboxed> {
    const rules = this.rules;
    const targets = new Set<string>();
    for (const r of rules?.servers.records ?? []) {
      if (r.target.kind === "host" && r.target.url.scheme === "atp")
        targets.add(`atp://${r.target.url.host}:${r.target.url.port}`);
    }
    const job: SandboxJob = {
      code: held.agent.code,
      state: held.agent.state,
      info: {
        id: held.id,
        site: held.agent.site,
        path: agentPath(held.agent.path) ?? held.agent.path,
        robot: held.agent.robot,
        host: this.identity,
      },
      root: this.root,
      robotsText: rules?.robotsText ?? "",
      moveTargets: [...targets],
      limits: this.limits,
    };
    return runSandboxed(job);
  }

  private async settle(held: HeldAgent, outcome: SandboxOutcome): Promise<void> {
    const summary =
      outcome.error === null
        ? "finished"
        : `failed: ${outcome.error.code}: ${outcome.error.message}`;
    this.log(
      `agent ${held.id} ${summary} (${outcome.records.length} records, ${outcome.files} files, ${outcome.cpuMs} ms)`,
    );
    for (const note of outcome.notes ?? []) this.log(`agent ${held.id} sandbox: ${note}`);
    held.status = outcome.status;
    if (outcome.moveTo === null) {
      if (held.agent.replyTo !== undefined) await this.push(held, outcome, held.agent.replyTo);
      return;
    }
    // The agent asked to move on: dispatch its code and state there; RETRACT here answers MOVED.
    const target = parseAtpUrl(outcome.moveTo.url);
    if (!target.ok) return;
    const body = JSON.stringify({
      format: AGENT_FORMAT,
      code: held.agent.code,
      state: outcome.state,
      robot: held.agent.robot,
      site: held.agent.site,
      path: outcome.moveTo.path,
    });
    try {
      const response = await atpRequest(
        target.url,
        { method: "DISPATCH", uri: "/", headers: this.agentHeaders(), body },
        { allowPrivate: this.options.allowPrivate === true },
      );
      const id = header(response.headers, "agent-id");
      if (response.status === ATP_STATUS.OKAY && id !== null) {
        held.status = "moved";
        held.movedTo = `${target.url.service}#${id}`;
        this.log(`agent ${held.id} moved to ${held.movedTo}`);
      } else {
        this.log(
          `agent ${held.id} could not move to ${target.url.service}: ${response.status} ${response.reason}`,
        );
      }
    } catch (error) {
      this.log(
        `agent ${held.id} could not move to ${target.url.service}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * Sends an ended agent's report to its sender's agent service by MESSAGE. Once the sender
   * has taken it (100 OKAY), the agent is not kept: its results came back.
   */
  private async push(held: HeldAgent, outcome: SandboxOutcome, replyTo: string): Promise<void> {
    const target = parseAtpUrl(replyTo);
    if (!target.ok) return;
    try {
      const response = await atpRequest(
        target.url,
        {
          method: "MESSAGE",
          uri: `${target.url.path}#${held.id}`,
          headers: [...this.agentHeaders(), ["Agent-Id", held.id]],
          body: JSON.stringify(reportOf(held, outcome)),
        },
        { allowPrivate: true },
      );
      if (response.status === ATP_STATUS.OKAY) {
        this.registry.remove(held.id);
        this.log(`agent ${held.id} pushed to ${target.url.service}`);
      } else {
        this.log(
          `agent ${held.id}: ${target.url.service} answered ${response.status} ${response.reason}; kept for RETRACT`,
        );
      }
    } catch (error) {
      this.log(
        `agent ${held.id}: cannot push to ${target.url.service} (${error instanceof Error ? error.message : String(error)}); kept for RETRACT`,
      );
    }
  }

  private agentHeaders(): AtpHeaders {
    return [
      ["Date", new Date(this.now()).toUTCString()],
      ["User-Agent", this.options.userAgent ?? "heed-agent-host"],
      ["Agent-System", HEED_AGENT_SYSTEM],
      ["Agent-Language", HEED_AGENT_LANGUAGE],
      ["Content-Type", HEED_AGENT_CONTENT_TYPE],
    ];
  }

  private agentFor(request: AtpRequest): HeldAgent | string {
    const id = readResourceUri(request.uri).agentId ?? header(request.headers, "agent-id");
    if (id === null || !AGENT_ID.test(id))
      return "name the agent: #id in the URI, or an Agent-Id field (§6.2.1.2)";
    return this.registry.get(id) ?? `no agent ${id} here`;
  }

  private async retract(request: AtpRequest, socket: Socket): Promise<void> {
    const held = this.agentFor(request);
    if (typeof held === "string") {
      return this.text(
        socket,
        held.startsWith("no agent") ? ATP_STATUS.NOT_FOUND : ATP_STATUS.BAD_REQUEST,
        held,
      );
    }
    // A running agent is waited for: its time limit bounds the wait.
    await held.ended;
    if (this.registry.get(held.id) === undefined)
      return this.text(
        socket,
        ATP_STATUS.NOT_FOUND,
        `agent ${held.id} is no longer here: retracted, or its results were pushed to its sender`,
      );
    this.registry.remove(held.id);
    const outcome = held.outcome as SandboxOutcome;
    if (held.status === "moved") {
      // §9.2: 200 MOVED, the body names where the agent went; what it emitted here comes along.
      return this.reply(
        socket,
        ATP_STATUS.MOVED,
        [
          ["Agent-Id", held.id],
          ["Content-Type", "application/json"],
        ],
        JSON.stringify({
          location: held.movedTo,
          records: outcome.records.map((r) => JSON.parse(r) as Json),
        }),
      );
    }
    const report = reportOf(held, outcome);
    return this.reply(
      socket,
      ATP_STATUS.OKAY,
      [
        ["Agent-Id", held.id],
        ["Content-Type", HEED_AGENT_CONTENT_TYPE],
      ],
      JSON.stringify(report),
    );
  }

  private async fetch(request: AtpRequest, socket: Socket): Promise<void> {
    if (readResourceUri(request.uri).name !== INDEXING_AGENT_PATH) {
      return this.text(
        socket,
        ATP_STATUS.NOT_FOUND,
        `no code at ${request.uri}; this host serves ${INDEXING_AGENT_PATH}`,
      );
    }
    return this.reply(
      socket,
      ATP_STATUS.OKAY,
      [["Content-Type", "application/javascript"]],
      INDEXING_AGENT_SOURCE,
    );
  }

  private async message(request: AtpRequest, socket: Socket): Promise<void> {
    const held = this.agentFor(request);
    if (typeof held === "string") {
      return this.text(
        socket,
        held.startsWith("no agent") ? ATP_STATUS.NOT_FOUND : ATP_STATUS.BAD_REQUEST,
        held,
      );
    }
    let delivered = false;
    if (request.body.length > 0) {
      if (request.body.length > L.MAX_MESSAGE_BYTES) {
        return this.text(
          socket,
          ATP_STATUS.FORBIDDEN,
          `a message is at most ${L.MAX_MESSAGE_BYTES} bytes`,
        );
      }
      if (held.messages >= L.MAX_MESSAGES_PER_AGENT) {
        return this.text(
          socket,
          ATP_STATUS.SERVICE_UNAVAILABLE,
          `agent ${held.id} has been sent ${held.messages} messages, the limit`,
        );
      }
      let message: unknown;
      try {
        message = JSON.parse(new TextDecoder().decode(request.body));
      } catch {
        return this.text(socket, ATP_STATUS.BAD_REQUEST, "a message body must be JSON");
      }
      if (held.running !== null) {
        held.running.send(message);
        held.messages++;
        delivered = true;
      }
    }
    const outcome = held.outcome;
    return this.reply(
      socket,
      ATP_STATUS.OKAY,
      [
        ["Agent-Id", held.id],
        ["Content-Type", "application/json"],
      ],
      JSON.stringify({
        id: held.id,
        status: held.status,
        delivered,
        records: outcome?.records.length ?? null,
        error: outcome?.error ?? null,
      }),
    );
  }

  private text(socket: Socket, status: AtpStatus, message: string): Promise<void> {
    return this.reply(
      socket,
      status,
      [["Content-Type", "text/plain; charset=utf-8"]],
      `${message}\n`,
    );
  }

  private reply(
    socket: Socket,
    status: AtpStatus,
    headers: AtpHeaders,
    body: string,
  ): Promise<void> {
    const wire = writeResponse({
      status,
      headers: [
        ["Date", new Date(this.now()).toUTCString()],
        ["User-Agent", this.options.userAgent ?? "heed-agent-host"],
        // ATP draft §8 table: responses carry Agent-System and Agent-Language.
        ["Agent-System", HEED_AGENT_SYSTEM],
        ["Agent-Language", HEED_AGENT_LANGUAGE],
        ...headers,
      ],
      body,
    });
    return new Promise((resolve) => {
      if (socket.destroyed) resolve();
      else socket.write(wire, () => resolve());
    });
  }
}

function reportOf(held: HeldAgent, outcome: SandboxOutcome): AgentReport {
  return {
    format: AGENT_FORMAT,
    id: held.id,
    status: outcome.status,
    code: held.agent.code,
    state: outcome.state,
    records: outcome.records.map((r) => JSON.parse(r) as Json),
    error: outcome.error,
    cpuMs: outcome.cpuMs,
  };
}

/** Does an ATP URL name this remote address (IPv4-mapped IPv6 read as IPv4)? */
function sameAddress(url: string, remote: string): boolean {
  const target = parseAtpUrl(url);
  if (!target.ok) return false;
  const bare = (a: string) =>
    a
      .replace(/^\[|\]$/g, "")
      .replace(/^::ffff:(?=\d+\.)/i, "")
      .toLowerCase();
  return bare(target.url.host) === bare(remote);
}
