/** A chunk of batch lines answered whole, as `runBatch` answers it. */
import type { BatchAnswerer, BatchResult } from "../../src/cli/batch/answerer.js";
import type { BatchChunk } from "../../src/cli/batch/input.js";

/**
 * Each result of answering `chunk`: when the answers reach their bound before the chunk's end,
 * the rest of its lines are answered next, numbered on (src/cli/batch/run.ts).
 */
export async function* answersOf(
  answerer: BatchAnswerer,
  chunk: BatchChunk,
): AsyncGenerator<BatchResult> {
  let part = chunk;
  for (;;) {
    const result = await answerer.answer(part);
    yield result;
    if (result.restAt === undefined) return;
    part = {
      bytes: part.bytes.subarray(result.restAt),
      firstLine: result.restLine ?? part.firstLine,
      tooLong: false,
    };
  }
}
