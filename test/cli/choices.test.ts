/** The option values `--help` names without loading the commands agree with the commands'. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_SAMPLE_ROWS } from "../../src/cli/choices.js";
import { DEFAULT_SAMPLE_ROWS as INFERRED_ROWS } from "../../src/site/datasets/infer.js";

test("datasets build --sample-rows shows the default the inference uses", () => {
  assert.equal(DEFAULT_SAMPLE_ROWS, INFERRED_ROWS);
});
