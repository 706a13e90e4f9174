/**
 * The layout of a REGP robots.txt (seeds/003 §3.2, Appendix): a header, command sequences
 * separated by blank lines, and a global section; inside a sequence's content, brace blocks,
 * nested and parallel. This step only arranges lines; `compile.ts` reads their values.
 */
import type { Diagnostic } from "../diagnostic.js";
import type { RobotsLine } from "../line-reader.js";

/** Deepest brace nesting read; deeper blocks are reported and their contents ignored. */
export const MAX_BRACE_DEPTH = 16;

/** A `key: value` line of a REGP file, key lower-cased (`crawl-delay`, `ip-allow` …). */
export interface Directive {
  readonly key: string;
  readonly value: string;
  readonly line: number;
  /** The line as written, comment removed. */
  readonly text: string;
}

/** Which robots (and, for blocks, which paths) a sequence or block is for. */
export interface Target {
  readonly agents: readonly Directive[];
  /** Ip-allow and Ip-disallow lines, in order: one IP token group (seeds/003 §3.2.4). */
  readonly ips: readonly Directive[];
  /** Blocks only: Allow and Disallow lines that narrow the paths the block covers. */
  readonly paths: readonly Directive[];
}

/** What a sequence, block or the global section says. */
export interface Content {
  /** Allow and Disallow lines of a sequence or of the global section: its path group. */
  readonly rules: readonly Directive[];
  /** Every other command, in order. */
  readonly directives: readonly Directive[];
  readonly blocks: readonly Block[];
}

export interface Block {
  /** Line of the `{`. */
  readonly line: number;
  readonly depth: number;
  readonly target: Target;
  readonly content: Content;
}

export interface Sequence {
  /** First line of the sequence. */
  readonly line: number;
  readonly target: Target;
  /** The sequence has Ip lines and no User-agent line: `User-agent: *` is implied (§3.2.4). */
  readonly impliedAgent: boolean;
  readonly content: Content;
}

export interface RegpLayout {
  /** `Robot-version` and `Last-modified` lines, wherever they stand. */
  readonly header: readonly Directive[];
  readonly sequences: readonly Sequence[];
  /** The global section(s): commands for every robot (DESIGN §4). */
  readonly global: Content;
  readonly diagnostics: readonly Diagnostic[];
}

const HEADER_KEYS = new Set(["robot-version", "last-modified"]);
const TARGET_KEYS = new Set(["user-agent", "ip-allow", "ip-disallow"]);
const PATH_KEYS = new Set(["allow", "disallow"]);

interface MutableContent {
  rules: Directive[];
  directives: Directive[];
  blocks: Block[];
}

interface MutableTarget {
  agents: Directive[];
  ips: Directive[];
  paths: Directive[];
}

/** Arranges the lines of a REGP file. Never throws; oddities become diagnostics. */
export function layOut(lines: readonly RobotsLine[]): RegpLayout {
  const diagnostics: Diagnostic[] = [];
  const header: Directive[] = [];
  const sequences: Sequence[] = [];
  const global: MutableContent = { rules: [], directives: [], blocks: [] };

  let i = 0;
  const next = (): RobotsLine | undefined => lines[i];

  while (i < lines.length) {
    const line = next() as RobotsLine;
    if (line.kind === "blank" || line.kind === "comment" || line.kind === "invalid") {
      i++;
      continue;
    }
    if (line.kind === "close-brace") {
      diagnostics.push(error(line.number, "unbalanced-brace", "this } closes no {"));
      i++;
      continue;
    }
    const key = keyOf(line);
    if (HEADER_KEYS.has(key)) {
      // Appendix: `head` comes before every record.
      if (
        sequences.length > 0 ||
        global.rules.length + global.directives.length + global.blocks.length > 0
      ) {
        diagnostics.push(
          warning(
            line.number,
            "header-out-of-place",
            `${line.key} belongs in the header at the top of the file`,
          ),
        );
      }
      header.push(directive(line, key));
      i++;
      continue;
    }
    // A section runs to the next blank line outside braces.
    const target: MutableTarget = { agents: [], ips: [], paths: [] };
    const first = line.number;
    while (i < lines.length) {
      const l = next() as RobotsLine;
      if (l.kind === "comment") {
        i++;
        continue;
      }
      const k = keyOf(l);
      if (!TARGET_KEYS.has(k)) break;
      (k === "user-agent" ? target.agents : target.ips).push(directive(l, k));
      i++;
    }
    const content: MutableContent =
      target.agents.length + target.ips.length === 0
        ? global
        : { rules: [], directives: [], blocks: [] };
    i = readContent(lines, i, content, 0, diagnostics, false);
    if (content !== global) {
      sequences.push({
        line: first,
        target,
        impliedAgent: target.agents.length === 0,
        content,
      });
    }
  }
  return { header, sequences, global, diagnostics };
}

/**
 * Reads content lines from `start` until a blank line (depth 0), a `}` (inside a block), a
 * line that starts a new target (depth 0: a sequence without its blank line), or the end.
 * Returns the index of the first line not consumed.
 */
function readContent(
  lines: readonly RobotsLine[],
  start: number,
  into: MutableContent,
  depth: number,
  diagnostics: Diagnostic[],
  inBlockTarget: boolean,
): number {
  let i = start;
  while (i < lines.length) {
    const line = lines[i] as RobotsLine;
    switch (line.kind) {
      case "comment":
      case "invalid":
        i++;
        continue;
      case "blank":
        // A blank line ends the section, open braces or not (the Appendix grammar has no
        // blank lines inside blocks); an unclosed block is reported by readBlock.
        return i;
      case "close-brace":
        if (depth === 0) {
          diagnostics.push(error(line.number, "unbalanced-brace", "this } closes no {"));
          i++;
          continue;
        }
        return i;
      case "open-brace": {
        i =
          depth + 1 > MAX_BRACE_DEPTH
            ? skipBlock(lines, i, diagnostics)
            : readBlock(lines, i, into, depth + 1, diagnostics);
        continue;
      }
      default:
        break;
    }
    const key = keyOf(line);
    if (depth === 0 && TARGET_KEYS.has(key)) {
      diagnostics.push(
        warning(
          line.number,
          "missing-blank-line",
          `${line.key} starts a new command sequence; REGP separates sequences with a blank line (docs/regp.md#layout)`,
        ),
      );
      return i;
    }
    if (HEADER_KEYS.has(key)) {
      diagnostics.push(
        warning(
          line.number,
          "header-out-of-place",
          `${line.key} belongs in the header at the top of the file`,
        ),
      );
    }
    if (PATH_KEYS.has(key) && !inBlockTarget) into.rules.push(directive(line, key));
    else into.directives.push(directive(line, key));
    i++;
  }
  return i;
}

function readBlock(
  lines: readonly RobotsLine[],
  open: number,
  parent: MutableContent,
  depth: number,
  diagnostics: Diagnostic[],
): number {
  const openLine = (lines[open] as RobotsLine).number;
  const target: MutableTarget = { agents: [], ips: [], paths: [] };
  const content: MutableContent = { rules: [], directives: [], blocks: [] };
  let i = open + 1;
  // seeds/003 §3.2: a block starts with its own target: User-agent, Ip and Allow/Disallow lines.
  while (i < lines.length) {
    const line = lines[i] as RobotsLine;
    if (line.kind === "comment") {
      i++;
      continue;
    }
    const key = keyOf(line);
    if (key === "user-agent") target.agents.push(directive(line, key));
    else if (key === "ip-allow" || key === "ip-disallow") target.ips.push(directive(line, key));
    else if (PATH_KEYS.has(key)) target.paths.push(directive(line, key));
    else break;
    i++;
  }
  i = readContent(lines, i, content, depth, diagnostics, true);
  // Target lines after other commands still narrow the block: that is what they are.
  for (const d of content.directives) {
    if (PATH_KEYS.has(d.key)) target.paths.push(d);
    else if (d.key === "user-agent") target.agents.push(d);
    else if (d.key === "ip-allow" || d.key === "ip-disallow") target.ips.push(d);
  }
  content.directives = content.directives.filter(
    (d) => !PATH_KEYS.has(d.key) && !TARGET_KEYS.has(d.key),
  );
  const closed = i < lines.length && (lines[i] as RobotsLine).kind === "close-brace";
  if (closed) i++;
  else
    diagnostics.push(
      error(
        openLine,
        "unbalanced-brace",
        "this { is never closed; the block ends at the end of its section",
      ),
    );
  parent.blocks.push({ line: openLine, depth, target, content });
  return i;
}

/** Passes over a block nested too deep, without recursion; returns the index after its `}`. */
function skipBlock(lines: readonly RobotsLine[], open: number, diagnostics: Diagnostic[]): number {
  const openLine = (lines[open] as RobotsLine).number;
  diagnostics.push(
    error(
      openLine,
      "brace-depth",
      `blocks nest deeper than ${MAX_BRACE_DEPTH}; this one is ignored`,
    ),
  );
  let depth = 0;
  for (let i = open; i < lines.length; i++) {
    const kind = (lines[i] as RobotsLine).kind;
    if (kind === "open-brace") depth++;
    else if (kind === "close-brace" && --depth === 0) return i + 1;
    else if (kind === "blank") return i;
  }
  return lines.length;
}

function keyOf(line: RobotsLine): string {
  return line.kind === "extension" ? line.key.toLowerCase() : (line.misspeltFor ?? line.kind);
}

function directive(line: RobotsLine, key: string): Directive {
  return { key, value: line.value, line: line.number, text: line.text };
}

function error(line: number, code: string, message: string): Diagnostic {
  return { line, severity: "error", code, message };
}

function warning(line: number, code: string, message: string): Diagnostic {
  return { line, severity: "warning", code, message };
}
