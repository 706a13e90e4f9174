/**
 * `heed lint` for a /data.txt (docs/data-txt.md): the form read and why, then every finding,
 * one a line as `FILE:LINE: severity: message [code]`, or one JSON object with `--json`.
 * Exit 0: no errors; 1: errors; 2: bad input.
 */
import { basename } from "node:path";
import type { DataTxtLintReport } from "../../protocol/datasets/index.js";
import { MAX_DATA_TXT_BYTES } from "../../protocol/datasets/limits.js";
import { LINT_KINDS, type LintKind } from "../choices.js";
import { CliError, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { isPrivateHost } from "../private-host.js";
import { readAll } from "../read-stream.js";
import { printable } from "../printable.js";
import { isUrl, readLocalFile } from "../robots-source.js";
import { sizeOver } from "../size-finding.js";
import { VERSION } from "../version.js";

/** `auto`: by file name; `robots`; `data` (form from the content); `data-yaml`, `data-draft` (form forced). */
export { LINT_KINDS, type LintKind };

export function isDataTxtKind(kind: LintKind, source: string): boolean {
  if (kind === "robots") return false;
  if (kind !== "auto") return true;
  const name = isUrl(source) ? safePath(source) : basename(source);
  return /(?:^|\/)data\.txt$/i.test(name);
}

export async function runLintDataTxt(
  source: string,
  options: { readonly kind: LintKind; readonly json: boolean },
  io: Io,
): Promise<number> {
  const { bytes, url } = await load(source, io);
  const form =
    options.kind === "data-yaml" ? "yaml" : options.kind === "data-draft" ? "draft" : "auto";
  // Loaded here, not at the top: lint.ts imports this file for every lint, and the reader of
  // /data.txt brings a YAML parser that a robots.txt does not need.
  const { lintDataTxt } = await import("../../protocol/datasets/index.js");
  let report = lintDataTxt(bytes, { form, ...(url === null ? {} : { url }) });
  // A file or standard input is read one byte past the limit, and its size is not known.
  if (url === null && bytes.byteLength === DATA_TXT_READ_BYTES)
    report = { ...report, findings: sizeOver(report.findings, MAX_DATA_TXT_BYTES) };
  const label = source === "-" ? "<stdin>" : source;
  const out = new LineWriter(io.stdout);
  if (options.json) {
    await out.line(JSON.stringify(toJson(label, report)));
  } else {
    for (const f of report.findings) {
      const where = f.line === null ? label : `${label}:${f.line}`;
      // A message may quote the file's own text, control characters included.
      await out.line(printable(`${where}: ${f.severity}: ${f.message} [${f.code}]`));
    }
    await out.line(
      `${report.datasets} dataset${report.datasets === 1 ? "" : "s"}; ${report.errors} error${report.errors === 1 ? "" : "s"}, ${report.warnings} warning${report.warnings === 1 ? "" : "s"}, ${report.infos} note${report.infos === 1 ? "" : "s"}`,
    );
  }
  await out.flush();
  return report.errors > 0 ? EXIT_NOT_ALLOWED : EXIT_OK;
}

function toJson(file: string, report: DataTxtLintReport): Record<string, unknown> {
  return {
    file,
    kind: "data.txt",
    form: report.form,
    formReason: report.formReason,
    datasets: report.datasets,
    records: report.records,
    errors: report.errors,
    warnings: report.warnings,
    infos: report.infos,
    findings: report.findings.map((f) => ({
      line: f.line,
      severity: f.severity,
      code: f.code,
      message: f.message,
    })),
  };
}

// A data.txt over its limit is refused whole (protocol/datasets/read.ts): one byte past the
// limit is all it takes to know, however long the file or stream goes on.
const DATA_TXT_READ_BYTES = MAX_DATA_TXT_BYTES + 1;

async function load(source: string, io: Io): Promise<{ bytes: Uint8Array; url: string | null }> {
  if (source === "-") return { bytes: await readAll(io.stdin, DATA_TXT_READ_BYTES), url: null };
  if (!isUrl(source)) return { bytes: await readLocalFile(source, DATA_TXT_READ_BYTES), url: null };
  const host = safeHost(source);
  // The HTTP client (undici) is loaded only for a URL: most of a local lint's start-up else.
  const [{ createHttpClient }, { fetchDataTxt }] = await Promise.all([
    import("../../net/http-client.js"),
    import("../../net/data-txt-fetch.js"),
  ]);
  const client = createHttpClient({
    userAgent: `heed/${VERSION} (+https://www.npmjs.com/package/heed)`,
    allowPrivateAddresses: isPrivateHost(host),
  });
  try {
    const answer = await fetchDataTxt(source, { client });
    if (answer.kind === "found") return { bytes: answer.body, url: answer.url };
    throw new CliError(
      answer.kind === "missing"
        ? `${source}: ${answer.status}, no such file (docs/data-txt.md: the site may hold datasets found by other means)`
        : `cannot fetch ${source}: ${answer.message}`,
    );
  } finally {
    await client.close();
  }
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
