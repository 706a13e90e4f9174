/**
 * What an agent may touch: the files of the subtree it was dispatched for, and of those only
 * the ones the site's robots.txt allows to the robot that sent it (seeds/000 §5: "a proper
 * security model that should allow incoming Robots to only perform those operations needed for
 * exploring the assigned website subtrees"). Every path is checked after percent-decoding,
 * resolving `.` and `..`, and resolving symlinks, against both the subtree and the rules.
 */
import { realpathSync, statSync } from "node:fs";
import { posix, relative, sep } from "node:path";
import type {
  AgentResolution,
  MobileAgentServers,
  RobotsPolicy,
} from "../../protocol/robots/index.js";
import { hiddenRelativePath, hiddenSync } from "../hidden-paths.js";
import { MAX_PATH_LENGTH } from "./limits.js";

export interface SubtreeOptions {
  /** The site's document root on disk (the directory that serves `/`), already real. */
  readonly root: string;
  /** The URL path the agent was dispatched for (`/home/user1/`). */
  readonly base: string;
  /** The site's origin, for robots.txt checks. */
  readonly site: string;
  /** The name token of the robot that sent the agent. */
  readonly robot: string;
  readonly policy: RobotsPolicy;
  /** The site's Mobile-agent-server records: a path assigned elsewhere is not this agent's. */
  readonly servers: MobileAgentServers;
}

export type PathRefusal =
  | "bad-path"
  | "outside-subtree"
  | "forbidden-by-robots"
  | "assigned-elsewhere"
  | "not-found"
  /** The hidden-path rule every heed server shares (../hidden-paths.ts). */
  | "hidden";

export type PathCheck =
  | {
      readonly ok: true;
      /** The URL path, percent-encoded as a robot would request it. */
      readonly urlPath: string;
      /** The real file or directory. */
      readonly file: string;
      readonly directory: boolean;
    }
  | { readonly ok: false; readonly code: PathRefusal; readonly message: string };

export class Subtree {
  private readonly baseResolution: string;

  constructor(readonly options: SubtreeOptions) {
    this.baseResolution = resolutionKey(options.servers.resolve(options.base));
  }

  /** Checks a path an agent names (a site path, or relative to its base). Never throws. */
  resolve(input: unknown): PathCheck {
    if (typeof input !== "string" || input === "" || input.length > MAX_PATH_LENGTH) {
      return refuse("bad-path", `a path must be a string of 1-${MAX_PATH_LENGTH} characters`);
    }
    if (/[\u0000-\u001f\u007f?#\\]/.test(input)) {
      return refuse("bad-path", `path ${show(input)} has a control character, "?", "#" or "\\"`);
    }
    const joined = input.startsWith("/") ? input : this.directoryOf(this.options.base) + input;
    const decoded = decodeSegments(joined);
    if (decoded === null) {
      return refuse(
        "bad-path",
        `path ${show(input)} has a bad percent-encoding or an encoded "/" or NUL`,
      );
    }
    let normal = posix.normalize(decoded);
    // `/home/user1` names the directory the base `/home/user1/` is.
    if (this.options.base.endsWith("/") && normal === this.options.base.slice(0, -1))
      normal = this.options.base;
    if (!this.inBase(normal)) {
      return refuse("outside-subtree", `path ${show(input)} is outside ${this.options.base}`);
    }
    if (hiddenRelativePath(normal) !== null) {
      return refuse("hidden", `path ${show(input)} is hidden: ${hiddenRelativePath(normal)}`);
    }
    const wanted = this.allowed(normal, input);
    if (wanted !== null) return wanted;
    let real: string;
    let directory: boolean;
    try {
      real = realpathSync(posix.join(this.options.root, normal));
      directory = statSync(real).isDirectory();
    } catch {
      return refuse("not-found", `no file at ${show(input)}`);
    }
    // A symlink may lead anywhere: the real path must pass the same checks.
    const rel = relative(this.options.root, real);
    if (rel.startsWith("..") || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) {
      return refuse("outside-subtree", `path ${show(input)} leads outside the site's root`);
    }
    const realPath = `/${rel.split(sep).join("/")}${directory && rel !== "" ? "/" : ""}`;
    if (!this.inBase(realPath)) {
      return refuse("outside-subtree", `path ${show(input)} leads outside ${this.options.base}`);
    }
    const through = this.allowed(realPath, input);
    if (through !== null) return through;
    // The same rule as `heed serve`: on the real path too, and heed's databases by content.
    const why = hiddenSync({ realRoot: this.options.root }, normal, real, directory);
    if (why !== null) return refuse("hidden", `path ${show(input)} is hidden: ${why}`);
    const urlPath = encodePath(directory && !normal.endsWith("/") ? `${normal}/` : normal);
    return { ok: true, urlPath, file: real, directory };
  }

  /** The URL of a checked path. */
  url(urlPath: string): string {
    return this.options.site + urlPath;
  }

  private inBase(path: string): boolean {
    const base = this.options.base;
    // The record's path is a prefix (DESIGN §5); `/home/user1` also names the directory itself.
    return path.startsWith(base) || (base.endsWith("/") && path === base.slice(0, -1));
  }

  private allowed(decodedPath: string, input: string): PathCheck | null {
    const url = this.url(encodePath(decodedPath));
    if (resolutionKey(this.options.servers.resolve(url)) !== this.baseResolution) {
      return refuse(
        "assigned-elsewhere",
        `path ${show(input)} is assigned to another agent host, or to none`,
      );
    }
    const decision = this.options.policy.check(url, this.options.robot);
    if (!decision.allowed) {
      const why =
        decision.line === null ? decision.reason : `line ${decision.line}: ${decision.rule ?? ""}`;
      return refuse(
        "forbidden-by-robots",
        `robots.txt forbids ${show(input)} to ${this.options.robot} (${why})`,
      );
    }
    return null;
  }

  private directoryOf(path: string): string {
    return path.endsWith("/") ? path : posix.dirname(path) + "/";
  }
}

/** Which record decides a URL: URLs decided by the same record belong to the same host. */
function resolutionKey(answer: AgentResolution): string {
  return answer.record === null ? "none" : String(answer.record.line);
}

/** Percent-decodes each segment; null for a bad escape, or an encoded "/" or NUL. */
export function decodeSegments(path: string): string | null {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (decoded.includes("/") || decoded.includes("\u0000")) return null;
    out.push(decoded);
  }
  return out.join("/");
}

/**
 * A decoded path as a robot requests it: RFC 3986 pchar kept, everything else percent-encoded
 * as UTF-8, so that robots.txt rules compare it as they compare a fetched URL.
 */
export function encodePath(path: string): string {
  let out = "";
  for (const ch of path) {
    if (/[A-Za-z0-9\-._~!$&'()*+,;=:@/]/.test(ch)) out += ch;
    else
      for (const byte of Buffer.from(ch, "utf8"))
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function refuse(code: PathRefusal, message: string): PathCheck {
  return { ok: false, code, message };
}

function show(path: string): string {
  return JSON.stringify(path.length > 80 ? `${path.slice(0, 77)}...` : path);
}

/** A path as an agent is sent for it: decoded, dot segments resolved; null when unreadable. */
export function agentPath(path: string): string | null {
  const decoded = decodeSegments(path);
  return decoded === null || !decoded.startsWith("/") ? null : posix.normalize(decoded);
}
