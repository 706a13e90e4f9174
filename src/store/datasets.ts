/** What both back ends check of a dataset catalog before keeping it. */
import { StoreError } from "./errors.js";
import type { StoredCatalog } from "./types.js";

const OUTCOMES: ReadonlySet<string> = new Set(["found", "missing", "failed", "forbidden"]);
const FORMS: ReadonlySet<string> = new Set(["yaml", "draft", "empty"]);

export function isOutcome(value: string): value is StoredCatalog["outcome"] {
  return OUTCOMES.has(value);
}

export function isForm(value: string): value is NonNullable<StoredCatalog["form"]> {
  return FORMS.has(value);
}

/** Throws `HEED_STORE_BAD_ARGUMENT` for a catalog that could not be read back as it was given. */
export function checkCatalog(catalog: StoredCatalog): void {
  const bad = (what: string) => {
    throw new StoreError("HEED_STORE_BAD_ARGUMENT", `dataset catalog: ${what}`);
  };
  if (typeof catalog.origin !== "string" || catalog.origin === "")
    bad("origin must be a non-empty string");
  if (typeof catalog.agent !== "string" || catalog.agent === "")
    bad("agent must be a non-empty string");
  if (!isOutcome(catalog.outcome)) bad(`outcome must be one of ${[...OUTCOMES].join(", ")}`);
  if (catalog.form !== null && !isForm(catalog.form))
    bad(`form must be one of ${[...FORMS].join(", ")} or null`);
  for (const key of ["at", "datasets", "fetchable", "guesses"] as const) {
    if (!Number.isSafeInteger(catalog[key]) || catalog[key] < 0)
      bad(`${key} must be a whole number >= 0`);
  }
  if (catalog.status !== null && !Number.isSafeInteger(catalog.status))
    bad("status must be a whole number or null");
  if (typeof catalog.body !== "string") bad("body must be JSON text");
}
