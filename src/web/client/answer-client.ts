/**
 * The page's side of the answering worker (answer-worker.ts): it sends each edit and hands each
 * reply to the page. Replies can be held back and let go later (`window.heedAnswers`), so the
 * page's tests can make an edit arrive while an earlier one's answers are still on their way.
 */
import type { AskMessage, DiffMessage, FromWorker } from "./answer-messages.js";

type Ask = Omit<AskMessage, "type" | "seq">;
type Diff = Omit<DiffMessage, "type" | "seq">;

/** The hook the page's tests reach through `window.heedAnswers`. */
export interface AnswersHook {
  /** Keeps the worker's replies until `release`. */
  hold(): void;
  /** Hands the first `count` kept replies (all by default) to the page, in order; holds no more. */
  release(count?: number): void;
  /** Replies kept so far. */
  held(): number;
}

declare global {
  interface Window {
    heedAnswers?: AnswersHook;
  }
}

export class AnswerClient implements AnswersHook {
  private readonly worker: Worker;
  private seq = 0;
  /** The newest edit sent: a reply to it, or to none older, settles the page. */
  private lastAsk = 0;
  private holding = false;
  private kept: FromWorker[] = [];
  private readonly diffs = new Map<number, (message: FromWorker) => void>();

  /** `onAnswers` is called with each edit's reply, and whether it answers the newest edit. */
  constructor(
    scriptUrl: string,
    private readonly onAnswers: (
      message: FromWorker & { type: "answers" },
      newest: boolean,
    ) => void,
  ) {
    this.worker = new Worker(scriptUrl, { type: "module", name: "heed-answers" });
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => {
      // Measured from before the reply is read: reading it is where its copy is made.
      const started = performance.now();
      if (this.holding) this.kept.push(event.data);
      else this.deliver(event.data);
      performance.measure("heed:answers", { start: started, end: performance.now() });
    };
    window.heedAnswers = this;
  }

  ask(message: Ask): void {
    this.lastAsk = ++this.seq;
    this.worker.postMessage({ type: "ask", seq: this.lastAsk, ...message } satisfies AskMessage);
  }

  /** The diff's changed answers, worked out in the worker. */
  diff(message: Diff): Promise<FromWorker & { type: "diff-answers" }> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.diffs.set(seq, (reply) => resolve(reply as FromWorker & { type: "diff-answers" }));
      this.worker.postMessage({ type: "diff", seq, ...message } satisfies DiffMessage);
    });
  }

  hold(): void {
    this.holding = true;
  }

  release(count = this.kept.length): void {
    const kept = this.kept.splice(0, count);
    this.holding = this.kept.length > 0;
    for (const message of kept) this.deliver(message);
  }

  held(): number {
    return this.kept.length;
  }

  private deliver(message: FromWorker): void {
    if (message.type === "answers") {
      this.onAnswers(message, message.seq >= this.lastAsk);
      return;
    }
    this.diffs.get(message.seq)?.(message);
    this.diffs.delete(message.seq);
  }
}
