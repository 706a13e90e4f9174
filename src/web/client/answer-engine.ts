/**
 * The answers of the tester's grid, worked out in the answering worker: one row per URL, the
 * robot in focus answered in full, then one column per robot compared. It answers only what
 * changed: each column keeps its answers by URL while its key (column-key.ts) stays the same,
 * so a new URL costs one answer per robot, a new robot one column, and an edit inside one group
 * the columns of the robots that group is chosen for. Each row's cells are compared with those
 * last sent, and only the rows that differ go back to the page.
 */
import type { Decision, Robot } from "../../protocol/robots/index.js";
import type { AnswersMessage, RowCells } from "./answer-messages.js";
import {
  decide,
  groupText,
  type Question,
  reasonText,
  shortText,
  usageText,
  verdictText,
} from "./answer-text.js";
import { columnKey } from "./column-key.js";

interface Column {
  robot: Robot;
  key: string;
  /** Answers by URL, for the current key. */
  answers: Map<string, Decision>;
  /** Usage preferences by URL, for the current key. */
  usage: Map<string, string>;
}

/** What the grid is asked: the robots' answers share the file, the site's status and the URLs. */
export interface GridInput {
  readonly question: Omit<Question, "robot">;
  /** The robot in focus first, then the robots compared. */
  readonly robots: readonly Robot[];
  readonly urls: readonly string[];
}

type Answers = Pick<AnswersMessage, "rows" | "heads" | "changed" | "answered" | "decided">;

export class AnswerEngine {
  private columns: Column[] = [];
  private input: GridInput | null = null;
  /** Each row's cells as last sent, as one string to compare. */
  private sent: string[] = [];

  /** New inputs: answers the rows and columns they change, and returns the rows that differ. */
  set(input: GridInput): Answers {
    this.input = input;
    const columns: Column[] = input.robots.map((robot) => {
      const key = columnKey(input.question.policy, robot, input.question.siteWide);
      const old = this.columns.find((col) => col.key === key && col.robot.agent === robot.agent);
      if (old !== undefined) {
        old.robot = robot;
        return old;
      }
      return { robot, key, answers: new Map(), usage: new Map() };
    });
    const headChanged =
      columns.length !== this.columns.length ||
      columns.some((col, c) => col.robot.agent !== this.columns[c]?.robot.agent);
    this.columns = columns;
    for (const col of columns) prune(col, input.urls);
    if (headChanged) this.sent = [];
    this.sent.length = Math.min(this.sent.length, input.urls.length);
    let answered = 0;
    const changed: [number, RowCells][] = [];
    const decided = new Map<number, boolean>();
    input.urls.forEach((url, row) => {
      for (const col of columns) if (!col.answers.has(url)) answered += this.answerCol(col, url);
      const focus = columns[0]?.answers.get(url);
      if (focus?.line !== null && focus !== undefined) decided.set(focus.line, focus.allowed);
      const cells = this.cells(url);
      const flat = JSON.stringify(cells);
      if (this.sent[row] !== flat) {
        this.sent[row] = flat;
        changed.push([row, cells]);
      }
    });
    return {
      rows: input.urls.length,
      ...(headChanged ? { heads: columns.slice(1).map((col) => col.robot.agent) } : {}),
      changed,
      answered,
      decided: [...decided],
    };
  }

  /** The robot in focus's full answer for row `i`, once answered. */
  focusAnswer(i: number): { url: string; decision: Decision } | null {
    const url = this.input?.urls[i];
    const decision = url === undefined ? undefined : this.columns[0]?.answers.get(url);
    return url === undefined || decision === undefined ? null : { url, decision };
  }

  private answerCol(col: Column, url: string): number {
    const input = this.input as GridInput;
    const question = { ...input.question, robot: col.robot };
    const decision = decide(question, url);
    col.answers.set(url, decision);
    col.usage.set(url, usageText(question, url, decision));
    return 1;
  }

  private cells(url: string): RowCells {
    const [focus, ...compared] = this.columns;
    const d = focus?.answers.get(url);
    return {
      url,
      line: String(d?.line ?? ""),
      reason: d?.reason ?? "",
      focus:
        d === undefined
          ? []
          : [
              verdictText(d),
              d.line === null ? "–" : String(d.line),
              d.rule ?? "",
              groupText(d),
              reasonText(d),
              focus?.usage.get(url) ?? "",
            ],
      robots: compared.map((col) => {
        const decision = col.answers.get(url) as Decision;
        const usage = col.usage.get(url) ?? "";
        const short = shortText(decision);
        return [
          usage === "" ? short : `${short}; ${usage}`,
          verdictText(decision),
          String(decision.line ?? ""),
        ] as const;
      }),
    };
  }
}

/** Forgets the answers of URLs no longer asked, once they outnumber those asked. */
function prune(col: Column, urls: readonly string[]): void {
  if (col.answers.size <= urls.length * 2) return;
  const asked = new Set(urls);
  for (const url of col.answers.keys()) {
    if (!asked.has(url)) {
      col.answers.delete(url);
      col.usage.delete(url);
    }
  }
}
