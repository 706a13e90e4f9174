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

export function lastMatch<L extends GroupLine>(
  lines: readonly L[],
  matches: (line: L) => boolean,
): LastMatch<L> {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as L;
    if (matches(line)) return { allowed: line.allow, by: line };
  }
  const first = lines[0];
  if (first === undefined) return { allowed: true, by: "empty" };
  if (first.everything) return { allowed: true, by: "empty" };
  return { allowed: !first.allow, by: "implicit" };
}
