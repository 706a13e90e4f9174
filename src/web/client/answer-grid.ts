/**
 * The answers table on the page, drawn from the rows the answering worker sends (answer-engine.ts
 * works them out). Only the rows in view, and VIEW_MARGIN_ROWS either side, are in the DOM: a
 * thousand URLs by several robots would otherwise cost every edit a thousand rows to restyle. The
 * table is an ARIA grid that says how many rows there are (aria-rowcount) and where each drawn
 * row sits (aria-rowindex); the arrow keys, Page Up/Down, Home and End move between the rows'
 * URLs and bring the row into view, and focus stays on its row while the rows around it change.
 */
import type { AnswersMessage, RowCells } from "./answer-messages.js";
import { KIND_TEXT, KNOWN_CRAWLERS } from "./crawlers.js";
import { h } from "./dom.js";
import { rowWindow } from "./row-window.js";

/** A row's height until one is drawn to measure (every row is one height: app.css clamps cells). */
const ROW_PX = 54;
/** The robot in focus's cells, after the URL. */
const FOCUS_CELLS = ["verdict", "line", "rule", "group", "reason", "usage"] as const;

export class AnswerGrid {
  private rows: (RowCells | undefined)[] = [];
  private heads: readonly string[] = [];
  /** The rows in the DOM, by index, and those whose cells changed since they were drawn. */
  private drawn = new Map<number, HTMLTableRowElement>();
  private stale = new Set<number>();
  private rowPx = ROW_PX;
  private measured = false;
  private frame: number | null = null;
  /** The selected row, drawn as such wherever it is drawn. */
  selected = 0;
  /** Answers the worker has worked out since the page opened (the page's tests count them). */
  answered = 0;

  /** Stand-ins for the rows not drawn above and below. */
  private readonly top = spacer();
  private readonly bottom = spacer();

  constructor(
    private readonly table: HTMLTableElement,
    private readonly head: HTMLTableRowElement,
    private readonly body: HTMLTableSectionElement,
    private readonly scroller: HTMLElement,
  ) {
    body.before(this.top);
    body.after(this.bottom);
    scroller.addEventListener("scroll", () => this.soon());
    scroller.addEventListener("keydown", (event) => this.key(event));
  }

  /** The number of rows asked. */
  get length(): number {
    return this.rows.length;
  }

  /** Takes one reply of the worker: the rows that changed, and the heads when they did. */
  apply(message: AnswersMessage): void {
    this.answered += message.answered;
    if (message.heads !== undefined) {
      this.heads = message.heads;
      this.drawHead();
      for (const tr of this.drawn.values()) tr.remove();
      this.drawn.clear();
      this.rows = [];
    }
    this.rows.length = message.rows;
    for (const [i, cells] of message.changed) {
      this.rows[i] = cells;
      if (this.drawn.has(i)) this.stale.add(i);
    }
    this.table.setAttribute("aria-rowcount", String(message.rows + 1));
    this.body.setAttribute("data-answered", String(this.answered));
    this.draw();
  }

  /** Marks row `i` selected (and no other). */
  select(i: number): void {
    this.drawn.get(this.selected)?.classList.remove("selected");
    this.drawn.get(this.selected)?.removeAttribute("aria-current");
    this.selected = i;
    this.drawn.get(i)?.classList.add("selected");
    this.drawn.get(i)?.setAttribute("aria-current", "true");
  }

  /** Scrolls row `i` into view, draws it and moves focus to its URL. */
  focusRow(i: number): void {
    const row = Math.max(0, Math.min(i, this.rows.length - 1));
    const y = row * this.rowPx;
    const view = this.scroller.clientHeight - this.head.offsetHeight;
    if (y < this.scroller.scrollTop) this.scroller.scrollTop = y;
    else if (y + this.rowPx > this.scroller.scrollTop + view)
      this.scroller.scrollTop = y + this.rowPx - view;
    this.draw();
    this.drawn.get(row)?.querySelector("button")?.focus();
  }

  private soon(): void {
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.draw();
    });
  }

  /** Draws the rows in view and the margin, removes the others, and sizes the spacers. */
  private draw(): void {
    const count = this.rows.length;
    const { first, last } = rowWindow(
      this.scroller.scrollTop,
      this.scroller.clientHeight,
      this.rowPx,
      count,
    );
    let lostFocus = false;
    for (const [i, tr] of this.drawn) {
      if (i >= first && i < last && this.rows[i] !== undefined) continue;
      lostFocus ||= tr.contains(document.activeElement);
      tr.remove();
      this.drawn.delete(i);
    }
    let before: HTMLTableRowElement | null = null;
    for (let i = first; i < last; i++) {
      const cells = this.rows[i];
      if (cells === undefined) continue;
      let tr = this.drawn.get(i);
      if (tr === undefined) {
        tr = this.newRow(i);
        if (before === null) this.body.prepend(tr);
        else before.after(tr);
        this.drawn.set(i, tr);
        this.fillRow(tr, cells);
      } else if (this.stale.has(i)) this.fillRow(tr, cells);
      before = tr;
    }
    this.stale.clear();
    setHeight(this.top, first * this.rowPx);
    setHeight(this.bottom, Math.max(0, count - last) * this.rowPx);
    if (!this.measured) {
      // Once: measuring costs a layout in the middle of the script.
      const px = this.drawn.values().next().value?.getBoundingClientRect().height ?? 0;
      if (px > 0) [this.rowPx, this.measured] = [px, true];
    }
    // The focused row scrolled away: focus goes to the scrolling box, not to the page's start.
    if (lostFocus) this.scroller.focus({ preventScroll: true });
  }

  private newRow(i: number): HTMLTableRowElement {
    return h(
      "tr",
      { "data-row": i, "aria-rowindex": i + 2 },
      h(
        "th",
        { scope: "row", class: "url" },
        h("button", { type: "button", "data-row": i, class: "link" }),
      ),
      ...FOCUS_CELLS.map((cls) => h("td", { class: cls }, h("div", { class: "cut" }))),
      ...this.heads.map(() => h("td", { class: "robot" }, h("div", { class: "cut" }))),
    );
  }

  private fillRow(tr: HTMLTableRowElement, cells: RowCells): void {
    const i = Number(tr.getAttribute("data-row"));
    const verdict = cells.focus[0] ?? "";
    tr.className = `answer ${verdict}${i === this.selected ? " selected" : ""}`;
    if (i === this.selected) tr.setAttribute("aria-current", "true");
    else tr.removeAttribute("aria-current");
    tr.setAttribute("data-line", cells.line);
    tr.setAttribute("data-reason", cells.reason);
    setCell(tr.cells[0], cells.url);
    cells.focus.forEach((text, c) => setCell(tr.cells[1 + c], text));
    cells.robots.forEach(([text, cls, line], c) => {
      const cell = tr.cells[7 + c];
      if (cell === undefined) return;
      setCell(cell, text);
      cell.className = `robot ${cls}`;
      cell.setAttribute("data-line", line);
    });
  }

  private key(event: KeyboardEvent): void {
    const button = (event.target as Element).closest("button[data-row]");
    // From the scrolling box itself, the keys start at the first row in view.
    const i =
      button !== null
        ? Number(button.getAttribute("data-row"))
        : event.target === this.scroller
          ? Math.floor(this.scroller.scrollTop / this.rowPx) - 1
          : null;
    if (i === null) return;
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / this.rowPx) - 1);
    const to: Record<string, number> = {
      ArrowDown: i + 1,
      ArrowUp: i - 1,
      PageDown: i + page,
      PageUp: i - page,
      Home: 0,
      End: this.rows.length - 1,
    };
    const next = to[event.key];
    if (next === undefined) return;
    event.preventDefault();
    this.focusRow(next);
  }

  private drawHead(): void {
    const compared = this.heads.map((agent) => {
      const known = KNOWN_CRAWLERS.find((k) => k.token.toLowerCase() === agent.toLowerCase());
      return h(
        "th",
        { scope: "col", class: "robot", "data-robot": agent },
        agent,
        known === undefined
          ? null
          : h("span", { class: `kind ${known.kind}` }, KIND_TEXT[known.kind]),
      );
    });
    this.head.replaceChildren(...[...this.head.cells].slice(0, 7), ...compared);
  }
}

/** A cell's text, and its title: a cell shows two lines at most, and its whole text on hover. */
function setCell(cell: HTMLTableCellElement | undefined, text: string): void {
  const inner = cell?.firstElementChild;
  if (!(inner instanceof HTMLElement) || inner.textContent === text) return;
  inner.textContent = text;
  inner.title = text;
}

/** Rows standing in for those not drawn above or below, out of the accessibility tree. */
function spacer(): HTMLTableSectionElement {
  return h("tbody", { class: "spacer", "aria-hidden": "true" }, h("tr", {}, h("td")));
}

function setHeight(spacer: HTMLTableSectionElement, px: number): void {
  const cell = spacer.rows[0]?.cells[0] as HTMLTableCellElement;
  cell.style.height = `${px}px`;
  spacer.hidden = px === 0;
}
