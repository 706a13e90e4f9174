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
  /** Where `text` starts in the file's text, when read from the scan's table (scan.ts). */
  readonly at?: number;
}

/** Which robots (and, for blocks, which paths) a sequence or block is for. */
export interface Target<D = Directive> {
  readonly agents: readonly D[];
  /** Ip-allow and Ip-disallow lines, in order: one IP token group (seeds/003 §3.2.4). */
  readonly ips: readonly D[];
  /** Blocks only: Allow and Disallow lines that narrow the paths the block covers. */
  readonly paths: readonly D[];
}

/** What a sequence, block or the global section says. */
export interface Content<D = Directive> {
  /** Allow and Disallow lines of a sequence or of the global section: its path group. */
  readonly rules: readonly D[];
  /** Every other command, in order. */
  readonly directives: readonly D[];
  readonly blocks: readonly Block<D>[];
}

export interface Block<D = Directive> {
  /** Line of the `{`. */
  readonly line: number;
  readonly depth: number;
  readonly target: Target<D>;
  readonly content: Content<D>;
}

export interface Sequence<D = Directive> {
  /** First line of the sequence. */
  readonly line: number;
  readonly target: Target<D>;
  /** The sequence has Ip lines and no User-agent line: `User-agent: *` is implied (§3.2.4). */
  readonly impliedAgent: boolean;
  readonly content: Content<D>;
}

export interface RegpLayout<D = Directive> {
  /** `Robot-version` and `Last-modified` lines, wherever they stand. */
  readonly header: readonly D[];
  readonly sequences: readonly Sequence<D>[];
  /** The global section(s): commands for every robot (DESIGN §4). */
  readonly global: Content<D>;
  readonly diagnostics: readonly Diagnostic[];
}

/** What a line is to the layout: a key line, or one of the kinds that have none. */
export type LineShape = "keyed" | "blank" | "comment" | "invalid" | "open-brace" | "close-brace";

/**
 * The lines of a file as the layout reads them, by index: the line reader's objects, or the
 * compact scan's table (scan.ts). The layout arranges indices; `directive` makes what it keeps.
 */
export interface LineSource<D> {
  readonly count: number;
  shape(i: number): LineShape;
  /** The key, lower-cased, a known misspelling read as the key it stands for. */
  key(i: number): string;
  /** The key as written, for messages. */
  written(i: number): string;
  number(i: number): number;
  directive(i: number, key: string): D;
}

const HEADER_KEYS = new Set(["robot-version", "last-modified"]);
const TARGET_KEYS = new Set(["user-agent", "ip-allow", "ip-disallow"]);
const PATH_KEYS = new Set(["allow", "disallow"]);

interface MutableContent {
  rules: number[];
  directives: number[];
  blocks: Block<number>[];
}

interface MutableTarget {
  agents: number[];
  ips: number[];
  paths: number[];
}

/** Arranges the lines of a REGP file. Never throws; oddities become diagnostics. */
export function layOut(lines: readonly RobotsLine[]): RegpLayout {
  return layOutSource({
    count: lines.length,
    shape: (i) => shapeOf(lines[i] as RobotsLine),
    key: (i) => keyOf(lines[i] as RobotsLine),
    written: (i) => (lines[i] as RobotsLine).key,
    number: (i) => (lines[i] as RobotsLine).number,
    directive: (i, key) => directive(lines[i] as RobotsLine, key),
  });
}

/** {@link layOut} over any {@link LineSource}. */
export function layOutSource<D>(source: LineSource<D>): RegpLayout<D> {
  const laid = arrange(source);
  const make = (i: number): D => source.directive(i, source.key(i));
  const all = (list: readonly number[]): D[] => list.map(make);
  const target = (t: Target<number>): Target<D> => ({
    agents: all(t.agents),
    ips: all(t.ips),
    paths: all(t.paths),
  });
  const content = (c: Content<number>): Content<D> => ({
    rules: all(c.rules),
    directives: all(c.directives),
    blocks: c.blocks.map(block),
  });
  const block = (b: Block<number>): Block<D> => ({
    line: b.line,
    depth: b.depth,
    target: target(b.target),
    content: content(b.content),
  });
  return {
    header: all(laid.header),
    sequences: laid.sequences.map((s) => ({
      line: s.line,
      target: target(s.target),
      impliedAgent: s.impliedAgent,
      content: content(s.content),
    })),
    global: content(laid.global),
    diagnostics: laid.diagnostics,
  };
}

/** The layout as line indices. */
function arrange(lines: LineSource<unknown>): RegpLayout<number> {
  const diagnostics: Diagnostic[] = [];
  const header: number[] = [];
  const sequences: Sequence<number>[] = [];
  const global: MutableContent = { rules: [], directives: [], blocks: [] };

  let i = 0;
  while (i < lines.count) {
    const shape = lines.shape(i);
    if (shape === "blank" || shape === "comment" || shape === "invalid") {
      i++;
      continue;
    }
    if (shape === "close-brace") {
      diagnostics.push(error(lines.number(i), "unbalanced-brace", "this } closes no {"));
      i++;
      continue;
    }
    const key = lines.key(i);
    if (HEADER_KEYS.has(key)) {
      // Appendix: `head` comes before every record.
      if (
        sequences.length > 0 ||
        global.rules.length + global.directives.length + global.blocks.length > 0
      ) {
        diagnostics.push(
          warning(
            lines.number(i),
            "header-out-of-place",
            `${lines.written(i)} belongs in the header at the top of the file`,
          ),
        );
      }
      header.push(i);
      i++;
      continue;
    }
    // A section runs to the next blank line outside braces.
    const target: MutableTarget = { agents: [], ips: [], paths: [] };
    const first = lines.number(i);
    while (i < lines.count) {
      if (lines.shape(i) === "comment") {
        i++;
        continue;
      }
      const k = lines.key(i);
      if (!TARGET_KEYS.has(k)) break;
      (k === "user-agent" ? target.agents : target.ips).push(i);
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
  lines: LineSource<unknown>,
  start: number,
  into: MutableContent,
  depth: number,
  diagnostics: Diagnostic[],
  inBlockTarget: boolean,
): number {
  let i = start;
  while (i < lines.count) {
    switch (lines.shape(i)) {
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
          diagnostics.push(error(lines.number(i), "unbalanced-brace", "this } closes no {"));
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
    const key = lines.key(i);
    if (depth === 0 && TARGET_KEYS.has(key)) {
      diagnostics.push(
        warning(
          lines.number(i),
          "missing-blank-line",
          `${lines.written(i)} starts a new command sequence; REGP separates sequences with a blank line (docs/regp.md#layout)`,
        ),
      );
      return i;
    }
    if (HEADER_KEYS.has(key)) {
      diagnostics.push(
        warning(
          lines.number(i),
          "header-out-of-place",
          `${lines.written(i)} belongs in the header at the top of the file`,
        ),
      );
    }
    if (PATH_KEYS.has(key) && !inBlockTarget) into.rules.push(i);
    else into.directives.push(i);
    i++;
  }
  return i;
}

function readBlock(
  lines: LineSource<unknown>,
  open: number,
  parent: MutableContent,
  depth: number,
  diagnostics: Diagnostic[],
): number {
  const openLine = lines.number(open);
  const target: MutableTarget = { agents: [], ips: [], paths: [] };
  const content: MutableContent = { rules: [], directives: [], blocks: [] };
  let i = open + 1;
  // seeds/003 §3.2: a block starts with its own target: User-agent, Ip and Allow/Disallow lines.
  while (i < lines.count) {
    if (lines.shape(i) === "comment") {
      i++;
      continue;
    }
    const key = lines.key(i);
    if (key === "user-agent") target.agents.push(i);
    else if (key === "ip-allow" || key === "ip-disallow") target.ips.push(i);
    else if (PATH_KEYS.has(key)) target.paths.push(i);
    else break;
    i++;
  }
  i = readContent(lines, i, content, depth, diagnostics, true);
  // Target lines after other commands still narrow the block: that is what they are.
  for (const d of content.directives) {
    const key = lines.key(d);
    if (PATH_KEYS.has(key)) target.paths.push(d);
    else if (key === "user-agent") target.agents.push(d);
    else if (key === "ip-allow" || key === "ip-disallow") target.ips.push(d);
  }
  content.directives = content.directives.filter((d) => {
    const key = lines.key(d);
    return !PATH_KEYS.has(key) && !TARGET_KEYS.has(key);
  });
  const closed = i < lines.count && lines.shape(i) === "close-brace";
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
function skipBlock(lines: LineSource<unknown>, open: number, diagnostics: Diagnostic[]): number {
  const openLine = lines.number(open);
  diagnostics.push(
    error(
      openLine,
      "brace-depth",
      `blocks nest deeper than ${MAX_BRACE_DEPTH}; this one is ignored`,
    ),
  );
  let depth = 0;
  for (let i = open; i < lines.count; i++) {
    const shape = lines.shape(i);
    if (shape === "open-brace") depth++;
    else if (shape === "close-brace" && --depth === 0) return i + 1;
    else if (shape === "blank") return i;
  }
  return lines.count;
}

/** What a line of the line reader is to the layout. */
export function shapeOf(line: RobotsLine): LineShape {
  switch (line.kind) {
    case "blank":
    case "comment":
    case "invalid":
    case "open-brace":
    case "close-brace":
      return line.kind;
    default:
      return "keyed";
  }
}

/** The key the layout reads a line by: an extension's lower-cased, a misspelling's meant. */
export function keyOf(line: RobotsLine): string {
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
