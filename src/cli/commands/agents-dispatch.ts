/**
 * `heed agents dispatch <atp-url> --site URL --path PATH`: sends heed's indexing agent to an
 * agent host, retracts it, and prints its index, one JSON object a line (a page: `url`, `title`,
 * `digest`, `sha256`, `links`, `lastmod`, `size`; a path it could not read: `type: "error"`).
 * A summary goes to standard error. Exit 0: the agent finished; 1: the host refused it or it
 * failed (what it indexed before is printed); 2: bad input or the host is unreachable.
 */
import { AgentDispatchError, dispatchAgent } from "../../crawler/agents/dispatch.js";
import { parseAtpUrl } from "../../protocol/atp/url.js";
import { CliError, EXIT_BAD_INPUT, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { VERSION } from "../version.js";
import { isPrivateHost } from "../private-host.js";
import { printable } from "../printable.js";

export interface DispatchCommandOptions {
  readonly site?: string;
  readonly path?: string;
  readonly agent: string;
  readonly maxPages?: string;
  readonly allowPrivate?: boolean;
  readonly from?: string;
}

export async function runAgentsDispatch(
  atpUrl: string,
  options: DispatchCommandOptions,
  io: Io,
): Promise<number> {
  const target = parseAtpUrl(atpUrl);
  if (!target.ok) throw new CliError(target.error);
  if (options.site === undefined)
    throw new CliError("--site: give the site's URL (http://www.fict.org)");
  let site: string;
  try {
    site = new URL(options.site).origin;
  } catch {
    throw new CliError(`--site: not a URL: ${options.site}`);
  }
  const path = options.path ?? "/";
  if (!path.startsWith("/"))
    throw new CliError(`--path: expected a path starting with "/", got "${path}"`);
  const maxPages = options.maxPages === undefined ? undefined : Number(options.maxPages);
  if (maxPages !== undefined && (!Number.isInteger(maxPages) || maxPages <= 0)) {
    throw new CliError(`--max-pages: expected a positive whole number, got "${options.maxPages}"`);
  }
  if (options.from !== undefined && !/^[^\s@]+@[^\s@]+$/.test(options.from)) {
    throw new CliError(`--from: expected an e-mail address, got "${options.from}"`);
  }
  // Naming a loopback or private host on the command line is asking for it.
  const allowPrivate = options.allowPrivate === true || isPrivateHost(target.url.host);
  let index;
  try {
    index = await dispatchAgent(atpUrl, {
      site,
      path,
      robot: options.agent,
      userAgent: `${options.agent}/${VERSION} (heed)`,
      allowPrivate,
      ...(options.from === undefined ? {} : { from: options.from }),
      ...(maxPages === undefined ? {} : { state: { maxPages } }),
    });
  } catch (error) {
    if (error instanceof AgentDispatchError) {
      io.stderr.write(`heed: ${printable(error.message)}\n`);
      return error.code === "HEED_AGENT_REFUSED" ? EXIT_NOT_ALLOWED : EXIT_BAD_INPUT;
    }
    throw error;
  }
  const out = new LineWriter(io.stdout);
  for (const record of index.records) await out.line(JSON.stringify(record));
  await out.flush();
  const pages = index.records.filter((r) => isPage(r)).length;
  // Hosts and the error are the agent host's text: control characters shown, not sent.
  io.stderr.write(
    `${printable(`agent ${index.id} ${index.status} on ${index.hosts.join(" → ")}: ${pages} pages, ${index.records.length - pages} other records, ${index.cpuMs} ms${index.error === null ? "" : `; ${index.error.code}: ${index.error.message}`}`)}\n`,
  );
  return index.status === "finished" ? EXIT_OK : EXIT_NOT_ALLOWED;
}

function isPage(record: unknown): boolean {
  return (
    typeof record === "object" && record !== null && (record as { type?: unknown }).type === "page"
  );
}
