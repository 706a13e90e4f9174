/**
 * The robot's own ATP agent service for results pushed by MESSAGE (ATP draft §2.4.4, §6.1.4):
 * an agent host sends an agent's report to the `replyTo` the agent was dispatched with, and
 * the robot need not hold a RETRACT open. Listens on one address; takes only MESSAGE requests
 * carrying a heed agent report; anything else is answered with the draft's codes. Its
 * connections are under the connection policy of heed's servers (docs/connection-policy.md):
 * limits per address and in all with the idlest giving way, a request deadline, and, ATP being
 * one request a connection, a socket destroyed shortly after its answer.
 */
import { createServer, type Server, type Socket } from "node:net";
import {
  type AgentReport,
  HEED_AGENT_SYSTEM,
  isHeedSystem,
} from "../../protocol/atp/agent-package.js";
import { MAX_BODY_BYTES } from "../../protocol/atp/limits.js";
import { header } from "../../protocol/atp/message.js";
import { MessageBuffer } from "../../protocol/atp/message-buffer.js";
import { readRequest } from "../../protocol/atp/reader.js";
import { ATP_STATUS, type AtpStatus } from "../../protocol/atp/status.js";
import { readResourceUri } from "../../protocol/atp/url.js";
import { writeResponse } from "../../protocol/atp/writer.js";
import {
  ConnectionTable,
  LISTEN_BACKLOG,
  PROGRESS_MS,
  type TableLimits,
} from "../../net/connection-table.js";

/** How long a connection may take to send its request: a report of up to 4 MiB, on a slow link. */
const INBOX_REQUEST_TIMEOUT_MS = 30_000;
/**
 * Connections at once. Pushes come from the agent hosts of the robot's own agents, a few at a
 * time; each may buffer a report of up to MAX_BODY_BYTES (64 of them: 256 MiB).
 */
export const INBOX_MAX_CONNECTIONS = 64;
/** Connections one address may hold: an agent host pushes one report a connection. */
export const INBOX_MAX_CONNECTIONS_PER_ADDRESS = 8;
/**
 * After its answer the inbox closes its side; a peer that keeps its side open this long after
 * is cut off, so that answered sockets cannot be held to fill the inbox.
 */
export const INBOX_ANSWERED_LINGER_MS = 2_000;
/** Reports kept for agents nobody waits for yet (a push may come before the wait starts). */
const MAX_UNCLAIMED_REPORTS = 256;

export class AgentInbox {
  private readonly server: Server;
  private readonly waiting = new Map<string, (report: AgentReport) => void>();
  private readonly unclaimed = new Map<string, AgentReport>();
  private address = "";
  private readonly connections: ConnectionTable;

  constructor(
    private readonly maxBodyBytes = MAX_BODY_BYTES,
    /** The connection policy's limits over the inbox's defaults. */
    connections: Partial<TableLimits> = {},
  ) {
    this.connections = new ConnectionTable({
      total: INBOX_MAX_CONNECTIONS,
      perAddress: INBOX_MAX_CONNECTIONS_PER_ADDRESS,
      progressMs: PROGRESS_MS,
      ...connections,
    });
    this.server = createServer((socket) => this.serve(socket));
  }

  /** Connections open, for tests. */
  open(): number {
    return this.connections.open();
  }

  /** Listens (port 0: a free one); resolves to the inbox's `atp://host:port`. */
  async listen(host = "127.0.0.1", port = 0): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve());
    });
    const address = this.server.address();
    const bound = typeof address === "object" && address !== null ? address.port : port;
    this.address = `atp://${host.includes(":") ? `[${host}]` : host}:${bound}`;
    return this.address;
  }

  /** The report pushed for agent `id`, when it comes (at most `timeoutMs` from now). */
  wait(id: string, timeoutMs: number): Promise<AgentReport | null> {
    const ready = this.unclaimed.get(id);
    if (ready !== undefined) {
      this.unclaimed.delete(id);
      return Promise.resolve(ready);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(null);
      }, timeoutMs);
      this.waiting.set(id, (report) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(report);
      });
    });
  }

  close(): Promise<void> {
    this.connections.stop();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    if (!this.connections.admit(socket)) return;
    const buffer = new MessageBuffer({ maxBodyBytes: this.maxBodyBytes });
    let done = false;
    let linger: NodeJS.Timeout | null = null;
    const timer = setTimeout(() => socket.destroy(), INBOX_REQUEST_TIMEOUT_MS);
    const answer = (status: AtpStatus, text: string) => {
      done = true;
      clearTimeout(timer);
      this.connections.done(socket);
      socket.end(
        writeResponse({
          status,
          headers: [["Agent-System", HEED_AGENT_SYSTEM]],
          body: `${text}\n`,
        }),
      );
      linger = setTimeout(() => socket.destroy(), INBOX_ANSWERED_LINGER_MS);
    };
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      clearTimeout(timer);
      if (linger !== null) clearTimeout(linger);
    });
    socket.on("data", (chunk: Buffer) => {
      if (done) return;
      this.connections.heard(socket);
      const bytes = buffer.push(chunk);
      if (bytes === null) return;
      const read = readRequest(bytes, { maxBodyBytes: this.maxBodyBytes });
      if (read.kind === "incomplete") return;
      if (read.kind === "error") return answer(read.status, read.message);
      const request = read.message;
      if (request.method !== "MESSAGE")
        return answer(ATP_STATUS.NOT_IMPLEMENTED, "this agent service takes MESSAGE only");
      if (!isHeedSystem(header(request.headers, "agent-system"))) {
        return answer(ATP_STATUS.NOT_IMPLEMENTED, "only heed agents report here");
      }
      const id = readResourceUri(request.uri).agentId ?? header(request.headers, "agent-id");
      let report: AgentReport | null;
      try {
        report = JSON.parse(new TextDecoder().decode(request.body)) as AgentReport;
      } catch {
        report = null;
      }
      if (id === null || report === null || report.id !== id || !Array.isArray(report.records)) {
        return answer(
          ATP_STATUS.BAD_REQUEST,
          "expected a heed agent report for the agent the URI names",
        );
      }
      const waiter = this.waiting.get(id);
      if (waiter !== undefined) waiter(report);
      else if (this.unclaimed.size < MAX_UNCLAIMED_REPORTS) this.unclaimed.set(id, report);
      else return answer(ATP_STATUS.SERVICE_UNAVAILABLE, "too many reports nobody waits for");
      return answer(ATP_STATUS.OKAY, "taken");
    });
  }
}
