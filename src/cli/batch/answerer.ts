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
import type { JsonFields } from "../choices.js";
import type { Decision } from "../../protocol/robots/decision.js";
import type { DialectChoice } from "../../protocol/robots/dialect.js";
import type { Robot } from "../../protocol/robots/policy.js";
import {
  type Answer,
  askLine,
  compile,
  defaultsOrNull,
  failed,
  quoted,
  type Rules,
  sources,
  tooLong,
  toText,
  writeJson,
  writeJsonContractEnd,
  writeJsonEnd,
} from "../check-answer.js";
import { type PathSpan, plainPathSpan } from "../../protocol/robots/request-path.js";
import { CliError } from "../errors.js";
import { latin1, LineBytes } from "../line-bytes.js";
import { MAX_QUERY_LINE_BYTES } from "../query-lines.js";
import { readAll } from "../read-stream.js";
import { AnswerHeads } from "./answer-heads.js";
import { DecisionMiddles } from "./decision-middles.js";
import { afterEnd, type BatchChunk, CR, LF, LineEnds } from "./input.js";
import { asciiText, indexOf, isJsonSafe, isLocal, isSkipped, TAB } from "./line-fields.js";
import { READ_BYTES, readBytes } from "./read-local.js";

/** How batch lines are answered; plain data, so that a worker can be given it. */
export interface BatchSettings {
  readonly dialect: DialectChoice;
  readonly defaults: Omit<Robot, "agent">;
  readonly json: boolean;
  /** JSON answers carry the plan under every dialect (`heed check --plan`). */
  readonly plan: boolean;
  /** JSON answers' fields (`heed check --fields`); `contract` when not given. */
  readonly fields?: JsonFields;
}

/** What a chunk came to: one output line per query line, in input order. */
export interface BatchResult {
  readonly bytes: Uint8Array;
  readonly disallowed: number;
  readonly errors: number;
  /**
   * The answers reached their bound (see {@link OUTPUT_BYTES}) before the chunk's end: its lines from this byte
   * offset on, the first of them numbered {@link restLine}, are still to be answered.
   */
  readonly restAt?: number;
  readonly restLine?: number;
}

// The answers of one chunk held at most: a line's answer can be thousands of times the line
// (a group listed on thousands of lines of its robots.txt), and a chunk holds a million lines.
export const OUTPUT_BYTES = 8 * 1024 * 1024;
// On the thread that writes them, answers go out a smaller piece at a time: memory written
// again while the processor still holds it in its cache costs less than fresh memory.
export const WRITER_OUTPUT_BYTES = 1024 * 1024;

// Policies kept while a batch runs: files usually come in runs, and a bound keeps memory flat.
// A parsed policy takes several times its file's bytes, so the bound is on bytes and files.
const CACHE_BYTES = 8 * 1024 * 1024;
const CACHE_FILES = 64;
// Robot names the quick path keeps, for lines that take turns among a few.
const AGENTS_KEPT = 8;

// Output memory kept for reuse: a chunk is answered while the one before is written.
const SPARES_KEPT = 2;

// Names of files answered before remembered, for the cache to keep those named again; and
// their characters: a name may be 64 KiB long, and 4096 of those are 256 MiB.
const NAMED_KEPT = 4096;
const NAMED_CHARS_KEPT = 1024 * 1024;

export class BatchAnswerer {
  private readonly cache = new Map<string, Rules | string>();
  private cachedBytes = 0;
  private readonly defaults: Omit<Robot, "agent"> | null;
  private readonly heads: AnswerHeads;
  private readonly middles: DecisionMiddles;
  private readonly fields: JsonFields;
  private outputSize = 64 * 1024;
  // The robots-file field of the last line: most batches name one file on many lines in a row.
  private lastFile = "";
  private lastRules: Rules | string | null = null;
  // The robots the last quick lines asked as: a batch asks as a few, and a policy knows the
  // robot it was last asked about by its string, and the answer heads are kept by it.
  private readonly agents: string[] = [];
  private nextAgent = 0;
  private stdinRules: Promise<Rules | string> | null = null;
  /**
   * Local files answered before, in a run of lines now over. A file's rules are kept in the
   * cache from its second run on: a batch names most files in one run each, and keeping their
   * policies alive while later files are parsed makes the collector copy each one, move it to
   * the old generation and mark it dead there, which cost more than all the reading it saved.
   */
  private readonly named = new Set<string>();
  private namedChars = 0;
  private readonly spares: ArrayBuffer[] = [];
  private readonly span: PathSpan = { start: 0, end: 0 };

  constructor(
    private readonly settings: BatchSettings,
    private readonly stdin: NodeJS.ReadableStream | null,
    /** The longest line answered, its end not counted; batchChunks must be given the same. */
    private readonly maxLineBytes: number = MAX_QUERY_LINE_BYTES,
    /** The answers held before a chunk's answer stops short (see {@link BatchResult.restAt}). */
    private readonly outputBytes: number = OUTPUT_BYTES,
  ) {
    this.defaults = defaultsOrNull(settings.defaults);
    this.heads = new AnswerHeads(settings.json);
    this.fields = settings.fields ?? "contract";
    this.middles = new DecisionMiddles(settings.json, this.fields);
  }

  /** The characters of the file names remembered as answered before (see {@link named}). */
  get keptNameChars(): number {
    return this.namedChars;
  }

  /** `bytes`, answers written out and done with: the memory for later answers. */
  recycle(bytes: Uint8Array): void {
    if (this.spares.length < SPARES_KEPT && bytes.buffer.byteLength >= this.outputSize)
      this.spares.push(bytes.buffer as ArrayBuffer);
  }

  async answer(chunk: BatchChunk): Promise<BatchResult> {
    // A chunk of one carried line, which comes between chunks of a whole piece each, needs
    // little: it must not take the memory kept for those.
    const small = chunk.bytes.length * 8 + 4096 < this.outputSize;
    const out = small
      ? new LineBytes(chunk.bytes.length * 8 + 4096)
      : new LineBytes(this.outputSize, this.spares.pop());
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
        if (out.size >= this.outputBytes && start < bytes.length) {
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
    const agent = this.agentAt(bytes, tab + 1, tab2);
    if (agent === null) return false;
    const policy = rules.policy;
    const span = this.span;
    let decision: Decision;
    if (
      policy.regp === null &&
      policy.origin === null &&
      plainPathSpan(bytes, tab2 + 1, end, span) &&
      isJsonSafe(bytes, span.end, end)
    ) {
      // A plain URL, as most are: its request path was found in the same pass as its check.
      // The path is a string of its own, not a slice of the URL's: the rules read it a
      // character at a time, and a slice is slower to read so.
      const path = span.start === span.end ? "/" : latin1(bytes, span.start, span.end);
      decision = policy.checkRequestPath(path, agent);
    } else {
      // A third tab (an IP field) is no printable ASCII: such a line is not one for here.
      const url = asciiText(bytes, tab2 + 1, end);
      if (url === null) return false;
      decision = policy.check(url, agent);
    }
    if (decision.error !== undefined) return false;
    // The URL, printable ASCII with nothing to escape, is written from the line's own bytes.
    this.writeQuick(out, rules, decision, agent, bytes, tab2 + 1, end, number);
    if (!decision.allowed) tally.disallowed++;
    return true;
  }

  /**
   * The line {@link writeJson} or {@link toText} would write: its head and middle made once
   * and kept as bytes, and the URL, `line[urlStart, urlEnd)`, as it is.
   */
  private writeQuick(
    out: LineBytes,
    rules: Rules,
    decision: Decision,
    agent: string,
    line: Uint8Array,
    urlStart: number,
    urlEnd: number,
    number: number,
  ): void {
    out.piece(this.heads.of(agent, decision.allowed));
    out.span(line, urlStart, urlEnd);
    this.middles.write(out, rules, this.lastFile, decision);
    if (this.settings.json && this.fields === "contract") {
      writeJsonContractEnd(out, decision, this.settings.plan);
    } else if (this.settings.json) {
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

  /** The agent field `bytes[start, end)` as text, a recent one's string when it is the same; null when not plain ASCII. */
  private agentAt(bytes: Buffer, start: number, end: number): string | null {
    const agents = this.agents;
    for (let k = 0; k < agents.length; k++) {
      const agent = agents[k] as string;
      if (sameText(agent, bytes, start, end)) return agent;
    }
    const agent = asciiText(bytes, start, end);
    if (agent !== null) {
      agents[this.nextAgent] = agent;
      this.nextAgent = (this.nextAgent + 1) % AGENTS_KEPT;
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
    } else if (this.lastRules !== null && file === this.lastFile) {
      // A line of the run of lines the quick path is answering: the file as read for the run,
      // not read again (a co-process may have changed it on disk since).
      rules = this.lastRules;
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
    if (this.settings.json) writeJson(out, answer, this.settings.plan, this.fields);
    else out.text(toText(answer));
    out.end();
  }

  /** Is `bytes[start, end)` the robots-file field of the last line answered quickly? */
  private sameFile(bytes: Uint8Array, start: number, end: number): boolean {
    return this.lastRules !== null && sameText(this.lastFile, bytes, start, end);
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
    if (this.named.size >= NAMED_KEPT || this.namedChars >= NAMED_CHARS_KEPT) {
      this.named.clear();
      this.namedChars = 0;
    }
    if (!this.named.has(this.lastFile)) {
      this.named.add(this.lastFile);
      this.namedChars += this.lastFile.length;
    }
    this.lastFile = file;
    this.lastRules = rules;
    return rules;
  }

  /** A local file read (read-local.ts) and parsed, or why it could not be. */
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

/** Is `bytes[start, end)` the ASCII text `text`? */
function sameText(text: string, bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[start + i] !== text.charCodeAt(i)) return false;
  return true;
}
