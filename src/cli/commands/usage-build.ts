/**
 * `heed usage build DESCRIPTION`: from one description of a site's usage preferences
 * (docs/usage-preferences.md#one-description), the robots.txt lines (Content-Usage and
 * Content-Signal in the `User-agent: *` group) and /.well-known/tdmrep.json.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { copyFile, link, lstat, open, rename, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { MAX_ROBOTS_BYTES } from "../../protocol/robots/limits.js";
import { robotsUsageLines, tdmRepRules } from "../../protocol/usage/description.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { readLocalFile } from "../robots-source.js";
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
    const text = await existingRobots(target, options.robots);
    writes.push({
      target,
      text: withUsageLines(text, lines),
      done: `wrote ${lines.length} ${lines.length === 1 ? "line" : "lines"} into ${options.robots}\n`,
    });
  }
  if (options.tdmrep !== undefined) {
    const rules = tdmRepRules(description);
    writes.push({
      target: resolve(io.cwd, options.tdmrep),
      text: `${JSON.stringify(rules, null, 2)}\n`,
      done: `wrote ${rules.length} ${rules.length === 1 ? "rule" : "rules"} to ${options.tdmrep}\n`,
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
/**
 * The robots.txt the lines go into, "" when there is none yet. It is written back whole, so it
 * is read whole or refused: a file over what crawlers read (RFC 9309 §2.5) is not rewritten,
 * and no more than one byte past that is read to know it (it may be endless).
 */
async function existingRobots(target: string, named: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readLocalFile(target, MAX_ROBOTS_BYTES + 1);
  } catch (error) {
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    if (code === "ENOENT") return "";
    throw new CliError((error as Error).message.replace(target, named), 2, { cause: error });
  }
  if (bytes.byteLength > MAX_ROBOTS_BYTES)
    throw new CliError(
      `${named} is over ${MAX_ROBOTS_BYTES} bytes, more than crawlers read (RFC 9309 §2.5); not rewritten`,
    );
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

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

/**
 * Writes every file or none. Each is written beside its target first; then each target that
 * exists is kept aside (a hard link, or a copy where links are refused) before the renames, so
 * that when a later rename fails (a directory in the way) the targets already replaced are put
 * back as they were, and a target that did not exist is removed again. The names beside the
 * targets are new ones (a random part, and never over an existing file), so no file of the
 * user's is written over or removed.
 */
async function writeAll(writes: readonly { target: string; text: string }[]): Promise<void> {
  const token = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const temporaries: string[] = [];
  const kept: (string | null)[] = [];
  const replaced: number[] = [];
  let at = "";
  try {
    for (const { target, text } of writes) {
      at = target;
      const temporary = `${target}.${token}.tmp`;
      // Created new ("wx"), then ours to remove on failure, even one partly written.
      const handle = await open(temporary, "wx");
      temporaries.push(temporary);
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
    }
    for (const { target } of writes) {
      at = target;
      kept.push(await keepAside(target, `${target}.${token}.old`));
    }
    for (const [i, { target }] of writes.entries()) {
      at = target;
      await rename(temporaries[i] as string, target);
      replaced.push(i);
    }
  } catch (error) {
    const failures: string[] = [];
    const stranded = new Set<string>();
    for (const i of replaced.reverse()) {
      const { target } = writes[i] as { target: string };
      const old = kept[i] ?? null;
      try {
        if (old === null) await rm(target, { force: true });
        else await rename(old, target);
      } catch (undo) {
        // The earlier file stays where it was kept, and the message says where.
        if (old !== null) stranded.add(old);
        failures.push(
          `${target} could not be put back (${(undo as Error).message})` +
            (old === null ? "" : `; its earlier content is in ${old}`),
        );
      }
    }
    await removeAll([...temporaries, ...kept.filter((k) => k !== null && !stranded.has(k))]);
    const also = failures.length === 0 ? "" : `; ${failures.join("; ")}`;
    throw new CliError(`cannot write ${at}: ${(error as Error).message}${also}`, 2, {
      cause: error,
    });
  }
  await removeAll(kept);
}

/** Gives `target`'s present file the second name `old`; null when there is none to keep. */
async function keepAside(target: string, old: string): Promise<string | null> {
  try {
    await link(target, old);
    return old;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return null;
    // A directory in the way cannot be linked: its rename fails later, with its own message.
    if (code === "EPERM" || code === "EISDIR") {
      const kind = await lstat(target).catch(() => null);
      if (kind === null || kind.isDirectory()) return null;
    }
    if (code === "EEXIST") throw error;
    // Links refused by the file system: a copy serves as well.
    await copyFile(target, old, constants.COPYFILE_EXCL);
    return old;
  }
}

async function removeAll(paths: readonly (string | null)[]): Promise<void> {
  await Promise.all(
    paths.map((p) => (p === null ? undefined : rm(p, { force: true }).catch(() => {}))),
  );
}
