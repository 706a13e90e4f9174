/**
 * Connection limits of an HTTP server (`heed serve`): at most `perAddress` connections from
 * one remote address and `total` in all. When the total is reached, the connection idle the
 * longest (no request in progress) is closed to make room, so that a flood of idle sockets
 * from many addresses cannot lock well-behaved clients out; only when every connection is busy
 * is the newcomer refused. Idle and slow connections are also timed out (see `timeouts`).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface ConnectionLimits {
  /** Connections open at once. A file descriptor each: far below a usual `ulimit -n` of 1024+. */
  readonly total: number;
  /** Connections one remote address may have open at once. Browsers open six per host. */
  readonly perAddress: number;
  /** A connection with no request in progress is closed after this long (ms). */
  readonly idleMs: number;
  /** A request's head must arrive within this long (ms). */
  readonly headersMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  total: 512,
  perAddress: 16,
  idleMs: 15_000,
  headersMs: 10_000,
};

interface Tracked {
  readonly address: string;
  /** Requests in progress on it. */
  busy: number;
  /** When it last became idle (ms, monotonic). */
  idleSince: number;
}

/** Applies the limits to `server`; returns the number of connections open, for tests. */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): { open(): number } {
  const sockets = new Map<Socket, Tracked>();
  const perAddress = new Map<string, number>();
  server.headersTimeout = limits.headersMs;
  server.requestTimeout = Math.max(limits.headersMs, 30_000);
  server.keepAliveTimeout = Math.min(5_000, limits.idleMs);
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const fromAddress = perAddress.get(address) ?? 0;
    if (fromAddress >= limits.perAddress) {
      socket.destroy();
      return;
    }
    if (sockets.size >= limits.total && !closeIdlest(sockets)) {
      socket.destroy();
      return;
    }
    perAddress.set(address, fromAddress + 1);
    sockets.set(socket, { address, busy: 0, idleSince: performance.now() });
    // Idle sockets (never sending a request, or kept alive) are let go: see "timeout" below.
    socket.setTimeout(limits.idleMs);
    socket.once("close", () => {
      sockets.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
  // With a listener here, node:http leaves the decision to it: a quiet socket is closed only
  // when no request is in progress on it (a slow answer is bounded by requestTimeout).
  server.on("timeout", (socket: Socket) => {
    if ((sockets.get(socket)?.busy ?? 0) === 0) socket.destroy();
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const tracked = sockets.get(req.socket);
    if (tracked === undefined) return;
    tracked.busy++;
    res.once("close", () => {
      tracked.busy--;
      tracked.idleSince = performance.now();
    });
  });
  return { open: () => sockets.size };
}

/** Closes the connection idle the longest; false when none is idle. */
function closeIdlest(sockets: Map<Socket, Tracked>): boolean {
  let idlest: Socket | null = null;
  let since = Infinity;
  for (const [socket, t] of sockets) {
    if (t.busy === 0 && t.idleSince < since) {
      idlest = socket;
      since = t.idleSince;
    }
  }
  if (idlest === null) return false;
  sockets.delete(idlest);
  idlest.destroy();
  return true;
}
