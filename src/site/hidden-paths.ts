/**
 * The one hidden-path rule of every heed server (`heed serve`, the agent host): what a site's
 * directory may hold but no visitor may read or list.
 *
 * - any path segment starting with a dot (`.env`, `.git/config`, `.htpasswd`);
 * - heed's own state, by name: SQLite side files (`*-wal`, `*-shm`, `*-journal`: the WAL holds
 *   recent rows, key hashes among them) and lock files (`*.lock`, see store/file-lock.ts);
 * - heed's own state, by content: any SQLite database (the RUP state file, a crawl store),
 *   whatever it is called, recognised by the 16-byte header every SQLite file begins with;
 * - paths a server names as its own (the `--state` file it writes), compared as real paths.
 *
 * Servers apply it to the path a visitor asked for and again to the real path it leads to, so
 * that neither `/a/%2e%2e/...` nor a symbolic link named `notes.txt` pointing at `.env` gets
 * through.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { realpath } from "node:fs/promises";
import { realpathSync } from "node:fs";

/** The first 16 bytes of every SQLite database file (sqlite.org/fileformat.html §1.3). */
const SQLITE_HEADER = Buffer.from("SQLite format 3\u0000", "latin1");

/** Why a name is hidden, or null. */
export function hiddenName(name: string): string | null {
  if (name.startsWith(".")) return "a hidden file (its name starts with a dot)";
  if (/-(wal|shm|journal)$/i.test(name)) return "a database journal (heed's state)";
  if (/\.lock$/i.test(name)) return "a lock file (heed's state)";
  return null;
}

/**
 * Why a path relative to the site's root is hidden, or null. Segments are split on "/" and on
 * the platform's separator; "" and "." segments are ignored.
 */
export function hiddenRelativePath(rel: string): string | null {
  for (const segment of rel.split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") return "outside the site";
    const why = hiddenName(segment);
    if (why !== null) return why;
  }
  return null;
}

function isSqliteHeader(bytes: Buffer, length: number): boolean {
  return length >= SQLITE_HEADER.length && bytes.subarray(0, 16).equals(SQLITE_HEADER);
}

/** Is this regular file an SQLite database? Unreadable files count as not. */
export function isDatabaseFileSync(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(16);
    return isSqliteHeader(head, readSync(fd, head, 0, 16, 0));
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

export async function isDatabaseFile(file: string): Promise<boolean> {
  const handle = await open(file, "r").catch(() => null);
  if (handle === null) return false;
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, 16, 0);
    return isSqliteHeader(head, bytesRead);
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/**
 * A file a server writes and must never serve, with its journal files: the real paths they
 * have (or will have: the directory is resolved, the name kept, as a WAL may not exist yet).
 */
export function stateFilesOf(path: string): string[] {
  let dir = dirname(path);
  try {
    dir = realpathSync(dir);
  } catch {
    // Not there yet: compare as given.
  }
  const real = join(dir, basename(path));
  return ["", "-wal", "-shm", "-journal", ".lock"].map((suffix) => `${real}${suffix}`);
}

export interface HiddenCheck {
  /** The site's root, real path. */
  readonly realRoot: string;
  /** Real paths a server names as its own. */
  readonly own?: ReadonlySet<string>;
}

/**
 * The full rule for a file or directory already found under the root: the requested path
 * (relative to the root, as the visitor wrote it, decoded), and its real path. The database
 * test reads 16 bytes of a regular file; directories are checked by name only.
 */
export function hiddenSync(
  check: HiddenCheck,
  requested: string,
  real: string,
  directory: boolean,
): string | null {
  const asked = hiddenRelativePath(requested);
  if (asked !== null) return asked;
  const rel = relative(check.realRoot, real);
  if (rel.startsWith("..") || rel.startsWith(sep)) return "outside the site";
  const leads = hiddenRelativePath(rel);
  if (leads !== null) return leads;
  if (check.own?.has(real) === true) return "heed's own state";
  if (!directory && isDatabaseFileSync(real)) return "a database file (heed's state)";
  return null;
}

/** {@link hiddenSync} for servers that must not block: resolves the real path itself. */
export async function hidden(
  check: HiddenCheck,
  requested: string,
  file: string,
): Promise<string | null> {
  const asked = hiddenRelativePath(requested);
  if (asked !== null) return asked;
  const real = await realpath(file).catch(() => null);
  if (real === null) return "not found";
  const rel = relative(check.realRoot, real);
  if (rel === "" || rel.startsWith("..") || rel.startsWith(sep)) return "outside the site";
  const leads = hiddenRelativePath(rel);
  if (leads !== null) return leads;
  if (check.own?.has(real) === true) return "heed's own state";
  if (await isDatabaseFile(real)) return "a database file (heed's state)";
  return null;
}
