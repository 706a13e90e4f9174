/**
 * Requests take turns by remote address. A server answering every request the moment it is
 * read gives each of its sockets an equal share of its time, so five hundred sockets from a
 * flood leave a well-behaved client one five-hundredth, paid for in every step of its answer
 * (each file read waits behind theirs). Here at most `running` answers are being prepared at
 * once, and the next to start is taken from each waiting address in turn: a newcomer waits
 * for one request per busy address, not for every request queued. An answer counts as being
 * prepared until its head is sent or it ends (a long event stream does not hold a turn), and a
 * request whose peer has gone when its turn comes is dropped unanswered.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** How often answers that sent their head are looked for, when nothing else frees a turn. */
const RELOOK_MS = 1_000;

interface Waiting {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

export class RequestTurns {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly preparing = new Set<ServerResponse>();
  private readonly relook: NodeJS.Timeout;

  constructor(
    private readonly running: number,
    private readonly start: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    this.relook = setInterval(() => this.next(), RELOOK_MS);
    this.relook.unref();
  }

  /** Queues `req` under its address, and starts what may start. */
  add(req: IncomingMessage, res: ServerResponse): void {
    const address = req.socket.remoteAddress ?? "unknown";
    const queue = this.waiting.get(address);
    if (queue === undefined) this.waiting.set(address, [{ req, res }]);
    else queue.push({ req, res });
    res.once("close", () => {
      this.preparing.delete(res);
      this.next();
    });
    this.next();
  }

  stop(): void {
    clearInterval(this.relook);
  }

  private next(): void {
    for (const res of this.preparing) if (res.headersSent) this.preparing.delete(res);
    while (this.preparing.size < this.running) {
      const turn = this.take();
      if (turn === null) return;
      if (turn.req.socket.destroyed) continue;
      this.preparing.add(turn.res);
      this.start(turn.req, turn.res);
    }
  }

  /** The first waiting request of the address whose turn it is; that address goes last. */
  private take(): Waiting | null {
    for (const [address, queue] of this.waiting) {
      this.waiting.delete(address);
      const first = queue.shift();
      if (queue.length > 0) this.waiting.set(address, queue);
      if (first !== undefined) return first;
    }
    return null;
  }
}
