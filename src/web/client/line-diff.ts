/**
 * A line diff of two texts: the longest common subsequence of their lines, after the common
 * head and tail are set aside. Its table costs (lines of a) × (lines of b) cells, bounded by
 * MAX_DIFF_CELLS; past that the diff says only that the middles differ.
 */

/**
 * Cells of the LCS table at most (4 bytes each: 16 MiB): two files of 2,000 differing lines
 * each. Robots.txt files that differ more are shown as one block removed, one added.
 */
export const MAX_DIFF_CELLS = 4_000_000;

export type DiffLine =
  | { readonly op: "same"; readonly text: string; readonly a: number; readonly b: number }
  | { readonly op: "removed"; readonly text: string; readonly a: number }
  | { readonly op: "added"; readonly text: string; readonly b: number };

export function lineDiff(aText: string, bText: string): DiffLine[] {
  const a = aText.split(/\r\n|\r|\n/);
  const b = bText.split(/\r\n|\r|\n/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) out.push({ op: "same", text: a[i] as string, a: i + 1, b: i + 1 });
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  out.push(...middle(am, bm, head));
  for (let i = tail; i > 0; i--)
    out.push({
      op: "same",
      text: a[a.length - i] as string,
      a: a.length - i + 1,
      b: b.length - i + 1,
    });
  return out;
}

function middle(a: readonly string[], b: readonly string[], offset: number): DiffLine[] {
  const removed = (i: number): DiffLine => ({
    op: "removed",
    text: a[i] as string,
    a: offset + i + 1,
  });
  const added = (j: number): DiffLine => ({ op: "added", text: b[j] as string, b: offset + j + 1 });
  if ((a.length + 1) * (b.length + 1) > MAX_DIFF_CELLS)
    return [...a.map((_, i) => removed(i)), ...b.map((_, j) => added(j))];
  const width = b.length + 1;
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: "same", text: a[i] as string, a: offset + i + 1, b: offset + j + 1 });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) {
      out.push(removed(i++));
    } else {
      out.push(added(j++));
    }
  }
  while (i < a.length) out.push(removed(i++));
  while (j < b.length) out.push(added(j++));
  return out;
}
