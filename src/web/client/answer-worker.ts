/**
 * The tester's answering worker: it parses and lints each edit of the file, answers what the
 * edit changed (answer-engine.ts) and the diff against the live file, all off the page's main
 * thread. It runs the page's own bundle (main.ts starts it when there is no document), so the
 * page stays one script from its own origin, which its CSP's `script-src 'self'` already allows
 * for workers: no second file, no blob: or data: URL to let in.
 */
import { lintPolicy, parseRobots } from "../../protocol/robots/index.js";
import { AnswerEngine } from "./answer-engine.js";
import type { AnswersMessage, AskMessage, DiffMessage, FromWorker } from "./answer-messages.js";
import { changedAnswers } from "./changed-answers.js";
import { ParseCache } from "./parse-cache.js";

/** The worker's side: answers each message it is sent with `post`. */
export class AnswerWorker {
  private readonly parsed = new ParseCache();
  private urls: readonly string[] = [];
  private readonly engine = new AnswerEngine();
  /** The newest edit not yet answered: edits that came meanwhile are answered as one. */
  private pending: AskMessage | null = null;

  constructor(private readonly post: (message: FromWorker) => void) {}

  receive(message: AskMessage | DiffMessage): void {
    if (message.type === "diff") {
      this.post(this.diff(message));
      return;
    }
    // URLs sent with an edit that is skipped still hold for the next.
    const urls = message.urls ?? this.pending?.urls;
    const waiting = this.pending !== null;
    this.pending = urls === undefined ? message : { ...message, urls };
    if (waiting) return;
    setTimeout(() => {
      const ask = this.pending as AskMessage;
      this.pending = null;
      this.post(this.ask(ask));
    }, 0);
  }

  private ask(message: AskMessage): AnswersMessage {
    if (message.urls !== undefined) this.urls = message.urls;
    const { policy, fresh } = this.parsed.parse(message);
    let lint: AnswersMessage["lint"];
    if (fresh) {
      const report = lintPolicy(
        policy,
        message.verdict === null ? {} : { verdict: message.verdict },
      );
      const versionLine = policy.text.lines.find((l) => l.key.toLowerCase() === "robot-version");
      lint = {
        findings: report.findings,
        errors: report.errors,
        warnings: report.warnings,
        infos: report.infos,
        dialect: policy.dialect,
        robotVersion: policy.robotVersion,
        versionLine: versionLine?.number ?? null,
      };
    }
    const answers = this.engine.set({
      question: { policy, siteWide: message.siteWide },
      robots: message.robots,
      urls: this.urls,
    });
    return {
      type: "answers",
      seq: message.seq,
      ...(lint === undefined ? {} : { lint }),
      ...answers,
      selected: this.engine.focusAnswer(message.selected),
    };
  }

  private diff(message: DiffMessage): FromWorker {
    const read = (text: string) =>
      parseRobots(text, { dialect: message.dialect, origin: message.origin });
    // Both files read for the live file's site, so that they answer its URLs alike.
    const changes = changedAnswers(
      { policy: read(message.liveText), siteWide: message.liveSiteWide },
      read(message.editedText),
      message.robots,
      message.urls,
    );
    return { type: "diff-answers", seq: message.seq, changes };
  }
}

/** Runs in the worker's global scope. */
export function runAnswerWorker(scope: {
  onmessage: ((event: MessageEvent<AskMessage | DiffMessage>) => void) | null;
  postMessage(message: FromWorker): void;
}): void {
  const worker = new AnswerWorker((message) => scope.postMessage(message));
  scope.onmessage = (event) => worker.receive(event.data);
}
