/**
 * The connection policy of heed's HTTP servers (`heed serve` with its RUP service, `heed ui`):
 * the shared connection table (net/connection-table.ts: limits per address and in all, eviction
 * of the idlest, a deadline on an answer's progress), deadlines on a request's head and on idle
 * connections, and a cap on pipelined requests. node:http parses every request in what it
 * reads at once (up to 64 KiB, thousands of small requests) and would start an answer for each:
 * here its parser is fed a slice at a time, a socket with `maxQueued` answers owed is neither
 * parsed further nor read from until they are sent, requests take turns by address
 * (./request-turns.ts), and no handler runs for a peer already gone. See
 * docs/connection-policy.md.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import { ConnectionTable, PROGRESS_MS, type TableLimits } from "../net/connection-table.js";
import { MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS } from "./connection-defaults.js";
import { RequestTurns } from "./request-turns.js";

export interface ConnectionLimits extends TableLimits {
  /** A connection with no request in progress is closed after this long (ms). */
  readonly idleMs: number;
  /** A request's head must arrive within this long (ms). */
  readonly headersMs: number;
  /** Answers one connection may owe at once (pipelined requests); reading waits beyond. */
  readonly maxQueued: number;
  /** Answers being prepared at once, taken from each waiting address in turn. */
  readonly preparing: number;
}

export { MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS };
/** Keep-alive is a courtesy: a client that comes back within 15 s saves a handshake. */
export const IDLE_MS = 15_000;
/** A request head is a few hundred bytes: 10 s is ample on any link; slowloris gets no more. */
export const HEADERS_MS = 10_000;
/**
 * Browsers do not pipeline; apt, the one common client that does, sends up to 10 at once
 * and waits when fewer are taken.
 * Each owed answer costs a response object and maybe an open file.
 */
export const MAX_QUEUED_REQUESTS = 8;
/**
 * A static file's answer takes a few file-system calls, which node runs four at a time: 32
 * keeps them busy, and a newcomer waits behind no more than that.
 */
export const MAX_PREPARING = 32;
/** How often node:http checks the head and request deadlines (its default, 30 s, lets them slip). */
const DEADLINE_CHECK_MS = 1_000;
/** A whole request, body included (RUP forms are small). */
const REQUEST_MS = 30_000;

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  total: MAX_CONNECTIONS,
  perAddress: MAX_CONNECTIONS_PER_ADDRESS,
  idleMs: IDLE_MS,
  headersMs: HEADERS_MS,
  progressMs: PROGRESS_MS,
  maxQueued: MAX_QUEUED_REQUESTS,
  preparing: MAX_PREPARING,
};

export interface LimitedServer {
  readonly server: Server;
  /** Connections open, for tests. */
  open(): number;
}

/** An HTTP server that runs `handler` under `limits`. */
export function createLimitedServer(
  handler: RequestListener,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): LimitedServer {
  const table = new ConnectionTable(limits);
  const meters = new WeakMap<Socket, Meter>();
  const turns = new RequestTurns(limits.preparing, handler);
  const server = createServer(
    {
      headersTimeout: limits.headersMs,
      requestTimeout: Math.max(limits.headersMs, REQUEST_MS),
      keepAliveTimeout: Math.min(5_000, limits.idleMs),
      connectionsCheckingInterval: DEADLINE_CHECK_MS,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      // A pipelined request read before its peer left: nobody is there to answer.
      if (socket.destroyed) return;
      table.busy(socket);
      res.once("close", () => {
        table.done(socket);
        meters.get(socket)?.feed();
      });
      turns.add(req, res);
    },
  );
  // Registered after node:http's own listener, which has put its parser on the socket.
  server.on("connection", (socket: Socket) => {
    if (!table.admit(socket)) return;
    meters.set(
      socket,
      meter(socket, () => table.owed(socket) < limits.maxQueued),
    );
    // Idle sockets (never sending a request, or kept alive) are let go: see "timeout" below.
    socket.setTimeout(limits.idleMs);
  });
  // With a listener here, node:http leaves the decision to it: a quiet socket is closed only
  // when no request is in progress on it (a stalled answer is the progress check's).
  server.on("timeout", (socket: Socket) => {
    if (table.owed(socket) === 0) socket.destroy();
  });
  server.once("close", () => {
    table.stop();
    turns.stop();
  });
  return { server, open: () => table.open() };
}

/**
 * Bytes handed to node:http's parser at once. It parses all it is given and starts an answer
 * for each request in it; a few dozen of the smallest requests fit in 1 KiB.
 */
const PARSE_SLICE_BYTES = 1024;

interface Meter {
  /** Parses what was held back, if `open()` allows it now. */
  feed(): void;
}

/**
 * Puts itself between `socket` and node:http's parser: bytes reach the parser a slice at a
 * time, and only while `open()`; otherwise the socket is paused and what it had read waits
 * (one read, at most 64 KiB).
 */
function meter(socket: Socket, open: () => boolean): Meter {
  const [parse] = socket.listeners("data") as ((chunk: Buffer) => void)[];
  let held: Buffer | null = null;
  let paused = false;
  const feed = (): void => {
    while (held !== null && !socket.destroyed) {
      if (!open()) {
        paused = true;
        socket.pause();
        return;
      }
      // node:http pauses the socket itself while its answers' bytes pile up.
      if (socket.isPaused() && !paused) return;
      const piece: Buffer = held.subarray(0, PARSE_SLICE_BYTES);
      held = held.length > PARSE_SLICE_BYTES ? held.subarray(PARSE_SLICE_BYTES) : null;
      parse?.(piece);
    }
    if (paused && open() && !socket.destroyed) {
      paused = false;
      socket.resume();
    }
  };
  if (parse === undefined) return { feed };
  socket.removeListener("data", parse);
  // Listening for "data" makes node:http stop reading the socket on its own (it "unconsumes").
  socket.on("data", (chunk: Buffer) => {
    held = held === null ? chunk : Buffer.concat([held, chunk]);
    feed();
  });
  socket.on("resume", feed);
  return { feed };
}
