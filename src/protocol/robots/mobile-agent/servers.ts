/**
 * The Mobile-agent-server records of a robots.txt, compiled once and queried per URL
 * (DESIGN §5): the records are file-wide, outside any group; for a URL the last line in file
 * order whose path is a prefix of the URL's path wins; `none`, or no line, means no host.
 */
import type { Diagnostic } from "../diagnostic.js";
import { type RobotsText, readRobotsText } from "../line-reader.js";
import { requestPath } from "../request-path.js";
import {
  isMisspeltMobileAgentKey,
  isMobileAgentKey,
  type MobileAgentRecord,
  readMobileAgentLine,
  type SimplifiedUrl,
} from "./record.js";

/**
 * Most Mobile-agent-server lines read from one file; later ones are reported and ignored.
 * Each query scans them all, and a site assigns a host per subtree: ten thousand is far more
 * than any site has subtrees worth a host, and keeps a query cheap.
 */
export const MAX_AGENT_SERVER_RECORDS = 10_000;

export type AgentResolution =
  | {
      /** A record names a host for this URL. */
      readonly available: true;
      readonly host: SimplifiedUrl;
      readonly record: MobileAgentRecord;
    }
  | {
      readonly available: false;
      /** `none`: the deciding record says none; `no-record`: no record's path is a prefix. */
      readonly reason: "none" | "no-record" | "invalid-url";
      /** The deciding `none` record, when there is one. */
      readonly record: MobileAgentRecord | null;
      readonly error?: string;
    };

export class MobileAgentServers {
  readonly records: readonly MobileAgentRecord[];
  readonly diagnostics: readonly Diagnostic[];

  constructor(text: RobotsText) {
    const records: MobileAgentRecord[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const line of text.lines) {
      if (line.kind !== "extension") continue;
      const misspelt = isMisspeltMobileAgentKey(line.key);
      if (!isMobileAgentKey(line.key) && !misspelt) continue;
      if (misspelt) {
        diagnostics.push({
          line: line.number,
          severity: "warning",
          code: "agent-server-misspelt",
          message: `"${line.key}" is a misspelling of "Mobile-agent-server"; heed reads it so, other robots ignore the line`,
        });
      }
      if (records.length >= MAX_AGENT_SERVER_RECORDS) {
        diagnostics.push({
          line: line.number,
          severity: "error",
          code: "agent-server-limit",
          message: `more than ${MAX_AGENT_SERVER_RECORDS} Mobile-agent-server lines; this one and those after it are ignored`,
        });
        break;
      }
      const reading = readMobileAgentLine(line);
      diagnostics.push(...reading.diagnostics);
      if (reading.record !== null) records.push(reading.record);
    }
    this.records = records;
    this.diagnostics = diagnostics;
  }

  /** Which host, if any, accepts mobile robots for `url` (absolute, or a path from "/"). */
  resolve(url: string | URL): AgentResolution {
    const path = requestPath(url);
    if (!path.ok)
      return { available: false, reason: "invalid-url", record: null, error: path.error };
    // seeds/000 §3.1: "more recent lines always override older ones": the last match wins.
    for (let i = this.records.length - 1; i >= 0; i--) {
      const record = this.records[i] as MobileAgentRecord;
      if (!path.path.startsWith(record.canonicalPath)) continue;
      if (record.target.kind === "none") return { available: false, reason: "none", record };
      return { available: true, host: record.target.url, record };
    }
    return { available: false, reason: "no-record", record: null };
  }

  /**
   * Whether the agent host `service` (`atp://host:port`) is the one this file names for `url`:
   * the question an agent host asks before it takes an agent for a path. A later `none` line
   * covering the path takes it away, as it does for every robot resolving the URL.
   */
  names(url: string | URL, service: string): boolean {
    const answer = this.resolve(url);
    return answer.available && serviceOf(answer.host) === service;
  }

  /** The later record that covers every URL `record` matches, so that `record` never decides. */
  shadowOf(record: MobileAgentRecord): MobileAgentRecord | null {
    const at = this.records.indexOf(record);
    if (at < 0) return null;
    return (
      this.records.slice(at + 1).find((r) => record.canonicalPath.startsWith(r.canonicalPath)) ??
      null
    );
  }
}

/** `atp://host:port`, the port always written: how an agent host names itself. */
export function serviceOf(url: SimplifiedUrl): string {
  return `${url.scheme}://${url.host}:${url.port ?? ""}`;
}

/** Reads the Mobile-agent-server records of a robots.txt (bytes or text). Never throws on content. */
export function parseMobileAgentServers(
  input: string | Uint8Array | RobotsText,
): MobileAgentServers {
  const text =
    typeof input === "string" || input instanceof Uint8Array ? readRobotsText(input) : input;
  return new MobileAgentServers(text);
}
