/**
 * `heed check --batch --jobs`: worker threads that answer runs of a chunk's lines beside the
 * main thread. Loaded only when a batch uses them: a batch on two cores, as most, does not.
 */
import { Worker } from "node:worker_threads";
import { CliError } from "../errors.js";
import type { BatchResult, BatchSettings } from "./answerer.js";
import { type BatchChunk, countLines, CR, LF } from "./input.js";

/** What answers a run of lines on the main thread. */
export interface MainThread {
  answer(chunk: BatchChunk): Promise<BatchResult>;
  /** Answers written out and done with: memory for later answers (BatchAnswerer.recycle). */
  recycle(bytes: Uint8Array): void;
}

/** A run of lines and what answering it came to. */
export interface Answered {
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
export class BatchPool {
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
