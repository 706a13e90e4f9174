/**
 * `heed agents resolve <robots.txt file|URL> --url URL …`: which host accepts mobile robots
 * for each URL (seeds/000; DESIGN §5). Text: `URL HOST` or `URL none`, one a line; `--json`:
 * `{ "url", "host", "line" }` a line, `host` null when no host is available.
 * Exit 0: every URL has a host; 1: some have none; 2: bad input.
 */
import { parseMobileAgentServers } from "../../protocol/robots/index.js";
import { CliError, EXIT_BAD_INPUT, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { loadRobots } from "../robots-source.js";
import { printable } from "../printable.js";

export interface ResolveOptions {
  readonly url: readonly string[];
  readonly json: boolean;
}

export async function runAgentsResolve(
  source: string,
  options: ResolveOptions,
  io: Io,
): Promise<number> {
  if (options.url.length === 0) throw new CliError("--url: give at least one URL to resolve");
  const loaded = await loadRobots(source, {
    stdin: io.stdin,
    onNote: (text) => io.stderr.write(`heed agents resolve: ${printable(text)}\n`),
  });
  const servers = parseMobileAgentServers(loaded.bytes);
  const out = new LineWriter(io.stdout);
  let missing = 0;
  let errors = 0;
  for (const url of options.url) {
    // A path is read against the origin the robots.txt came from, when it came from one.
    const target = loaded.origin !== null && url.startsWith("/") ? loaded.origin + url : url;
    const answer = servers.resolve(target);
    const host = answer.available ? answer.host.text : null;
    const error = answer.available ? undefined : answer.error;
    if (error !== undefined) errors++;
    else if (host === null) missing++;
    const line = answer.record?.line ?? null;
    if (options.json) {
      await out.line(
        JSON.stringify({ url, host, line, ...(error === undefined ? {} : { error }) }),
      );
    } else {
      // The host is the robots.txt's text: control characters shown, not sent.
      await out.line(
        printable(error === undefined ? `${url} ${host ?? "none"}` : `${url} error: ${error}`),
      );
    }
  }
  await out.flush();
  if (errors > 0) return EXIT_BAD_INPUT;
  return missing > 0 ? EXIT_NOT_ALLOWED : EXIT_OK;
}
