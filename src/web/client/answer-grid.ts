/**
 * The answers table: one row per URL, the robot in focus answered in full (verdict, line, rule,
 * group, reason, usage preferences), then one column per robot compared. It answers only what
 * changed: each column keeps its answers by URL while its key (column-key.ts) stays the same,
 * so a new URL costs one answer per robot, a new robot one column, and an edit inside one group
 * the columns of the robots that group is chosen for. The work is cut into slices of at most
 * SLICE_MS, so that typing is never held up by a thousand answers.
 */
import type { Decision, Robot } from "../../protocol/robots/index.js";
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
import { KIND_TEXT, KNOWN_CRAWLERS } from "./crawlers.js";
import { h } from "./dom.js";

/** Main-thread time one slice of answering may take before the page gets the thread back. */
export const SLICE_MS = 8;

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

export class AnswerGrid {
  private columns: Column[] = [];
  private input: GridInput | null = null;
  /** The URL each row shows, and the columns each row must draw again. */
  private shown: string[] = [];
  private dirty = new Map<number, Set<number>>();
  private queue: number[] = [];
  private timer: number | null = null;
  /** Answers worked out since the grid was made (the page's tests count them). */
  answered = 0;
  /** Called once every row is answered. */
  onSettled: () => void = () => undefined;

  constructor(
    private readonly head: HTMLTableRowElement,
    private readonly body: HTMLTableSectionElement,
  ) {}

  /** The robot in focus's answer for row `i`, once answered. */
  focusAnswer(i: number): { url: string; decision: Decision } | null {
    const url = this.input?.urls[i];
    const decision = url === undefined ? undefined : this.columns[0]?.answers.get(url);
    return url === undefined || decision === undefined ? null : { url, decision };
  }

  /** Every answered row of the robot in focus. */
  focusAnswers(): { url: string; decision: Decision }[] {
    const out: { url: string; decision: Decision }[] = [];
    for (let i = 0; i < (this.input?.urls.length ?? 0); i++) {
      const answer = this.focusAnswer(i);
      if (answer !== null) out.push(answer);
    }
    return out;
  }

  /** New inputs: works out which rows and columns they change, and answers those. */
  set(input: GridInput): void {
    this.input = input;
    const touched = new Set<number>();
    const columns: Column[] = input.robots.map((robot, c) => {
      const key = columnKey(input.question.policy, robot, input.question.siteWide);
      const old = this.columns.find((col) => col.key === key && col.robot.agent === robot.agent);
      if (old !== undefined) {
        old.robot = robot;
        if (old !== this.columns[c]) touched.add(c);
        return old;
      }
      touched.add(c);
      return { robot, key, answers: new Map(), usage: new Map() };
    });
    const headChanged =
      columns.length !== this.columns.length ||
      columns.some((col, c) => col.robot.agent !== this.columns[c]?.robot.agent);
    this.columns = columns;
    if (headChanged) this.drawHead();
    for (const col of columns) prune(col, input.urls);
    while (this.body.rows.length > input.urls.length) this.body.lastElementChild?.remove();
    this.shown.length = Math.min(this.shown.length, input.urls.length);
    // Rows still waiting from the last inputs keep their columns to draw (a new head redraws
    // every row whole anyway).
    const waiting = headChanged ? new Map<number, Set<number>>() : this.dirty;
    this.dirty = new Map();
    const all = columns.map((_, c) => c);
    input.urls.forEach((url, row) => {
      const cols = new Set(this.shown[row] !== url || headChanged ? all : touched);
      for (const c of waiting.get(row) ?? []) cols.add(c);
      if (cols.size > 0) this.dirty.set(row, cols);
    });
    this.queue = [...this.dirty.keys()].reverse();
    this.start();
  }

  private start(): void {
    if (this.timer !== null) return;
    document.body.setAttribute("data-answering", "");
    this.timer = window.setTimeout(() => this.slice(), 0);
  }

  private slice(): void {
    const input = this.input;
    const started = performance.now();
    while (input !== null && this.queue.length > 0 && performance.now() - started < SLICE_MS) {
      const row = this.queue.pop() as number;
      this.drawRow(input, row, this.dirty.get(row) ?? new Set());
      this.dirty.delete(row);
    }
    performance.measure("heed:answer-slice", { start: started, end: performance.now() });
    if (this.queue.length > 0) {
      this.timer = window.setTimeout(() => this.slice(), 0);
      return;
    }
    this.timer = null;
    this.body.setAttribute("data-answered", String(this.answered));
    document.body.removeAttribute("data-answering");
    this.onSettled();
  }

  private answer(input: GridInput, c: number, url: string): Decision {
    const col = this.columns[c] as Column;
    let decision = col.answers.get(url);
    if (decision === undefined) {
      const question = { ...input.question, robot: col.robot };
      decision = decide(question, url);
      col.answers.set(url, decision);
      col.usage.set(url, usageText(question, url, decision));
      this.answered++;
    }
    return decision;
  }

  private drawRow(input: GridInput, i: number, cols: ReadonlySet<number>): void {
    const url = input.urls[i] as string;
    let tr = this.body.rows[i];
    if (tr === undefined || this.shown[i] !== url) {
      const fresh = h(
        "tr",
        { "data-row": i },
        h(
          "th",
          { scope: "row", class: "url" },
          h("button", { type: "button", "data-row": i, class: "link" }, url),
        ),
        ...["verdict", "line", "rule", "group", "reason", "usage"].map((cls) =>
          h("td", { class: cls }),
        ),
        ...this.columns.slice(1).map(() => h("td", { class: "robot" })),
      );
      if (tr === undefined) this.body.append(fresh);
      else tr.replaceWith(fresh);
      tr = fresh;
      this.shown[i] = url;
    }
    for (const c of cols) {
      const decision = this.answer(input, c, url);
      if (c === 0) this.drawFocus(tr, url, decision);
      else {
        const cell = tr.cells[6 + c] as HTMLTableCellElement;
        const usage = this.columns[c]?.usage.get(url) ?? "";
        setText(cell, usage === "" ? shortText(decision) : `${shortText(decision)}; ${usage}`);
        cell.className = `robot ${verdictText(decision)}`;
        cell.setAttribute("data-line", String(decision.line ?? ""));
      }
    }
  }

  private drawFocus(tr: HTMLTableRowElement, url: string, decision: Decision): void {
    tr.className = `answer ${verdictText(decision)}`;
    tr.setAttribute("data-line", String(decision.line ?? ""));
    tr.setAttribute("data-reason", decision.reason);
    const cells = tr.cells;
    setText(cells[1], verdictText(decision));
    setText(cells[2], decision.line === null ? "–" : String(decision.line));
    setText(cells[3], decision.rule ?? "");
    setText(cells[4], groupText(decision));
    setText(cells[5], reasonText(decision));
    setText(cells[6], this.columns[0]?.usage.get(url) ?? "");
  }

  private drawHead(): void {
    const compared = this.columns.slice(1).map((col) => {
      const known = KNOWN_CRAWLERS.find(
        (k) => k.token.toLowerCase() === col.robot.agent.toLowerCase(),
      );
      return h(
        "th",
        { scope: "col", class: "robot", "data-robot": col.robot.agent },
        col.robot.agent,
        known === undefined
          ? null
          : h("span", { class: `kind ${known.kind}` }, KIND_TEXT[known.kind]),
      );
    });
    this.head.replaceChildren(...[...this.head.cells].slice(0, 7), ...compared);
    // Every row's cells follow the head: rows are drawn again whole.
    this.body.replaceChildren();
    this.shown = [];
  }
}

/** Writes a cell only when its text changes: most cells keep theirs from one edit to the next. */
function setText(cell: HTMLTableCellElement | undefined, text: string): void {
  if (cell !== undefined && cell.textContent !== text) cell.textContent = text;
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
