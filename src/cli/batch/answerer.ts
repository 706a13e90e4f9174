/**
 * Answers `heed check --batch` lines, `robots-file<TAB>agent<TAB>url[<TAB>ip[<TAB>time]]`, a
 * chunk of input bytes at a time, into output bytes. Each robots.txt is read and parsed once
 * while its lines come (a small cache keeps the files of recent lines). The common line is
 * answered without making a string of the line: its fields are found in place, the file is
 * known by its bytes, the agent and URL are read as the ASCII they are, and the part of the
 * answer its decision says is written once per file and kept (decision-middles.ts). Any other
 * line takes the path `--queries` takes; both write the same text (the batch tests hold them
 * to it).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { Decision } from "../../protocol/robots/decision.js";
import type { DialectChoice } from "../../protocol/robots/dialect.js";
import { MAX_ROBOTS_BYTES } from "../../protocol/robots/limits.js";
import type { Robot } from "../../protocol/robots/policy.js";
import {
  type Answer,
  askLine,
  compile,
  defaultsOrNull,
  failed,
  quoted,
  readError,
  type Rules,
  sources,
  tooLong,
  toText,
  writeJson,
  writeJsonEnd,
} from "../check-answer.js";
import { CliError } from "../errors.js";
import { latin1, LineBytes } from "../line-bytes.js";
import { MAX_QUERY_LINE_BYTES } from "../query-lines.js";
import { readAll } from "../read-stream.js";
import { AnswerHeads } from "./answer-heads.js";
import { DecisionMiddles } from "./decision-middles.js";
import { afterEnd, type BatchChunk, CR, LF, LineEnds } from "./input.js";
import { PieceSlab } from "./piece-slab.js";

/** How batch lines are answered; plain data, so that a worker can be given it. */
export interface BatchSettings {
  readonly dialect: DialectChoice;
  readonly defaults: Omit<Robot, "agent">;
  readonly json: boolean;
  /** JSON answers carry the plan under every dialect (`heed check --plan`). */
  readonly plan: boolean;
}

/** What a chunk came to: one output line per query line, in input order. */
export interface BatchResult {
  readonly bytes: Uint8Array;
  readonly disallowed: number;
  readonly errors: number;
  /**
   * The answers reached {@link OUTPUT_BYTES} before the chunk's end: its lines from this byte
   * offset on, the first of them numbered {@link restLine}, are still to be answered.
   */
  readonly restAt?: number;
  readonly restLine?: number;
}

// The answers of one chunk held at most: a line's answer can be thousands of times the line
// (a group listed on thousands of lines of its robots.txt), and a chunk holds a million lines.
export const OUTPUT_BYTES = 8 * 1024 * 1024;

// Policies kept while a batch runs: files usually come in runs, and a bound keeps memory flat.
// A parsed policy takes several times its file's bytes, so the bound is on bytes and files.
const CACHE_BYTES = 8 * 1024 * 1024;
const CACHE_FILES = 64;
// Names of files answered before remembered, for the cache to keep those named again.
const NAMED_KEPT = 4096;

const TAB = 0x09;

export class BatchAnswerer {
  private readonly cache = new Map<string, Rules | string>();
  private cachedBytes = 0;
  private readonly defaults: Omit<Robot, "agent"> | null;
  private readonly heads: AnswerHeads;
  private readonly middles: DecisionMiddles;
  private outputSize = 64 * 1024;
  // The robots-file field of the last line, as bytes and as read: most batches name one
  // file on many lines in a row.
  private lastField: Uint8Array = new Uint8Array(0);
  private lastFile = "";
  private lastRules: Rules | string | null = null;
  // The agent field of the last quick line, as bytes and as read: a file's lines mostly ask
  // as one robot, and the policy knows that robot by the string it was last given.
  private lastAgentField: Uint8Array = new Uint8Array(0);
  private lastAgent = "";
  private stdinRules: Promise<Rules | string> | null = null;
  /**
   * Local files answered before, in a run of lines now over. A file's rules are kept in the
   * cache from its second run on: a batch names most files in one run each, and keeping their
   * policies alive while later files are parsed makes the collector copy each one, move it to
   * the old generation and mark it dead there, which cost more than all the reading it saved.
   */
  private readonly named = new Set<string>();

  constructor(
    private readonly settings: BatchSettings,
    private readonly stdin: NodeJS.ReadableStream | null,
    /** The longest line answered, its end not counted; batchChunks must be given the same. */
    private readonly maxLineBytes: number = MAX_QUERY_LINE_BYTES,
  ) {
    this.defaults = defaultsOrNull(settings.defaults);
    const slab = new PieceSlab();
    this.heads = new AnswerHeads(settings.json, slab);
    this.middles = new DecisionMiddles(settings.json, slab);
  }

  async answer(chunk: BatchChunk): Promise<BatchResult> {
    const out = new LineBytes(this.outputSize);
    // Fields are read with Buffer's decoders; a chunk from a worker message is a plain array.
    const bytes = asBuffer(chunk.bytes);
    const tally = { disallowed: 0, errors: 0 };
    let rest: { restAt: number; restLine: number } | null = null;
    if (chunk.tooLong) {
      this.write(
        out,
        failed(null, "", "", tooLong(), undefined, { input: chunk.firstLine }),
        tally,
      );
    } else {
      // Most input has no CR: its lines end at each LF.
      const ends = bytes.indexOf(CR) >= 0 ? new LineEnds(bytes) : null;
      let number = chunk.firstLine;
      let start = 0;
      while (start < bytes.length) {
        let end = ends === null ? bytes.indexOf(LF, start) : ends.next(start);
        if (end < 0) end = bytes.length;
        if (end - start > this.maxLineBytes) {
          this.write(out, failed(null, "", "", tooLong(), undefined, { input: number }), tally);
        } else if (!isSkipped(bytes, start, end)) {
          const answered = this.quick(out, bytes, start, end, number, tally);
          if (!answered) await this.slow(out, bytes, start, end, number, tally);
        }
        number++;
        start = ends === null ? end + 1 : afterEnd(bytes, end);
        if (out.size >= OUTPUT_BYTES && start < bytes.length) {
          rest = { restAt: start, restLine: number };
          break;
        }
      }
    }
    const written = out.take();
    // Never smaller: a chunk of one carried line comes between chunks of a whole piece each.
    this.outputSize = Math.max(this.outputSize, written.length + (written.length >> 3));
    return rest === null ? { bytes: written, ...tally } : { bytes: written, ...tally, ...rest };
  }

  /**
   * The common line, `file<TAB>agent<TAB>url` in printable ASCII with a file already read,
   * answered and written in place; false when the line needs {@link slow}.
   */
  private quick(
    out: LineBytes,
    bytes: Buffer,
    start: number,
    end: number,
    number: number,
    tally: { disallowed: number; errors: number },
  ): boolean {
    if (this.defaults !== null) return false;
    const tab = indexOf(bytes, TAB, start, end);
    if (tab < 0) return false;
    const rules = this.sameFile(bytes, start, tab)
      ? this.lastRules
      : this.cachedRules(bytes, start, tab);
    if (rules === null || typeof rules === "string" || rules.siteWide !== null) return false;
    const tab2 = indexOf(bytes, TAB, tab + 1, end);
    // An agent or URL that is empty or starts with a blank is an error, or needs trimming.
    if (tab2 < 0 || (bytes[tab + 1] as number) <= 0x20 || (bytes[tab2 + 1] as number) <= 0x20)
      return false;
    if (indexOf(bytes, TAB, tab2 + 1, end) >= 0) return false;
    const agent = this.agentAt(bytes, tab + 1, tab2);
    const url = asciiText(bytes, tab2 + 1, end);
    if (agent === null || url === null) return false;
    const decision = rules.policy.check(url, agent);
    if (decision.error !== undefined) return false;
    this.writeQuick(out, bytes, rules, decision, agent, tab2 + 1, end, number);
    if (!decision.allowed) tally.disallowed++;
    return true;
  }

  /**
   * The line {@link writeJson} or {@link toText} would write: its head and middle made once
   * and kept as bytes, the URL copied from the input, which is its JSON text as it is.
   */
  private writeQuick(
    out: LineBytes,
    bytes: Uint8Array,
    rules: Rules,
    decision: Decision,
    agent: string,
    urlStart: number,
    urlEnd: number,
    number: number,
  ): void {
    out.piece(this.heads.of(agent, decision.allowed));
    out.slice(bytes, urlStart, urlEnd);
    this.middles.write(out, rules, this.lastFile, decision);
    if (this.settings.json) {
      out.number(number);
      // Most lines end here; a detail, or a plan (--plan, and REGP's always), follows.
      if (this.settings.plan || decision.dialect === "regp" || decision.detail !== undefined) {
        writeJsonEnd(out, { decision, status: undefined, warnings: undefined }, this.settings.plan);
      } else {
        out.text("}");
      }
    }
    out.end();
  }

  /** The agent field `bytes[start, end)` as text, the last one's string when it is the same; null when not plain ASCII. */
  private agentAt(bytes: Buffer, start: number, end: number): string | null {
    const last = this.lastAgentField;
    if (end - start === last.length) {
      let same = true;
      for (let i = 0; i < last.length; i++) {
        if (bytes[start + i] !== last[i]) {
          same = false;
          break;
        }
      }
      if (same) return this.lastAgent;
    }
    const agent = asciiText(bytes, start, end);
    if (agent !== null) {
      this.lastAgentField = Uint8Array.prototype.slice.call(bytes, start, end);
      this.lastAgent = agent;
    }
    return agent;
  }

  /** Any line: made a string and answered as `--queries` answers one. */
  private async slow(
    out: LineBytes,
    bytes: Buffer,
    start: number,
    end: number,
    number: number,
    tally: { disallowed: number; errors: number },
  ): Promise<void> {
    const text = bytes.toString("utf8", start, end);
    const tab = text.indexOf("\t");
    if (tab < 0) {
      const error = `expected robots-file<TAB>agent<TAB>url, got ${quoted(text)}`;
      this.write(out, failed(null, "", "", error, undefined, { input: number }), tally);
      return;
    }
    const file = text.slice(0, tab);
    let rules: Rules | string | undefined;
    if (file === "-") {
      // Standard input can be read once: its robots.txt is kept for the whole run, never
      // dropped from the cache and read again as the empty rest of the stream.
      this.stdinRules ??= this.read(file);
      rules = await this.stdinRules;
    } else {
      rules = this.cache.get(file);
      if (rules === undefined) {
        rules = isLocal(file) ? this.readLocal(file) : await this.read(file);
        this.keep(file, rules);
      }
    }
    const from = { input: number, robots: file };
    this.write(out, askLine(rules, text, tab + 1, this.defaults, from), tally);
  }

  private write(
    out: LineBytes,
    answer: Answer,
    tally: { disallowed: number; errors: number },
  ): void {
    if (answer.decision.error !== undefined) tally.errors++;
    else if (!answer.decision.allowed) tally.disallowed++;
    if (this.settings.json) writeJson(out, answer, this.settings.plan);
    else out.text(toText(answer));
    out.end();
  }

  /** Is `bytes[start, end)` the robots-file field of the last line answered quickly? */
  private sameFile(bytes: Uint8Array, start: number, end: number): boolean {
    const last = this.lastField;
    if (end - start !== last.length || this.lastRules === null) return false;
    for (let i = 0; i < last.length; i++) if (bytes[start + i] !== last[i]) return false;
    return true;
  }

  /** The rules of the local file named by `bytes[start, end)`, read when not in the cache; null for any other field. */
  private cachedRules(bytes: Buffer, start: number, end: number): Rules | string | null {
    const file = asciiText(bytes, start, end);
    if (file === null || !isLocal(file)) return null;
    let rules = this.cache.get(file);
    if (rules === undefined) {
      rules = this.readLocal(file);
      if (this.named.has(file)) this.keep(file, rules);
    } else {
      // Most recently used last.
      this.cache.delete(file);
      this.cache.set(file, rules);
    }
    // The file answered until now is not kept past its run of lines, unless named again later.
    if (this.named.size >= NAMED_KEPT) this.named.clear();
    this.named.add(this.lastFile);
    // A copy (Buffer's slice shares memory): the field must not hold its whole chunk.
    this.lastField = Uint8Array.prototype.slice.call(bytes, start, end);
    this.lastFile = file;
    this.lastRules = rules;
    return rules;
  }

  /**
   * A local file, read with blocking calls: with the file in the page cache, as a batch's
   * files mostly are, the read takes a few microseconds and the promise API's open, read and
   * close cost several times more than parsing a small robots.txt. Threads (--jobs) give the
   * parallelism.
   */
  private readLocal(file: string): Rules | string {
    try {
      return compile(
        { bytes: readBytes(file), origin: null, siteWide: null },
        this.settings.dialect,
      );
    } catch (error) {
      return error instanceof CliError ? error.message : String(error);
    }
  }

  /** `-` and URLs need the network layer; a batch of local files, as most are, does not load it. */
  private async read(file: string): Promise<Rules | string> {
    try {
      if (file === "-") {
        // `--batch -`: the batch itself comes from standard input.
        if (this.stdin === null)
          return "cannot read a robots.txt from standard input: it holds the batch; name a file";
        // Read as a local file is: no further than parsing uses, so that an endless stream
        // (`< /dev/zero`) costs 500 KiB, not all memory, and without the label that gives the
        // one robots.txt of --url and --queries its warnings.
        const bytes = await readAll(this.stdin, READ_BYTES);
        return compile({ bytes, origin: null, siteWide: null }, this.settings.dialect);
      }
      const source = await (
        await sources()
      ).loadRobots(file, { stdin: this.stdin as NodeJS.ReadableStream });
      return compile(source, this.settings.dialect);
    } catch (error) {
      return error instanceof CliError ? error.message : String(error);
    }
  }

  private keep(file: string, rules: Rules | string): void {
    // Two answers of this thread may read one file at once (a chunk's rest is answered while
    // the next chunk waits on a fetch): count its bytes once.
    const before = this.cache.get(file);
    if (before !== undefined) this.cachedBytes -= typeof before === "string" ? 0 : before.bytes;
    this.cache.set(file, rules);
    this.cachedBytes += typeof rules === "string" ? 0 : rules.bytes;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES && this.cache.size <= CACHE_FILES) break;
      this.cache.delete(key);
      this.cachedBytes -= typeof value === "string" ? 0 : value.bytes;
      if (key === this.lastFile) this.lastRules = null;
    }
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A robots-file field naming a local file (not `-`, not a URL). */
function isLocal(file: string): boolean {
  return file !== "-" && !file.includes("://");
}

/** The first `byte` in `bytes[from, to)`, or -1; a line is short, and must not be searched past. */
function indexOf(bytes: Uint8Array, byte: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (bytes[i] === byte) return i;
  return -1;
}

/** `bytes[from, to)` as text when every byte is printable ASCII other than `"` and `\`; else null. */
function asciiText(bytes: Buffer, from: number, to: number): string | null {
  for (let i = from; i < to; i++) {
    const c = bytes[i] as number;
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return null;
  }
  return latin1(bytes, from, to);
}

/** DESIGN §6: blank lines and lines starting with `#` are not query lines. */
function isSkipped(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c === 0x20 || c === 0x09) continue;
    return c === 0x23;
  }
  return true;
}

// A batch reads no more of a robots.txt than parsing uses (RFC 9309 §2.5's 500 KiB) and one
// byte more to know the file was longer: a 1 GB file named in a batch costs 500 KiB, not 1 GB.
const READ_BYTES = MAX_ROBOTS_BYTES + 1;

// Most robots.txt files are small: one read into this buffer, then a copy of what was read,
// so that a kept file holds no spare memory.
const SCRATCH = Buffer.allocUnsafe(16 * 1024);

function notRegular(file: string): CliError {
  return new CliError(`cannot read ${file}: not a regular file`);
}

/** The first {@link READ_BYTES} of a local file, with one open and as few reads as it takes. */
function readBytes(file: string): Uint8Array {
  let fd: number;
  try {
    // Not blocking: a FIFO named in a batch opens at once instead of waiting for a writer
    // that may never come, and its read then fails: it is refused below.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  }
  try {
    let buffer = SCRATCH;
    let got = 0;
    for (;;) {
      if (got === buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 4, READ_BYTES));
        buffer.copy(bigger, 0, 0, got);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, got, buffer.length - got, got);
      got += n;
      if (n === 0 || got === READ_BYTES) break;
    }
    // Nothing read: an empty file, or a FIFO without a writer, which is refused. Asked only
    // then: a batch reads a million files, and most have bytes.
    if (got === 0 && !fstatSync(fd).isFile()) throw notRegular(file);
    return buffer === SCRATCH || buffer.length - got > 4096
      ? Buffer.from(buffer.subarray(0, got))
      : buffer.subarray(0, got);
  } catch (error) {
    if (error instanceof CliError) throw error;
    // A FIFO or terminal: reads at an offset fail on a pipe (ESPIPE), and without blocking
    // one with nothing to read yet says so (EAGAIN).
    const code = (error as { code?: unknown }).code;
    if (code === "ESPIPE" || code === "EAGAIN") throw notRegular(file);
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  } finally {
    closeSync(fd);
  }
}
