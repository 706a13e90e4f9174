/** Which rows of a long list are drawn: those in view, and a margin either side. */

/** Rows drawn above and below those in view, so that a scroll shows drawn rows at once. */
export const VIEW_MARGIN_ROWS = 10;

/** Rows `first` (included) to `last` (excluded). */
export interface RowWindow {
  readonly first: number;
  readonly last: number;
}

/** The rows to draw of `count` rows `rowPx` high, scrolled by `scrollTop` in a box `viewPx` high. */
export function rowWindow(
  scrollTop: number,
  viewPx: number,
  rowPx: number,
  count: number,
): RowWindow {
  const first = Math.max(0, Math.floor(scrollTop / rowPx) - VIEW_MARGIN_ROWS);
  const inView = Math.ceil(viewPx / rowPx) + 1;
  return { first, last: Math.min(count, first + inView + 2 * VIEW_MARGIN_ROWS) };
}
