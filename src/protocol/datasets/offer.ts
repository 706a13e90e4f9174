/**
 * Which datasets a /data.txt offers to one robot, and which of them it closes to harvesting.
 *
 * YAML form: every entry, to every robot (the form has no robot names).
 * Draft form, seeds/002 §3.2.1: "the robot must obey the first record … that contains a
 * User-agent line whose value contains the name token of the robot as a substring" (case-
 * insensitive), else the first `*` record; no such record: no dataset is named to it. Within
 * the record, §3.2.2: the first Allow or Disallow line matching the dataset's path decides, so
 * a Disallow listed before a matching Allow closes the dataset.
 */
import { patternOptions } from "../robots/dialect.js";
import { PathPattern } from "../robots/path-pattern.js";
import { productToken } from "../robots/product-token.js";
import { requestPath } from "../robots/request-path.js";
import type { DataTxt, DatasetEntry, DraftRecord, DraftRule } from "./types.js";

export interface OfferedDataset {
  readonly entry: DatasetEntry;
  /** The Disallow line that closes it to harvesting, or null when it is open. */
  readonly closedBy: DraftRule | null;
}

export interface Offer {
  /** Draft form: index of the record that applies, or null (none, or the YAML form). */
  readonly record: number | null;
  readonly datasets: readonly OfferedDataset[];
}

export function offeredTo(dataTxt: DataTxt, agent: string): Offer {
  if (dataTxt.form !== "draft") {
    return { record: null, datasets: dataTxt.entries.map((entry) => ({ entry, closedBy: null })) };
  }
  const record = chooseRecord(dataTxt.records, productToken(agent).toLowerCase());
  if (record === null) return { record: null, datasets: [] };
  const rules = (dataTxt.records[record] as DraftRecord).rules;
  const options = patternOptions("koster1996");
  const patterns = rules.map((r) => new PathPattern(r.path, options));
  const datasets = dataTxt.entries
    .filter((e) => e.record === record)
    .map((entry) => ({ entry, closedBy: firstMatch(entry.urls[0] ?? "", rules, patterns) }));
  return { record, datasets };
}

function chooseRecord(records: readonly DraftRecord[], token: string): number | null {
  if (token !== "") {
    const named = records.findIndex((r) =>
      r.agents.some((a) => a.value.trim() !== "*" && a.value.toLowerCase().includes(token)),
    );
    if (named >= 0) return named;
  }
  const star = records.findIndex((r) => r.agents.some((a) => a.value.trim() === "*"));
  return star >= 0 ? star : null;
}

/** The Disallow line that decides for `url`, or null when an Allow decides or none matches. */
function firstMatch(
  url: string,
  rules: readonly DraftRule[],
  patterns: readonly PathPattern[],
): DraftRule | null {
  const path = requestPath(url);
  if (!path.ok) return null;
  for (let i = 0; i < rules.length; i++) {
    if ((patterns[i] as PathPattern).matches(path.path)) {
      const rule = rules[i] as DraftRule;
      return rule.allow ? null : rule;
    }
  }
  return null;
}
