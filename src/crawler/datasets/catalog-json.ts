/**
 * The JSON shape of a dataset, as `heed datasets --json` prints it and `heed crawl --datasets`
 * keeps it: plain values only, field names as the issue writes them (`path`, `name`, `title`,
 * `description`, `license`, `type`, `rows`, `cols`, `columns`).
 */
import type { DownloadResult } from "./download.js";
import type { SiteCatalog, SiteDataset } from "./discover.js";

export function datasetJson(
  catalog: SiteCatalog,
  d: SiteDataset,
  downloads: ReadonlyMap<string, DownloadResult> = new Map(),
): Record<string, unknown> {
  const e = d.entry;
  const fetched = d.files
    .map((f) => downloads.get(f.url))
    .filter((r): r is DownloadResult => r !== undefined)
    .map((r) =>
      r.ok
        ? { url: r.url, file: r.file, bytes: r.bytes, sha256: r.sha256, how: r.how }
        : { url: r.url, file: r.file, error: r.message },
    );
  return {
    site: catalog.site,
    agent: catalog.agent,
    source: d.source,
    via: d.via,
    form: d.form,
    guess: d.guess,
    guessWhy: d.guessWhy,
    line: e.line === 0 ? null : e.line,
    path: e.path,
    urls: e.urls,
    name: e.name,
    title: e.title,
    description: e.description,
    license: e.license,
    type: e.type,
    rows: e.rows,
    cols: e.cols,
    columns: e.columns === null ? null : Object.fromEntries(e.columns.map((c) => [c.name, c.type])),
    extra: e.extra,
    agents: e.agents,
    fetchable: d.fetchable,
    closedBy:
      d.closedBy === null ? null : { line: d.closedBy.line, rule: `Disallow: ${d.closedBy.path}` },
    files: d.files,
    ...(fetched.length > 0 ? { downloads: fetched } : {}),
  };
}
