/**
 * The connections a server facing the Internet holds, and who gives way when they run out.
 * Shared by every server heed runs (`heed serve` and its RUP service, `heed ui`, the agent
 * host): at most `perAddress` connections from one remote address and `total` in all; when the
 * total is reached, the idlest connection is closed to make room for the newcomer: first one
 * with no answer being worked on (waiting for a request, or answered), else one whose answer
 * waits on its peer (bytes not taken), the one that took nothing for longest first. Holding
 * sockets open, or asking for a large file and never reading it, does not lock well-behaved
 * clients out. When every connection is at work on an answer, an address holding more than
 * the newcomer's would gives up one (fair shares between addresses). An answer that makes
 * no progress at all for `progressMs` is dropped. See docs/connection-policy.md.
 */
import type { Socket } from "node:net";

export interface TableLimits {
  /** Connections open at once. */
  readonly total: number;
  /** Connections one remote address may have open at once. */
  readonly perAddress: number;
  /** An answer the peer takes no byte of for this long (ms) is dropped with its connection. */
  readonly progressMs: number;
}

/**
 * How long (ms) an answer may wait on a peer that takes none of it. TCP keeps retrying a lossy
 * link on its own; a reader that takes nothing for 10 s has gone or holds the socket on purpose.
 */
export const PROGRESS_MS = 10_000;
/** How often answers are checked for progress: fine enough for deadlines of a few seconds. */
export const PROGRESS_CHECK_MS = 1_000;
/**
 * A connection accepted this recently that has sent nothing yet is not counted idle. Node
 * accepts one connection per turn of its event loop and may accept the next before it reads
 * the first: while attackers fill every place, each newcomer would otherwise be closed, its
 * request unread, to make room for the one after it. It still gives way when nothing else can.
 */
export const NEWCOMER_GRACE_MS = 1_000;
/**
 * A connection answered this recently is not counted idle: a reset would throw away an answer
 * its peer has not read yet. It gives way only when nothing else can.
 */
export const ANSWER_DRAIN_MS = 1_000;
/**
 * The kernel's queue of connections not yet accepted (Node's default is 511). Hundreds of
 * attackers connecting at once fill a queue of that size, and a well-behaved client arriving
 * behind them is dropped or reset before heed sees it; Linux caps this at somaxconn (4096).
 */
export const LISTEN_BACKLOG = 4096;

interface Tracked {
  readonly address: string;
  /** Answers being worked on or owed on it. */
  busy: number;
  /** When it last became idle, or last had bytes from its peer (ms, monotonic). */
  idleSince: number;
  /** Bytes the peer has taken (written out of the socket's buffer), at the last look. */
  sent: number;
  /** When the peer last took a byte, or nothing was waiting for it (ms, monotonic). */
  progressAt: number;
  /** When it was accepted (ms, monotonic). */
  readonly admittedAt: number;
  /** Whether its peer has sent a request or bytes yet. */
  spoke: boolean;
  /** Whether an answer on it has been finished. */
  answered: boolean;
}

export class ConnectionTable {
  private readonly sockets = new Map<Socket, Tracked>();
  private readonly perAddress = new Map<string, number>();
  private readonly checker: NodeJS.Timeout;

  constructor(private readonly limits: TableLimits) {
    this.checker = setInterval(() => this.check(), PROGRESS_CHECK_MS);
    this.checker.unref();
  }

  /** Takes `socket` in, or destroys it (its address is over its share, or nothing can give way). */
  admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? "unknown";
    let fromAddress = this.perAddress.get(address) ?? 0;
    if (fromAddress >= this.limits.perAddress) {
      // An address at its share gives up its own connection answered and idle the longest (its
      // close not come through yet, say): a client that opens a connection for each request is
      // not refused for the ones it has finished with.
      if (!this.evictIdleOf(address)) {
        socket.destroy();
        return false;
      }
      fromAddress--;
    }
    if (this.sockets.size >= this.limits.total && !this.evictIdlest(fromAddress)) {
      socket.destroy();
      return false;
    }
    const now = performance.now();
    this.perAddress.set(address, fromAddress + 1);
    this.sockets.set(socket, {
      address,
      busy: 0,
      idleSince: now,
      sent: 0,
      progressAt: now,
      admittedAt: now,
      spoke: false,
      answered: false,
    });
    socket.once("close", () => this.forget(socket));
    return true;
  }

  /** An answer is now owed on `socket`; returns how many are. */
  busy(socket: Socket): number {
    const t = this.sockets.get(socket);
    if (t === undefined) return 0;
    t.spoke = true;
    t.busy++;
    t.progressAt = performance.now();
    return t.busy;
  }

  /** An answer on `socket` is done (or cut off); returns how many are still owed. */
  done(socket: Socket): number {
    const t = this.sockets.get(socket);
    if (t === undefined) return 0;
    t.busy = Math.max(0, t.busy - 1);
    t.answered = true;
    if (t.busy === 0) t.idleSince = performance.now();
    return t.busy;
  }

  /** Answers owed on `socket`. */
  owed(socket: Socket): number {
    return this.sockets.get(socket)?.busy ?? 0;
  }

  /** The peer sent bytes: it is less idle than one that did not. */
  heard(socket: Socket): void {
    const t = this.sockets.get(socket);
    if (t === undefined) return;
    t.spoke = true;
    if (t.busy === 0) t.idleSince = performance.now();
  }

  open(): number {
    return this.sockets.size;
  }

  /** Stops the progress checks (the server is closing). */
  stop(): void {
    clearInterval(this.checker);
  }

  private forget(socket: Socket): void {
    const t = this.sockets.get(socket);
    if (t === undefined) return;
    this.sockets.delete(socket);
    const left = (this.perAddress.get(t.address) ?? 1) - 1;
    if (left <= 0) this.perAddress.delete(t.address);
    else this.perAddress.set(t.address, left);
  }

  /** Updates what `socket`'s peer has taken; true when an answer waits on it in vain. */
  private look(socket: Socket, t: Tracked, now: number): boolean {
    const waiting = socket.writableLength;
    // bytesWritten counts what is still buffered too: what left is the difference.
    const sent = socket.bytesWritten - waiting;
    if (waiting === 0 || sent !== t.sent) t.progressAt = now;
    t.sent = sent;
    return waiting > 0;
  }

  private check(): void {
    const now = performance.now();
    for (const [socket, t] of this.sockets) {
      if (this.look(socket, t, now) && now - t.progressAt >= this.limits.progressMs) {
        this.forget(socket);
        socket.destroy();
      }
    }
  }

  /**
   * Closes the idlest connection: idle, else waiting on its peer, else (all at work) the one
   * least recently moved of the address holding the most, if that is more than the newcomer's
   * address would then hold (`newcomer` it holds now), else a newcomer not yet heard from.
   * False when none of these is open.
   */
  private evictIdlest(newcomer: number): boolean {
    const now = performance.now();
    let idlest: Socket | null = null;
    let idle = false;
    let since = Infinity;
    let unheard: Socket | null = null;
    for (const [socket, t] of this.sockets) {
      // A request still being read, or an answer just finished (its peer may not have read it:
      // a reset would throw it away), is no more idle than a newcomer: it gives way last.
      const reading = t.busy === 0 && t.spoke && !t.answered;
      const justAnswered = t.answered && t.busy === 0 && now - t.idleSince < ANSWER_DRAIN_MS;
      if (reading || justAnswered || (!t.spoke && now - t.admittedAt < NEWCOMER_GRACE_MS)) {
        unheard ??= socket;
        continue;
      }
      const waiting = this.look(socket, t, now);
      if (t.busy === 0 ? !idle || t.idleSince < since : !idle && waiting && t.progressAt < since) {
        idlest = socket;
        idle = t.busy === 0;
        since = idle ? t.idleSince : t.progressAt;
      }
    }
    idlest ??= this.oldestOfBusiestAddress(newcomer) ?? unheard;
    if (idlest === null) return false;
    this.giveWay(idlest);
    return true;
  }

  /** Frees `socket`'s place and closes it. */
  private giveWay(socket: Socket): void {
    this.forget(socket);
    socket.destroy();
  }

  /** Closes `address`'s answered connection idle the longest; false when it has none. */
  private evictIdleOf(address: string): boolean {
    let idlest: Socket | null = null;
    let since = Infinity;
    for (const [socket, t] of this.sockets) {
      if (t.address === address && t.answered && t.busy === 0 && t.idleSince < since) {
        idlest = socket;
        since = t.idleSince;
      }
    }
    if (idlest === null) return false;
    this.giveWay(idlest);
    return true;
  }

  /** Fair shares: an address holding more than the newcomer's gives up its least moved one. */
  private oldestOfBusiestAddress(newcomer: number): Socket | null {
    let busiest: string | null = null;
    let most = newcomer + 1;
    for (const [address, open] of this.perAddress) {
      if (open > most) {
        busiest = address;
        most = open;
      }
    }
    let oldest: Socket | null = null;
    let since = Infinity;
    for (const [socket, t] of this.sockets) {
      if (t.address === busiest && t.progressAt < since) {
        oldest = socket;
        since = t.progressAt;
      }
    }
    return oldest;
  }
}
