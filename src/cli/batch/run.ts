/**
 * A whole `heed check --batch` run: the input read in chunks of whole lines, each chunk
 * answered on the main thread or shared with worker threads (`--jobs`), and the answers
 * written in input order. Memory stays flat: at most one chunk is answered while the one
 * before it is written.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
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
import { type BatchChunk, batchChunks } from "./input.js";
import type { Answered, BatchPool, MainThread } from "./pool.js";

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
  // The main thread is the batch's critical path: V8's compiler must not take its core.
  io.lowerHelperThreads?.();
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
  const pool = workers === 0 ? null : new (await poolModule()).BatchPool(workers, settings);
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

/**
 * pool.ts, loaded when a batch uses threads: an install without it ends the run as one
 * without the worker's file does, with a clear error (exit 2), not as an internal error.
 */
async function poolModule(): Promise<{ readonly BatchPool: typeof BatchPool }> {
  try {
    return await import("./pool.js");
  } catch (error) {
    throw new CliError(`--jobs: cannot load the worker pool: ${(error as Error).message}`, 2, {
      cause: error,
    });
  }
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
  return defaultWorkers(size);
}

/**
 * The worker threads a batch file of `size` bytes gets without `--jobs`, on this machine. The
 * bench says so beside its figures, which otherwise compare threads with one thread.
 */
export function defaultWorkers(size: number): number {
  // On two cores a worker thread competes with the main thread and the collector's helpers,
  // and each thread warms up its own compiled code: no faster. From four cores on, workers.
  const cores = availableParallelism();
  return size >= WORKERS_FROM_BYTES && cores >= WORKERS_FROM_CORES ? Math.min(4, cores - 1) : 0;
}
