/** What `heed crawl --datasets` says about the catalogs it kept, and how `heed report` lists them. */
import type { CatalogRun } from "../crawler/datasets/crawl-catalogs.js";
import type { StoredCatalog } from "../store/types.js";

export function catalogSummary(run: CatalogRun): Record<string, unknown>[] {
  return run.stored.map(catalogJson);
}

export function catalogLine(run: CatalogRun): string {
  const listed = run.stored.reduce((n, c) => n + c.datasets, 0);
  const withFile = run.stored.filter((c) => c.outcome === "found").length;
  const skipped = run.skipped === 0 ? "" : `; ${run.skipped} more hosts not asked (host limit)`;
  return `heed crawl: datasets of ${run.stored.length} host${run.stored.length === 1 ? "" : "s"} kept (${withFile} with a /data.txt, ${listed} datasets)${skipped}`;
}

/** A kept catalog as `heed report --json` shows it: the counts, and the datasets themselves. */
export function catalogJson(c: StoredCatalog): Record<string, unknown> {
  let body: { datasets?: unknown; notes?: unknown } = {};
  try {
    body = JSON.parse(c.body) as typeof body;
  } catch {
    // kept as counts only
  }
  return {
    origin: c.origin,
    agent: c.agent,
    at: new Date(c.at).toISOString(),
    outcome: c.outcome,
    status: c.status,
    form: c.form,
    datasets: c.datasets,
    fetchable: c.fetchable,
    guesses: c.guesses,
    list: Array.isArray(body.datasets) ? body.datasets : [],
  };
}

/** Text lines for `heed report`: one a host, then its datasets indented. */
export function catalogText(catalogs: readonly StoredCatalog[]): string[] {
  if (catalogs.length === 0) return [];
  const lines = ["", "Datasets (/data.txt, heed crawl --datasets)"];
  for (const c of catalogs) {
    const form = c.form === null ? "" : `, ${c.form} form`;
    const what =
      c.outcome === "found"
        ? `data.txt ${c.status ?? ""}${form}`
        : c.outcome === "missing"
          ? `no data.txt (${c.status ?? ""}); ${c.guesses} guesses`
          : c.outcome;
    lines.push(
      `  ${c.origin} [${c.agent}]: ${what}; ${c.datasets} datasets, ${c.fetchable} fetchable`,
    );
    const list = listOf(c.body);
    if (!Array.isArray(list)) continue;
    for (const d of list as Record<string, unknown>[]) {
      const urls = Array.isArray(d.urls) ? (d.urls as string[]) : [];
      const name = typeof d.name === "string" ? d.name : typeof d.title === "string" ? d.title : "";
      const state =
        d.fetchable === true ? (d.guess === true ? "guess" : "fetchable") : "not fetchable";
      lines.push(`    ${state.padEnd(13)} ${urls.join(" ")}${name === "" ? "" : `  (${name})`}`);
    }
  }
  return lines;
}

function listOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { datasets?: unknown }).datasets ?? [];
  } catch {
    return [];
  }
}
