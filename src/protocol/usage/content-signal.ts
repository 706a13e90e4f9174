/**
 * Content-Signal: Cloudflare's Content Signals Policy (2025), written up as
 * draft-romm-aipref-contentsignals-00. A robots.txt line in a group, `Content-Signal:
 * search=yes, ai-train=no`: comma-separated `label=yes|no` pairs for the labels `search`,
 * `ai-input` and `ai-train` (§4 Table 1). A label left out states nothing.
 *
 * Readings heed chose where the texts are silent: labels and values are read in any case and
 * with blanks around `=` and `,` (the published examples vary); an optional leading path is
 * read as Content-Usage reads one (draft-ietf-aipref-attach-05 §3.2), so that one file can
 * give different signals to different paths; the same syntax in an HTTP `Content-Signal`
 * header (which Cloudflare sends with some answers) is read too.
 */
import { MAX_PREFERENCE_LENGTH } from "./limits.js";
import type { StatementReading } from "./content-usage.js";
import type { Category, Preference, UsageDiagnostic, UsageSource } from "./vocabulary.js";

/** draft-romm-aipref-contentsignals-00 §4 labels → heed's categories. */
const SIGNAL_LABELS: ReadonlyMap<string, Category> = new Map([
  ["search", "search"],
  ["ai-input", "ai-input"],
  ["ai-train", "train-ai"],
]);

// Written for train-ai by mistake often enough to name in a hint.
const NEAR: ReadonlyMap<string, string> = new Map([
  ["train-ai", "ai-train"],
  ["ai-training", "ai-train"],
  ["aitrain", "ai-train"],
  ["ai_train", "ai-train"],
  ["ai-inputs", "ai-input"],
  ["ai_input", "ai-input"],
]);

/** Reads `search=yes, ai-train=no`. */
export function readContentSignal(value: string, source: UsageSource): StatementReading {
  const diagnostics: UsageDiagnostic[] = [];
  const preferences: Partial<Record<Category, Preference>> = {};
  const unknown: { label: string; value: string }[] = [];
  const done = () => ({ statement: { source, preferences, unknown }, diagnostics });
  if (value.length > MAX_PREFERENCE_LENGTH) {
    diagnostics.push({
      severity: "warning",
      code: "signal-too-long",
      message: `the signals are ${value.length} characters; more than ${MAX_PREFERENCE_LENGTH} are not read, so every preference is unknown`,
      limit: MAX_PREFERENCE_LENGTH,
    });
    return done();
  }
  const seen = new Set<string>();
  const parts = value.split(",");
  if (value.trim() === "") {
    diagnostics.push({
      severity: "warning",
      code: "signal-empty",
      message: "the line has no signals: it states no preference",
    });
    return done();
  }
  for (const raw of parts) {
    const part = raw.trim();
    if (part === "") {
      diagnostics.push({
        severity: "info",
        code: "signal-syntax",
        message: `an empty item between commas in "${value}"`,
      });
      continue;
    }
    const eq = part.indexOf("=");
    if (eq < 0) {
      diagnostics.push({
        severity: "warning",
        code: "signal-syntax",
        message: `"${part}" is not label=yes or label=no; it is ignored`,
      });
      continue;
    }
    const label = part.slice(0, eq).trim().toLowerCase();
    const said = part
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    const category = SIGNAL_LABELS.get(label);
    if (category === undefined) {
      unknown.push({ label, value: said });
      const near = NEAR.get(label);
      diagnostics.push(
        near === undefined
          ? {
              severity: "info",
              code: "signal-unknown",
              message: `"${label}" is not one of the Content-Signal labels (search, ai-input, ai-train); heed keeps it but it states nothing`,
            }
          : {
              severity: "warning",
              code: "signal-unknown",
              message: `"${label}" is not a Content-Signal label; did you mean "${near}"?`,
            },
      );
      continue;
    }
    if (seen.has(label)) {
      diagnostics.push({
        severity: "warning",
        code: "signal-repeated",
        message: `"${label}" is given more than once; heed reads the most restrictive`,
      });
    }
    seen.add(label);
    const preference: Preference | null =
      said === "yes" ? "allowed" : said === "no" ? "disallowed" : null;
    if (preference === null) {
      diagnostics.push({
        severity: "warning",
        code: "signal-value",
        message: `"${label}=${said}": a signal is yes or no; this one states nothing`,
      });
      continue;
    }
    // A label written twice with different values: the restrictive one (as vocab-07 §5.1 combines).
    if (preferences[category] !== "disallowed") preferences[category] = preference;
  }
  return done();
}
