/**
 * One pass over a YAML /data.txt, before any parsing, that counts what parsing would cost and
 * finds where the top-level entries begin. The `yaml` package builds a node for every value,
 * and its cost in time and memory follows the number of values, not the bytes: a flow list of
 * four million one-letter items fits in 8 MiB. Counting here, in a loop that allocates nothing
 * per character, lets the reader stop at the limits before the parser sees the text.
 *
 * A "value" is counted for every line with content, every block indicator (`- `, `key: `),
 * every flow collection opened and every flow separator (`,`): at least one for each node the
 * parser would make, so the count bounds its work. Quoted scalars, comments and block scalars
 * (`|`, `>`) are passed over, so that their text is not counted nor taken for structure.
 *
 * The document is "split" when it is what catalogs are: a block list at column 0, optionally
 * after comments, `%` directives and a `---` line. Each of its entries can then be parsed
 * alone, from one item start to the next. Anything else at column 0 (a mapping key, a flow
 * list, a second document) makes the document unsplit: it is parsed whole, if small enough.
 */

export interface YamlScan {
  /** Offsets where the top-level entries begin, or null when the document is not split. */
  readonly starts: readonly number[] | null;
  /** 1-based line of each start. */
  readonly lines: readonly number[];
  /** Values in each entry (from its start to the next). */
  readonly values: readonly number[];
  /** Directive and `---` lines before the first entry, to be put before each entry parsed alone. */
  readonly prelude: string;
  /** Values in the whole document. */
  readonly total: number;
}

/** Longest prelude (directives and `---`) repeated before each entry parsed alone. */
const MAX_PRELUDE = 1024;

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

function isBreakOrEnd(c: number): boolean {
  return Number.isNaN(c) || c === LF || c === CR;
}

/**
 * `keep`: entries whose start, line and values are kept (the reader parses MAX_ENTRIES of them
 * and names the line of the next): 800,000 one-line entries fit in 8 MiB, and three arrays of
 * that length were the largest part of reading such a file. All are still counted.
 */
export function scanYaml(text: string, keep = Number.POSITIVE_INFINITY): YamlScan {
  const starts: number[] = [];
  const lines: number[] = [];
  const values: number[] = [];
  let entries = 0;
  let split = true;
  let prelude = "";
  let total = 0;
  let current = 0; // values since the last start
  let line = 1;
  let flow = 0; // depth of open flow collections
  let blockScalarIndent = -1; // lines indented more than this belong to a block scalar
  const n = text.length;
  let i = 0;
  const count = (): void => {
    total++;
    current++;
  };
  while (i < n) {
    // At the start of a line.
    let indent = 0;
    while (i + indent < n && text.charCodeAt(i + indent) === SPACE) indent++;
    const first = text.charCodeAt(i + indent);
    const blankLine = isBreakOrEnd(first) || (first === TAB && lineIsBlank(text, i + indent));
    if (blockScalarIndent >= 0) {
      if (blankLine || indent > blockScalarIndent) {
        i = nextLine(text, i);
        line++;
        continue;
      }
      blockScalarIndent = -1;
    }
    if (blankLine) {
      i = nextLine(text, i);
      line++;
      continue;
    }
    if (indent === 0) {
      if (first === 0x2d /* - */ && isItemIndicator(text, i)) {
        // "- " cannot begin a plain scalar, so a line starting with it ends any flow
        // collection left open (which the parser will call an error).
        flow = 0;
        if (text.startsWith("---", i) && isBreakOrEndOrBlank(text.charCodeAt(i + 3))) {
          // Only a bare "---" (or one with a comment) is a prelude; "--- &a" or "--- [x]" carry
          // content, and a "---" after entries starts another document.
          const rest = text.slice(i + 3, endOfLine(text, i)).trim();
          if (entries > 0 || (rest !== "" && !rest.startsWith("#"))) split = false;
          else if (prelude.length + 4 <= MAX_PRELUDE) prelude += "---\n";
          else split = false;
          i = nextLine(text, i);
          line++;
          continue;
        }
        entries++;
        if (entries <= keep) {
          starts.push(i);
          lines.push(line);
        }
        // Content before the first entry (not a comment, directive or "---") is not a catalog.
        if (entries > 1) {
          if (entries - 1 <= keep) values.push(current);
        } else if (current > 0) split = false;
        current = 0;
      } else if (first === 0x25 /* % */ && entries === 0) {
        const end = nextLine(text, i);
        const directive = text.slice(i, end).trimEnd();
        if (prelude.length + directive.length + 1 <= MAX_PRELUDE) prelude += `${directive}\n`;
        else split = false;
        i = end;
        line++;
        continue;
      } else if (first !== 0x23 /* # */ && flow === 0) {
        split = false;
      }
    }
    // The rest of the line: structure outside quotes and comments.
    let j = i + indent;
    let valueStart = true;
    let counted = false;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === LF || c === CR) break;
      if (isBlank(c)) {
        j++;
        continue;
      }
      if (c === 0x23 /* # */) {
        j = endOfLine(text, j);
        break;
      }
      if (!counted) {
        count();
        counted = true;
      }
      if (valueStart && (c === 0x22 || c === 0x27) /* " ' */) {
        const end = endOfQuoted(text, j);
        line += newlinesIn(text, j, end);
        j = end;
        valueStart = false;
        continue;
      }
      if (flow === 0 && valueStart && (c === 0x7c || c === 0x3e) /* | > */) {
        blockScalarIndent = indent;
        j = endOfLine(text, j);
        break;
      }
      if (c === 0x5b || c === 0x7b /* [ { */) {
        if (valueStart || flow > 0) {
          flow++;
          count();
          valueStart = true;
          j++;
          continue;
        }
      } else if ((c === 0x5d || c === 0x7d) /* ] } */ && flow > 0) {
        flow--;
        valueStart = false;
        j++;
        continue;
      } else if (c === 0x2c /* , */ && flow > 0) {
        count();
        valueStart = true;
        j++;
        continue;
      } else if (
        (c === 0x2d /* - */ || c === 0x3f /* ? */ || c === 0x3a) /* : */ &&
        (isBreakOrEndOrBlank(text.charCodeAt(j + 1)) || (c === 0x3a && flow > 0))
      ) {
        if (c === 0x3a || valueStart) {
          count();
          valueStart = true;
          j++;
          continue;
        }
      }
      // A plain scalar's character: the value has begun.
      valueStart = false;
      j++;
      // Inside a plain scalar, `#` starts a comment only after a blank.
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === LF || d === CR || d === 0x3a || d === 0x2c || d === 0x5d || d === 0x7d) break;
        if (isBlank(d)) break;
        j++;
      }
    }
    i = nextLine(text, j);
    line++;
  }
  if (entries > 0 && entries <= keep) values.push(current);
  return {
    starts: split && starts.length > 0 ? starts : null,
    lines,
    values,
    prelude,
    total,
  };
}

function isItemIndicator(text: string, i: number): boolean {
  return isBreakOrEndOrBlank(text.charCodeAt(i + 1)) || text.startsWith("---", i);
}

function isBreakOrEndOrBlank(c: number): boolean {
  return isBreakOrEnd(c) || isBlank(c);
}

function lineIsBlank(text: string, i: number): boolean {
  let j = i;
  while (j < text.length && isBlank(text.charCodeAt(j))) j++;
  return j >= text.length || isBreakOrEnd(text.charCodeAt(j));
}

function endOfLine(text: string, i: number): number {
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === LF || c === CR) break;
    j++;
  }
  return j;
}

/** Index after the line break ending the line at `i` (CRLF, CR or LF). */
function nextLine(text: string, i: number): number {
  const j = endOfLine(text, i);
  if (j >= text.length) return text.length;
  return text.charCodeAt(j) === CR && text.charCodeAt(j + 1) === LF ? j + 2 : j + 1;
}

/** Index after the closing quote of the quoted scalar opening at `i` (or the end of the text). */
function endOfQuoted(text: string, i: number): number {
  const quote = text.charCodeAt(i);
  let j = i + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (quote === 0x22 && c === 0x5c /* \ */) {
      j += 2;
      continue;
    }
    if (c === quote) {
      if (quote === 0x27 && text.charCodeAt(j + 1) === 0x27) {
        j += 2;
        continue;
      }
      return j + 1;
    }
    j++;
  }
  return text.length;
}

function newlinesIn(text: string, from: number, to: number): number {
  let lines = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === LF) lines++;
    else if (c === CR && text.charCodeAt(k + 1) !== LF) lines++;
  }
  return lines;
}
