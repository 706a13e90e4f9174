/**
 * A cap on the sockets one HTTP client holds open, over every site it talks to.
 *
 * undici's `connections` bounds the sockets of one origin, not their sum: a crawl of 10,000
 * sites would keep 10,000 keep-alive sockets, each an open file. The budget sees every socket
 * as it is made (it wraps the connector of each origin's pool) and as it closes. At the cap, a
 * new connection first closes the idle sockets of the site used least recently; when every
 * socket is busy it waits for one to close or fall idle. An EMFILE or ENFILE while connecting
 * lowers the cap to the sockets open then, so the rest of the crawl stays under the limit the
 * system really has.
 */
import type { Socket } from "node:net";
import { type buildConnector, Pool } from "undici";
import { OPEN_FILES_SHORTAGE_CODES } from "./open-files.js";

/** While connections wait for a slot, how often idle sockets are looked for again. */
export const SLOT_RECHECK_MS = 50;

/** A pool that tells the budget when it is used: the budget closes the least used first. */
class UsedPool extends Pool {
  constructor(
    origin: string | URL,
    options: Pool.Options,
    private readonly onUse: () => void,
  ) {
    super(origin, options);
  }

  override dispatch(
    options: Parameters<Pool["dispatch"]>[0],
    handler: Parameters<Pool["dispatch"]>[1],
  ): boolean {
    this.onUse();
    return super.dispatch(options, handler);
  }
}

export class SocketBudget {
  private cap: number;
  /** Sockets open, or being opened. */
  private open = 0;
  /** Each pool's open sockets; the Map's order is least recently used first. */
  private readonly held = new Map<Pool, Set<Socket>>();
  /** Connections waiting for a slot, first come first served. */
  private readonly waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(max: number) {
    this.cap = max;
  }

  /** The cap now: the one given, or lower after the system ran out of open files. */
  get max(): number {
    return this.cap;
  }

  /** Sockets open or being opened now. */
  get sockets(): number {
    return this.open;
  }

  /** An undici Agent `factory`: a pool for `origin` whose connections go through the budget. */
  pool(origin: string | URL, options: Pool.Options, connect: buildConnector.connector): Pool {
    const pool: Pool = new UsedPool(
      origin,
      { ...options, connect: (given, callback) => this.connect(pool, connect, given, callback) },
      () => this.touch(pool),
    );
    return pool;
  }

  private stopLooking(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private connect(
    pool: Pool,
    inner: buildConnector.connector,
    options: buildConnector.Options,
    callback: buildConnector.Callback,
  ): void {
    this.admit(() =>
      inner(options, (error: Error | null, socket: Socket | null) => {
        if (error !== null || socket === null) {
          this.open--;
          if (isShortage(error)) this.cap = Math.max(1, Math.min(this.cap, this.open));
          this.next();
          callback(error ?? new Error("no socket"), null);
          return;
        }
        this.track(pool, socket);
        callback(null, socket);
      }),
    );
  }

  private admit(start: () => void): void {
    this.waiting.push(start);
    this.next();
  }

  /** Starts waiting connections while there is room; makes room from idle sockets if not. */
  private next(): void {
    while (this.waiting.length > 0 && this.open < this.cap) {
      this.open++;
      this.waiting.shift()?.();
    }
    if (this.waiting.length === 0) {
      this.stopLooking();
      return;
    }
    this.closeIdle(this.open + this.waiting.length - this.cap);
    if (this.timer === null) {
      this.timer = setInterval(() => this.next(), SLOT_RECHECK_MS);
      // The sockets in use keep the process alive while this waits for one of them.
      this.timer.unref();
    }
  }

  /** Closes the sockets of idle pools, least recently used first, until `count` are closing. */
  private closeIdle(count: number): void {
    let left = count;
    for (const [pool, sockets] of this.held) {
      if (left <= 0) return;
      const { running, pending, queued } = pool.stats;
      if (running > 0 || pending > 0 || queued > 0) continue;
      for (const socket of sockets) {
        // One already closing frees its slot too.
        if (!socket.destroyed) socket.destroy();
        left--;
      }
    }
  }

  private touch(pool: Pool): void {
    const sockets = this.held.get(pool);
    if (sockets === undefined) return;
    this.held.delete(pool);
    this.held.set(pool, sockets);
  }

  private track(pool: Pool, socket: Socket): void {
    const sockets = this.held.get(pool) ?? new Set<Socket>();
    sockets.add(socket);
    this.held.delete(pool);
    this.held.set(pool, sockets);
    socket.once("close", () => {
      sockets.delete(socket);
      if (sockets.size === 0 && this.held.get(pool) === sockets) this.held.delete(pool);
      this.open--;
      this.next();
    });
  }
}

function isShortage(error: Error | null): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && OPEN_FILES_SHORTAGE_CODES.has(code);
}
