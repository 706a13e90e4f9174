/**
 * A `heed check --batch` worker thread: answers the share of each chunk of batch lines that
 * the main thread gives it (check.ts's BatchPool), reading and parsing its robots.txt files
 * while the main thread answers its own share. Messages in: packed query lines; out: one
 * BatchResult per message, in order.
 */
import { parentPort, workerData } from "node:worker_threads";
import { BatchAnswerer, type BatchSettings } from "./commands/check.js";
import { type PackedLines, unpackLines } from "./query-lines.js";

const port = parentPort;
if (port === null) throw new Error("batch-worker.js runs as a worker thread of heed check");
const answerer = new BatchAnswerer(workerData as BatchSettings, null);
// One message at a time, so that answers go back in the order the lines came.
let queue = Promise.resolve();
port.on("message", (packed: PackedLines) => {
  queue = queue.then(async () => {
    const result = await answerer.answer(unpackLines(packed));
    // The output bytes move to the main thread; they are not copied.
    const { bytes, ends } = result.lines;
    port.postMessage(result, [bytes.buffer as ArrayBuffer, ends.buffer as ArrayBuffer]);
  });
});
