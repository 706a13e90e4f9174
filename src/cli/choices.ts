/**
 * Option values `--help` names. They live here, apart from the commands, so that building the
 * command line loads no command's code: each command is imported only when it runs.
 */
export { DIALECTS } from "../protocol/robots/dialect.js";

/** `heed lint --kind`. */
export const LINT_KINDS = ["auto", "robots", "data", "data-yaml", "data-draft"] as const;
export type LintKind = (typeof LINT_KINDS)[number];

/**
 * `heed check --batch --json --fields`: `contract`, the fields DESIGN §6 promises; `all`, every
 * field `--queries` writes.
 */
export const JSON_FIELDS = ["contract", "all"] as const;
export type JsonFields = (typeof JSON_FIELDS)[number];

/** `heed export --format`. */
export const EXPORT_FORMATS = ["jsonl", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The robot's name where a command does not require one. */
export const DEFAULT_AGENT = "heed";

/** `heed datasets build --sample-rows`; the same value as `site/datasets/infer.ts` uses. */
export const DEFAULT_SAMPLE_ROWS = 1_000;
