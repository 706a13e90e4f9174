/**
 * REGP's group rule (seeds/003 §3.2.4 for IPs, §3.2.5 for paths): read the lines top to
 * bottom, the last that matches decides; when none does, an implicit first line does:
 * `Disallow: /` (or `Ip-disallow: *`) before a group that starts with a non-root Allow,
 * `Allow: /` before one that starts with a non-root Disallow.
 */

export interface GroupLine {
  readonly allow: boolean;
  /** True for `*` or `/`: a line that matches everything and so implies nothing. */
  readonly everything: boolean;
  readonly line: number;
  readonly text: string;
}

export type LastMatch<L extends GroupLine> =
  | { readonly allowed: boolean; readonly by: L }
  | { readonly allowed: boolean; readonly by: "implicit" | "empty" };

/** A group read by index, whatever it keeps its lines in (objects, or columns: path-group.ts). */
export interface GroupColumns {
  readonly length: number;
  allows(i: number): boolean;
  /** Line `i` is `*` or `/`. */
  everything(i: number): boolean;
}

/** {@link deciding}'s answer when no line matches and the first implies the opposite. */
export const IMPLICIT = -1;
/** {@link deciding}'s answer when no line matches and none is implied: allowed. */
export const EMPTY = -2;

/**
 * The index of the line that decides (the last that `matches`), else {@link IMPLICIT} or
 * {@link EMPTY}; an implicit line allows when the first line does not.
 */
export function deciding(group: GroupColumns, matches: (i: number) => boolean): number {
  for (let i = group.length - 1; i >= 0; i--) if (matches(i)) return i;
  return group.length === 0 || group.everything(0) ? EMPTY : IMPLICIT;
}

/** {@link deciding} as a verdict, the deciding line given by `at`. */
export function verdictOf<L extends GroupLine>(
  group: GroupColumns,
  index: number,
  at: (i: number) => L,
): LastMatch<L> {
  if (index >= 0) return { allowed: group.allows(index), by: at(index) };
  if (index === EMPTY) return { allowed: true, by: "empty" };
  return { allowed: !group.allows(0), by: "implicit" };
}

/** The rule over a group of line objects. */
export function lastMatch<L extends GroupLine>(
  lines: readonly L[],
  matches: (line: L) => boolean,
): LastMatch<L> {
  const group: GroupColumns = {
    length: lines.length,
    allows: (i) => (lines[i] as L).allow,
    everything: (i) => (lines[i] as L).everything,
  };
  return verdictOf(
    group,
    deciding(group, (i) => matches(lines[i] as L)),
    (i) => lines[i] as L,
  );
}
