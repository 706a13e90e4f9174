/**
 * `heed datasets <site-url>`: the datasets a site offers to a robot (seeds/002; docs/data-txt.md),
 * after its robots.txt; `--download DIR` fetches the fetchable ones politely, resuming partial
 * files, and records size and SHA-256. `heed datasets build <dir>` is in datasets-build.ts.
 *
 * Output: a table, or `--json` one JSON object a dataset; what the robots.txt and /data.txt
 * answers were, the diagnostics and the download progress go to standard error.
 * Exit status: 0 datasets were listed (and every download finished); 1 the site lists none, or
 * a download failed; 2 bad input (a bad URL or option).
 */
import { resolve as resolvePath } from "node:path";
import { datasetJson } from "../../crawler/datasets/catalog-json.js";
import {
  discoverDatasets,
  type SiteCatalog,
  type SiteDataset,
} from "../../crawler/datasets/discover.js";
import {
  DownloadFolder,
  type DownloadResult,
  downloadFile,
  MAX_DOWNLOAD_BYTES,
} from "../../crawler/datasets/download.js";
import type { SitePacer } from "../../crawler/datasets/site-pacer.js";
import { deadlineOf } from "../deadline-flag.js";
import { createHttpClient } from "../../net/http-client.js";
import { formName } from "../../protocol/datasets/index.js";
import { DownloadBar, formatSize } from "../download-progress.js";
import { DEFAULT_AGENT } from "../choices.js";
import { agentToken } from "../agent-token.js";
import { CliError, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { VERSION } from "../version.js";
import { isPrivateHost } from "../private-host.js";
import { printable } from "../printable.js";
import { proxyChoice, type ProxyFlags } from "../proxy-flags.js";

export interface DatasetsCommandOptions extends ProxyFlags {
  readonly agent?: string;
  /** Each fetch's total seconds (downloads keep their own limits). */
  readonly deadline?: string;
  readonly json: boolean;
  readonly download?: string;
  /** Most bytes one downloaded file may have: a whole number, optionally with K, M, G or T (powers of 1024). */
  readonly maxBytes?: string;
  readonly allowPrivate?: boolean;
}

/** `1000`, `64K`, `500M`, `2G`, `1T` (powers of 1024; `KiB`, `MB`… read the same) → bytes. */
export function parseByteSize(text: string): number | null {
  const m = /^(\d+)\s*(?:([KMGT])(?:i?B)?|B)?$/i.exec(text.trim());
  if (m === null) return null;
  const power = { "": 0, K: 1, M: 2, G: 3, T: 4 }[(m[2] ?? "").toUpperCase()] ?? 0;
  const value = Number(m[1]) * 1024 ** power;
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The robot's name when none is given. */
export { DEFAULT_AGENT };

export async function runDatasets(
  site: string,
  options: DatasetsCommandOptions,
  io: Io,
): Promise<number> {
  let origin: URL;
  try {
    origin = new URL(site);
  } catch {
    throw new CliError(`expected a site URL such as https://example.com/, got "${site}"`);
  }
  if (origin.protocol !== "http:" && origin.protocol !== "https:") {
    throw new CliError(`expected an http(s) site URL, got "${site}"`);
  }
  const agent = agentToken(options.agent ?? DEFAULT_AGENT);
  const maxBytes =
    options.maxBytes === undefined ? MAX_DOWNLOAD_BYTES : parseByteSize(options.maxBytes);
  if (maxBytes === null) {
    throw new CliError(
      `--max-bytes: expected a size such as 500M or 2G (at least 1 byte), got "${options.maxBytes ?? ""}"`,
    );
  }
  const deadline = deadlineOf(options.deadline);
  const client = createHttpClient({
    ...(deadline.deadlineMs === undefined ? {} : { totalTimeoutMs: deadline.deadlineMs }),
    userAgent: `${agent}/${VERSION} (+https://www.npmjs.com/package/heed)`,
    // Asking about a loopback or private site is asking for it; anything else is guarded.
    allowPrivateAddresses: options.allowPrivate === true || isPrivateHost(origin.hostname),
    ...proxyChoice(options),
  });
  const out = new LineWriter(io.stdout);
  const err = new LineWriter(io.stderr);
  let opened: SitePacer | null = null;
  try {
    const { catalog, access, pacer } = await discoverDatasets(origin.href, {
      client,
      agent,
      ...deadline,
    });
    opened = pacer;
    await describeAnswers(catalog, err);
    await err.flush();
    let failed = 0;
    const downloads = new Map<string, DownloadResult>();
    if (options.download !== undefined) {
      const dir = resolvePath(io.cwd, options.download);
      const folder = await DownloadFolder.open(dir).catch((error: unknown) => {
        throw new CliError(
          `--download: cannot use ${dir}: ${error instanceof Error ? error.message : String(error)}`,
          EXIT_NOT_ALLOWED,
        );
      });
      const bar = new DownloadBar(io.stderr);
      for (const dataset of catalog.datasets) {
        // Guesses are listed, not fetched: the site did not say they are data. A folder whose
        // manifest could not be read has no files to fetch.
        if (dataset.guess || !dataset.fetchable || dataset.entry.manifest) continue;
        for (const file of dataset.files) {
          if (!file.fetchable || downloads.has(file.url)) continue;
          const result = await downloadFile(file.url, {
            dir,
            folder,
            maxBytes,
            client,
            access,
            pacer,
            onProgress: (p) => bar.progress(p),
          });
          downloads.set(file.url, result);
          if (result.ok) {
            bar.done(
              result.file,
              `${result.how}, ${formatSize(result.bytes)}, sha256 ${result.sha256}`,
            );
          } else {
            failed++;
            bar.done(result.file ?? file.url, `failed: ${result.message}`);
          }
        }
      }
    }
    if (options.json) {
      for (const d of catalog.datasets)
        await out.line(JSON.stringify(datasetJson(catalog, d, downloads)));
    } else {
      for (const line of table(catalog.datasets)) await out.line(line);
    }
    await out.flush();
    await err.flush();
    return catalog.datasets.length === 0 || failed > 0 ? EXIT_NOT_ALLOWED : EXIT_OK;
  } finally {
    await opened?.close();
    await client.close();
  }
}

async function describeAnswers(catalog: SiteCatalog, err: LineWriter): Promise<void> {
  const { robots, dataTxt } = catalog;
  // What the site said (its messages, its data.txt's names): control characters shown, not sent.
  const line = (text: string): Promise<void> => err.line(printable(text));
  await line(`${robots.url}: ${robots.status ?? "no answer"}, ${robots.why}`);
  switch (dataTxt.outcome) {
    case "found":
      await line(
        `${dataTxt.url}: ${dataTxt.status ?? ""}, read as the ${formName(dataTxt.form ?? "empty")} (${dataTxt.formReason ?? ""})`,
      );
      break;
    case "missing":
    case "failed":
    case "forbidden":
      await line(`${dataTxt.url}: ${dataTxt.message ?? dataTxt.outcome}`);
      break;
  }
  for (const note of catalog.notes) {
    const where = note.line === null ? note.source : `${note.source}:${note.line}`;
    await line(`${where}: ${note.severity}: ${note.message} [${note.code}]`);
  }
  const n = catalog.datasets.length;
  const open = catalog.datasets.filter((d) => d.fetchable).length;
  await line(`${n} dataset${n === 1 ? "" : "s"} for ${catalog.agent}, ${open} fetchable`);
}

function state(d: SiteDataset): string {
  if (d.closedBy !== null) return "closed";
  if (!d.fetchable) return "forbidden";
  return d.guess ? "guess" : "fetchable";
}

function table(datasets: readonly SiteDataset[]): string[] {
  // No datasets, no table: standard error already says "0 datasets for …".
  if (datasets.length === 0) return [];
  // Names, paths and licenses are the site's text: control characters shown, not sent.
  const rows = datasets.map((d) =>
    [
      state(d),
      d.entry.name ?? d.entry.title ?? "",
      d.files
        .map((f) => {
          const url = new URL(f.url);
          return url.pathname + url.search;
        })
        .join(" "),
      d.entry.rows === null ? "" : String(d.entry.rows),
      d.entry.cols === null ? "" : String(d.entry.cols),
      d.entry.license ?? "",
      d.entry.type ?? "",
      d.via,
    ].map(printable),
  );
  const head = ["STATE", "NAME", "PATH", "ROWS", "COLS", "LICENSE", "TYPE", "FROM"];
  const widths = head.map((h, i) =>
    Math.min(60, Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length))),
  );
  const format = (r: readonly string[]) =>
    r
      .map((cell, i) => clip(cell, widths[i] ?? 0).padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [format(head), ...rows.map(format)];
}

function clip(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
