/**
 * A `heed check --batch` worker thread: answers the runs of lines the main thread gives it
 * (pool.ts's BatchPool), reading and parsing their robots.txt files while the main thread
 * answers its own run. Messages in: a chunk of lines; out: one BatchResult per chunk, in order.
 */
import { parentPort, workerData } from "node:worker_threads";
import { BatchAnswerer, type BatchSettings } from "./answerer.js";
import type { BatchChunk } from "./input.js";

const port = parentPort;
if (port === null) throw new Error("worker.js runs as a worker thread of heed check --batch");
const answerer = new BatchAnswerer(workerData as BatchSettings, null);
// One message at a time, so that answers go back in the order the lines came.
let queue = Promise.resolve();
port.on("message", (chunk: BatchChunk) => {
  queue = queue
    .then(async () => {
      const result = await answerer.answer(chunk);
      // The output bytes move to the main thread; they are not copied.
      port.postMessage(result, [result.bytes.buffer as ArrayBuffer]);
    })
    .catch((error: unknown) => {
      // A chunk this thread cannot answer ends it, whatever --unhandled-rejections says: the
      // main thread hears of it (an "error" event) instead of waiting for an answer.
      setImmediate(() => {
        throw error;
      });
    });
});
