/**
 * What the page and its answering worker (answer-worker.ts) say to each other. The page sends
 * each edit; the worker parses, lints and answers it and sends back only the rows whose cells
 * changed, so the page's main thread never parses a file nor answers a URL while one types.
 */
import type {
  Decision,
  DialectChoice,
  FetchVerdict,
  LintFinding,
  Robot,
} from "../../protocol/robots/index.js";
import type { ChangedAnswer } from "./changed-answers.js";
import type { SiteWide } from "./site-wide.js";

/** One edit: everything the answers depend on. `urls` is left out when it has not changed. */
export interface AskMessage {
  readonly type: "ask";
  readonly seq: number;
  readonly text: string;
  readonly dialect: DialectChoice;
  readonly origin: string | null;
  readonly verdict: FetchVerdict | null;
  readonly siteWide: SiteWide | null;
  /** The robot in focus first, then the robots compared. */
  readonly robots: readonly Robot[];
  readonly urls?: readonly string[];
  /** The row whose full answer (plan, group lines) the page shows. */
  readonly selected: number;
}

/** The edited file's answers against the live file's, for the diff. */
export interface DiffMessage {
  readonly type: "diff";
  readonly seq: number;
  readonly liveText: string;
  readonly liveSiteWide: SiteWide | null;
  readonly editedText: string;
  readonly dialect: DialectChoice;
  readonly origin: string;
  readonly robots: readonly Robot[];
  readonly urls: readonly string[];
}

export type ToWorker = AskMessage | DiffMessage;

/**
 * One row's cells as the grid draws them: the robot in focus's verdict, line, rule, group,
 * reason and usage preferences, then for each robot compared its short answer and verdict.
 */
export interface RowCells {
  readonly url: string;
  /** The deciding line of the robot in focus ("" for none), for the editor's marks. */
  readonly line: string;
  readonly reason: string;
  readonly focus: readonly string[];
  /** [text, verdict, line] per robot compared. */
  readonly robots: readonly (readonly [string, string, string])[];
}

export interface AnswersMessage {
  readonly type: "answers";
  readonly seq: number;
  /** Set when the file was parsed again: what lint found and the chosen dialect. */
  readonly lint?: {
    readonly findings: readonly LintFinding[];
    readonly errors: number;
    readonly warnings: number;
    readonly infos: number;
    readonly dialect: string;
    readonly robotVersion: string | null;
    readonly versionLine: number | null;
  };
  /** The number of rows; every row past it is gone. */
  readonly rows: number;
  /** Set when the robots compared changed: every row is then sent. */
  readonly heads?: readonly string[];
  /** The rows whose cells changed, by index. */
  readonly changed: readonly (readonly [number, RowCells])[];
  /** Answers worked out for this edit (the page's tests count them). */
  readonly answered: number;
  /** Each deciding line of the robot in focus's answers, and whether it allowed. */
  readonly decided: readonly (readonly [number, boolean])[];
  /** The selected row's full answer. */
  readonly selected: { readonly url: string; readonly decision: Decision } | null;
}

export interface DiffAnswersMessage {
  readonly type: "diff-answers";
  readonly seq: number;
  readonly changes: readonly ChangedAnswer[];
}

export type FromWorker = AnswersMessage | DiffAnswersMessage;
