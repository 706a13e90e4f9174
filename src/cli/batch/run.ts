/**
 * A whole `heed check --batch` run: the input read in chunks of whole lines, each chunk
 * answered on the main thread or shared with worker threads (`--jobs`), and the answers
 * written in input order. Memory stays flat: at most one chunk is answered while the one
 * before it is written.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { readError } from "../read-error.js";
import { CliError } from "../errors.js";
import type { Io, LineWriter } from "../io.js";
import { MAX_QUERY_LINE_BYTES } from "../query-lines.js";
import {
  BatchAnswerer,
  type BatchResult,
  type BatchSettings,
  WRITER_OUTPUT_BYTES,
} from "./answerer.js";
import { type BatchChunk, batchChunks, countLines, CR, LF } from "./input.js";

export type { BatchSettings } from "./answerer.js";

// The input is read this much at a time.
const PIECE_BYTES = 1024 * 1024;
const WORKERS_FROM_CORES = 4;
// A batch file this large is shared with workers; a small one is answered before they start.
const WORKERS_FROM_BYTES = 1024 * 1024;

export async function runBatch(
  file: string,
  jobs: string | undefined,
  settings: BatchSettings,
  io: Io,
  out: LineWriter,
  tally: { disallowed: number; errors: number },
): Promise<void> {
  const workers = workerCount(jobs, file);
  const input = openInput(file, io);
  // `--batch -` reads the batch from standard input: a robots.txt cannot come from it too.
  const main = mainThread(
    new BatchAnswerer(
      settings,
      file === "-" ? null : io.stdin,
      MAX_QUERY_LINE_BYTES,
      WRITER_OUTPUT_BYTES,
    ),
  );
  const pool = workers === 0 ? null : new BatchPool(workers, settings);
  const emit = async (results: readonly Answered[]): Promise<void> => {
    for (let { part, result } of results) {
      for (;;) {
        tally.disallowed += result.disallowed;
        tally.errors += result.errors;
        const { bytes } = result;
        await out.addBytes(bytes, () => main.recycle(bytes));
        await out.ready();
        if (result.restAt === undefined) break;
        // The answers of this run of lines grew past their bound: the rest of its lines are
        // answered here, after those, a bounded piece at a time.
        part = {
          bytes: part.bytes.subarray(result.restAt),
          firstLine: result.restLine ?? part.firstLine,
          tooLong: false,
        };
        result = await main.answer(part);
      }
    }
  };
  // From standard input the batch may come a line at a time from a program that waits for
  // each answer (a co-process): what was read is answered and written before more is read.
  const asItComes = file === "-";
  // One chunk in flight: the next chunk's share goes to the workers before this chunk's
  // answers are awaited and written, so that neither side waits for the other each chunk.
  let previous: Promise<Answered[]> | null = null;
  try {
    for await (const chunk of batchChunks(input)) {
      const current =
        pool === null
          ? main.answer(chunk).then((result) => [{ part: chunk, result }])
          : pool.answer(chunk, main);
      // Awaited below, after the chunk before it is written: a worker that fails meanwhile
      // must end the run through that await, not as a rejection nobody handles.
      current.catch(() => {});
      if (previous !== null) await emit(await previous);
      previous = current;
      if (asItComes) {
        await emit(await current);
        previous = null;
        await out.flush();
      }
    }
    if (previous !== null) await emit(await previous);
  } finally {
    await pool?.close();
  }
}

/** What answers a run of lines on the main thread. */
interface MainThread {
  answer(chunk: BatchChunk): Promise<BatchResult>;
  /** Answers written out and done with: memory for later answers (BatchAnswerer.recycle). */
  recycle(bytes: Uint8Array): void;
}

/**
 * The main thread's answerer, one run of lines at a time: a robots.txt named by URL is then
 * fetched by the first line that names it and found in the cache by the next, never fetched
 * twice at once by two runs in flight (the next chunk's, or a chunk's rest).
 */
function mainThread(answerer: BatchAnswerer): MainThread {
  let last: Promise<unknown> = Promise.resolve();
  return {
    answer(chunk: BatchChunk): Promise<BatchResult> {
      const next = last.then(
        () => answerer.answer(chunk),
        () => answerer.answer(chunk),
      );
      last = next.catch(() => {});
      return next;
    },
    recycle: (bytes) => answerer.recycle(bytes),
  };
}

/** The batch input: a file read in large pieces with blocking calls, or standard input. */
function openInput(
  file: string,
  io: Io,
): AsyncIterable<Uint8Array | string> | Iterable<Uint8Array> {
  if (file === "-") {
    refuseOwnOutput(fdOf(io.stdin), io, "standard input");
    return io.stdin as AsyncIterable<Uint8Array | string>;
  }
  // A folder opens without error and fails only on the first read: refuse it here.
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory() === true)
    throw new CliError(`cannot read ${file}: it is a folder, not a file of queries`);
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  }
  try {
    refuseOwnOutput(fd, io, file);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return readPieces(file, fd);
}

/**
 * `heed check --batch b.tsv >> b.tsv`: the answers, written as the input is read, would be
 * read as more input, and the file would grow until the disk is full.
 */
function refuseOwnOutput(fd: number | null, io: Io, name: string): void {
  const out = fdOf(io.stdout);
  if (fd === null || out === null) return;
  const input = fstatSync(fd);
  const output = fstatSync(out);
  if (input.isFile() && input.dev === output.dev && input.ino === output.ino)
    throw new CliError(
      `cannot read ${name}: it is also the standard output, where the answers go; write them to another file`,
    );
}

/** The file descriptor of a process stream (`process.stdout.fd`); null for other streams. */
function fdOf(stream: unknown): number | null {
  const fd = (stream as { fd?: unknown }).fd;
  return typeof fd === "number" ? fd : null;
}

function* readPieces(file: string, fd: number): Generator<Uint8Array> {
  try {
    for (;;) {
      // A new buffer each time: a chunk of it may still be answered while the next is read.
      const piece = Buffer.allocUnsafe(PIECE_BYTES);
      let n: number;
      try {
        n = readSync(fd, piece, 0, PIECE_BYTES, null);
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
      }
      if (n === 0) return;
      yield piece.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

function workerCount(jobs: string | undefined, file: string): number {
  if (jobs !== undefined) {
    // Digits only: Number() also takes "", " 2", "0x2" and "1e1".
    const n = /^[0-9]{1,2}$/.test(jobs) ? Number(jobs) : NaN;
    if (!Number.isInteger(n) || n < 0 || n > 64) {
      throw new CliError(`--jobs: expected a whole number from 0 to 64, got "${jobs}"`);
    }
    return n;
  }
  if (file === "-") return 0;
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // Missing or unreadable: openInput says so.
  }
  // On two cores a worker thread competes with the main thread and the collector's helpers,
  // and each thread warms up its own compiled code: no faster. From four cores on, workers.
  const cores = availableParallelism();
  return size >= WORKERS_FROM_BYTES && cores >= WORKERS_FROM_CORES ? Math.min(4, cores - 1) : 0;
}

/** A run of lines and what answering it came to. */
interface Answered {
  readonly part: BatchChunk;
  readonly result: BatchResult;
}

/** A chunk as a worker gets it: its own copy of the bytes, moved, not cloned. */
interface ChunkMessage {
  readonly bytes: Uint8Array;
  readonly firstLine: number;
  readonly tooLong: boolean;
}

// A thread is given at least this much of a chunk (a few hundred lines): a worker costs tens
// of milliseconds to start and warm, and a one-line batch with --jobs 64 starts none. Bytes,
// not lines: the chunk is not scanned an extra time to count them.
const BYTES_PER_THREAD = 16 * 1024;

/** A worker's answers still to come, in the order its runs were sent. */
interface Pending {
  readonly resolve: (result: BatchResult) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Batch workers. Each chunk is cut into contiguous runs of lines, one per worker and one for
 * the main thread, so that a file's lines, which mostly come together, are read and parsed by
 * one thread; the answers come back as bytes and are written in order. Workers are started as
 * chunks have lines to share, up to the number asked for. A worker that fails or stops ends
 * the run with an error (exit 2); its answers are not waited for.
 */
class BatchPool {
  private readonly workers: Worker[] = [];
  private readonly waiting: Pending[][] = [];
  private failure: CliError | null = null;
  private closing = false;

  constructor(
    private readonly most: number,
    private readonly settings: BatchSettings,
  ) {}

  async answer(chunk: BatchChunk, main: MainThread): Promise<Answered[]> {
    // Standard input is the main thread's alone, and a robots.txt named by URL is fetched
    // once a run, by the main thread: a chunk with a line naming either is answered there
    // whole, so that --jobs gives the answers --jobs 0 gives, from one fetch of each URL.
    const share = chunk.tooLong || namesMainOnly(chunk.bytes) ? 0 : chunk.bytes.length;
    const threads = Math.min(this.most + 1, Math.floor(share / BYTES_PER_THREAD));
    if (threads <= 1) return [{ part: chunk, result: await main.answer(chunk) }];
    if (this.failure !== null) throw this.failure;
    while (this.workers.length < threads - 1) this.start();
    const parts = cut(chunk, threads);
    const asked = parts.map((part, k) =>
      k === parts.length - 1 ? main.answer(part) : this.ask(k, part),
    );
    const results = await Promise.all(asked);
    return results.map((result, k) => ({ part: parts[k] as BatchChunk, result }));
  }

  private start(): void {
    const worker = new Worker(new URL("./worker.js", import.meta.url), {
      workerData: this.settings,
    });
    const queue: Pending[] = [];
    worker.on("message", (result: BatchResult) => queue.shift()?.resolve(result));
    worker.on("error", (error) => this.fail(`a --jobs worker thread failed: ${error.message}`));
    worker.on("exit", (code) => {
      if (!this.closing) this.fail(`a --jobs worker thread stopped (exit code ${code})`);
    });
    this.workers.push(worker);
    this.waiting.push(queue);
  }

  /** The first failure ends the run: every answer still awaited from any worker fails with it. */
  private fail(message: string): void {
    this.failure ??= new CliError(`${message}; no more answers can be given`);
    const failure = this.failure;
    for (const queue of this.waiting)
      for (const pending of queue.splice(0)) pending.reject(failure);
  }

  private ask(k: number, part: BatchChunk): Promise<BatchResult> {
    // A copy (Uint8Array's slice; Buffer's shares memory): moving the piece itself would
    // take it from the main thread's own run.
    const message: ChunkMessage = { ...part, bytes: Uint8Array.prototype.slice.call(part.bytes) };
    return new Promise((resolve, reject) => {
      if (this.failure !== null) {
        reject(this.failure);
        return;
      }
      (this.waiting[k] as Pending[]).push({ resolve, reject });
      (this.workers[k] as Worker).postMessage(message, [message.bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** `chunk` cut into `n` runs of whole lines of about equal size (some may be empty). */
function cut(chunk: BatchChunk, n: number): BatchChunk[] {
  const { bytes } = chunk;
  const parts: BatchChunk[] = [];
  let start = 0;
  let line = chunk.firstLine;
  for (let k = 1; k <= n; k++) {
    const end =
      k === n ? bytes.length : endOfLineAt(bytes, Math.floor((bytes.length * k) / n), start);
    const part = bytes.subarray(start, end);
    parts.push({ bytes: part, firstLine: line, tooLong: false });
    line += countLines(part);
    start = end;
  }
  return parts;
}

/** Just past the end of the line that holds `bytes[at]` (a `\r\n` kept whole), no sooner than `from`. */
function endOfLineAt(bytes: Uint8Array, at: number, from: number): number {
  const i = Math.max(at, from);
  const lf = bytes.indexOf(LF, i);
  const cr = bytes.indexOf(CR, i);
  const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  if (end < 0) return bytes.length;
  return bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1;
}

/** Does a line of `bytes` name `-` (standard input) or a URL as its robots.txt? */
function namesMainOnly(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer[0] === DASH && buffer[1] === TAB) return true;
  if (buffer.indexOf(STDIN_AFTER_LF) >= 0 || buffer.indexOf(STDIN_AFTER_CR) >= 0) return true;
  return namesUrl(buffer);
}

/**
 * Does a line's robots-file field name an http(s) URL, which is fetched (robots-source.ts
 * isUrl)? Such a field starts its line: a few searches of the chunk for a line start followed
 * by `h` or `H` find every candidate, and most batches, of local files, have none.
 */
function namesUrl(buffer: Buffer): boolean {
  if (isUrlAt(buffer, 0)) return true;
  for (const lead of URL_LEADS)
    for (let at = buffer.indexOf(lead); at >= 0; at = buffer.indexOf(lead, at + lead.length))
      if (isUrlAt(buffer, at + 1)) return true;
  return false;
}

function isUrlAt(buffer: Buffer, at: number): boolean {
  const head = buffer.toString("latin1", at, at + HTTPS.length).toLowerCase();
  return head.startsWith(HTTP) || head === HTTPS;
}

const DASH = 0x2d;
const TAB = 0x09;
const STDIN_AFTER_LF = Buffer.from("\n-\t");
const STDIN_AFTER_CR = Buffer.from("\r-\t");
const HTTP = "http://";
const HTTPS = "https://";
const URL_LEADS = ["\nh", "\nH", "\rh", "\rH"].map((lead) => Buffer.from(lead));
