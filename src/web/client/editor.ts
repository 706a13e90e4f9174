/**
 * The robots.txt editor: a plain textarea (so typing, undo, selection and screen readers work
 * as everywhere) over a backdrop that draws, line for line, what heed says about each line:
 * the deciding line of each answer, the group, lint findings inline at their lines. The
 * backdrop and the gutter follow the textarea's scrolling; both are hidden from assistive
 * technology, which reads the same facts from the answers table and the findings list.
 */
import { h } from "./dom.js";

export type Severity = "error" | "warning" | "info";

export interface LineMarks {
  /** Deciding lines of the answers: line → allowed? */
  readonly decided: ReadonlyMap<number, boolean>;
  /** The deciding line of the selected answer. */
  readonly current: number | null;
  /** User-agent lines of the selected answer's group. */
  readonly group: readonly number[];
  /** Findings by line. */
  readonly findings: ReadonlyMap<
    number,
    readonly { readonly severity: Severity; readonly code: string; readonly message: string }[]
  >;
}

export class Editor {
  readonly textarea: HTMLTextAreaElement;
  private readonly backdrop: HTMLElement;
  private readonly gutter: HTMLElement;
  /** What each line of the backdrop was drawn from. */
  private drawn: string[] = [];

  constructor(textarea: HTMLTextAreaElement, backdrop: HTMLElement, gutter: HTMLElement) {
    this.textarea = textarea;
    this.backdrop = backdrop;
    this.gutter = gutter;
    textarea.addEventListener("scroll", () => this.follow());
  }

  get text(): string {
    return this.textarea.value;
  }

  set text(value: string) {
    this.textarea.value = value;
  }

  /**
   * Redraws the backdrop and the gutter for the current text: only the lines whose text or
   * marks changed, so that a keystroke redraws a line, not the file.
   */
  draw(marks: LineMarks): void {
    const lines = this.textarea.value.split(/\r\n|\r|\n/);
    const group = new Set(marks.group);
    lines.forEach((text, i) => {
      const n = i + 1;
      const classes = ["line"];
      const decided = marks.decided.get(n);
      if (decided !== undefined) classes.push("decided", decided ? "allow" : "deny");
      if (marks.current === n) classes.push("current");
      if (group.has(n)) classes.push("group");
      const findings = marks.findings.get(n) ?? [];
      const worst = worstOf(findings.map((f) => f.severity));
      if (worst !== null) classes.push(`lint-${worst}`);
      const notes = findings.map((f) => [f.severity, `${f.code}: ${f.message}`] as const);
      const key = JSON.stringify([classes, text, notes]);
      if (this.drawn[i] === key) return;
      this.drawn[i] = key;
      const row = h(
        "div",
        { class: classes.join(" "), "data-line": n },
        h("span", { class: "text" }, text === "" ? " " : text),
        ...notes.map(([severity, note]) => h("span", { class: `note ${severity}` }, note)),
      );
      const number = h(
        "div",
        {
          class: `num${worst === null ? "" : ` lint-${worst}`}${marks.current === n ? " current" : ""}`,
        },
        String(n),
      );
      place(this.backdrop, i, row);
      place(this.gutter, i, number);
    });
    this.drawn.length = lines.length;
    while (this.backdrop.children.length > lines.length) this.backdrop.lastElementChild?.remove();
    while (this.gutter.children.length > lines.length) this.gutter.lastElementChild?.remove();
    this.follow();
  }

  /** Puts the cursor at the start of a line, selects it and scrolls it into view. */
  goTo(line: number): void {
    const lines = this.textarea.value.split(/(?<=\r\n|\r|\n)/);
    let start = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) start += (lines[i] as string).length;
    const end = start + (lines[line - 1] ?? "").replace(/[\r\n]+$/, "").length;
    // Focusing and selecting may scroll the textarea by itself; keep the view where it was
    // when the line is in sight, else bring the line to the upper third.
    const before = this.textarea.scrollTop;
    this.textarea.focus({ preventScroll: true });
    this.textarea.setSelectionRange(start, end);
    const lineHeight = parseFloat(getComputedStyle(this.textarea).lineHeight) || 20;
    const top = (line - 1) * lineHeight;
    const visible = top >= before && top + lineHeight * 2 <= before + this.textarea.clientHeight;
    this.textarea.scrollTop = visible ? before : Math.max(0, top - this.textarea.clientHeight / 3);
    this.follow();
  }

  private follow(): void {
    const { scrollTop, scrollLeft } = this.textarea;
    this.backdrop.style.transform = `translate(${-scrollLeft}px, ${-scrollTop}px)`;
    this.gutter.style.transform = `translateY(${-scrollTop}px)`;
  }
}

function worstOf(severities: readonly Severity[]): Severity | null {
  if (severities.includes("error")) return "error";
  if (severities.includes("warning")) return "warning";
  if (severities.includes("info")) return "info";
  return null;
}

/** Puts `child` at index `i` of `parent`, in place of the one there. */
function place(parent: HTMLElement, i: number, child: HTMLElement): void {
  const old = parent.children[i];
  if (old === undefined) parent.append(child);
  else old.replaceWith(child);
}
