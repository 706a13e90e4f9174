/**
 * `heed usage build DESCRIPTION`: from one description of a site's usage preferences
 * (docs/usage-preferences.md#one-description), the robots.txt lines (Content-Usage and
 * Content-Signal in the `User-agent: *` group) and /.well-known/tdmrep.json.
 */
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { robotsUsageLines, tdmRepRules } from "../../protocol/usage/description.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { loadUsageDescription } from "../usage-description.js";

export interface UsageBuildOptions {
  /** A robots.txt to write the lines into (in place). */
  readonly robots?: string;
  /** Where to write tdmrep.json. */
  readonly tdmrep?: string;
}

export async function runUsageBuild(
  file: string,
  options: UsageBuildOptions,
  io: Io,
): Promise<number> {
  const description = await loadUsageDescription(resolve(io.cwd, file));
  const lines = robotsUsageLines(description);
  // Every file is written beside its target first, then all renamed: a file that cannot be
  // written leaves the others as they were, and no temporary behind.
  const writes: { target: string; text: string; done: string }[] = [];
  if (options.robots === undefined) {
    io.stdout.write(["User-agent: *", ...lines, ""].join("\n"));
  } else {
    const target = resolve(io.cwd, options.robots);
    let text = "";
    try {
      text = await readFile(target, "utf8");
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ENOENT")
        throw new CliError(`cannot read ${options.robots}: ${(error as Error).message}`, 2, {
          cause: error,
        });
    }
    writes.push({
      target,
      text: withUsageLines(text, lines),
      done: `wrote ${lines.length} lines into ${options.robots}\n`,
    });
  }
  if (options.tdmrep !== undefined) {
    const rules = tdmRepRules(description);
    writes.push({
      target: resolve(io.cwd, options.tdmrep),
      text: `${JSON.stringify(rules, null, 2)}\n`,
      done: `wrote ${rules.length} rules to ${options.tdmrep}\n`,
    });
  }
  await writeAll(writes);
  for (const w of writes) io.stdout.write(w.done);
  return EXIT_OK;
}

// A file may start with a byte order mark (RFC 9309 §2.2 has parsers skip it): its first line
// is still a line, and a `User-agent: *` there is the group to write into.
const USAGE_LINE = /^\uFEFF?[ \t]*content-(?:usage|signal)[ \t]*:/i;
const STAR_AGENT = /^\uFEFF?[ \t]*user-agent[ \t]*:[ \t]*\*[ \t]*(?:#.*)?$/i;
const AGENT = /^\uFEFF?[ \t]*user-agent[ \t]*:/i;

/**
 * `text` with its Content-Usage and Content-Signal lines replaced by `lines`, placed after the
 * User-agent lines of the first `User-agent: *` group, or in a new such group at the end.
 */
export function withUsageLines(text: string, lines: readonly string[]): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const kept = text === "" ? [] : text.split(/\r?\n/).filter((l) => !USAGE_LINE.test(l));
  if (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  const star = kept.findIndex((l) => STAR_AGENT.test(l));
  if (star < 0) {
    const out = kept.length === 0 ? [] : [...kept, ""];
    return [...out, "User-agent: *", ...lines, ""].join(eol);
  }
  let after = star + 1;
  while (after < kept.length && AGENT.test(kept[after] as string)) after++;
  return [...kept.slice(0, after), ...lines, ...kept.slice(after), ""].join(eol);
}

async function writeAll(writes: readonly { target: string; text: string }[]): Promise<void> {
  const written: string[] = [];
  let at = "";
  try {
    for (const { target, text } of writes) {
      at = target;
      const temporary = `${target}.${process.pid}.tmp`;
      written.push(temporary);
      await writeFile(temporary, text);
    }
    for (const [i, { target }] of writes.entries()) {
      at = target;
      await rename(written[i] as string, target);
    }
  } catch (error) {
    await Promise.all(written.map((t) => rm(t, { force: true }).catch(() => {})));
    throw new CliError(`cannot write ${at}: ${(error as Error).message}`, 2, { cause: error });
  }
}
