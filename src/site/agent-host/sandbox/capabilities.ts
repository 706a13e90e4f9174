/**
 * The host side of the capability API: list and read files of the agent's subtree, emit
 * records, keep state, receive messages, ask to move on. Runs in the sandbox thread, outside
 * the VM; every argument arrives as JSON text and is checked here. Errors the agent may catch
 * are thrown as {@link CapabilityError}; a broken limit also sets {@link Capabilities.fatal},
 * which stops the agent at its next instruction even if it catches the error.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import {
  type Json,
  jsonDepth,
  MAX_AGENT_STATE_DEPTH,
} from "../../../protocol/atp/agent-package.js";
import { parseAtpUrl } from "../../../protocol/atp/url.js";
import { MobileAgentServers, parseRobots, readRobotsText } from "../../../protocol/robots/index.js";
import { Subtree } from "../subtree.js";
import type { SandboxErrorCode, SandboxJob } from "./job.js";

export class CapabilityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CapabilityError";
  }
}

export class Capabilities {
  readonly records: string[] = [];
  state: Json;
  fatal: { code: SandboxErrorCode; message: string } | null = null;
  moveTo: { url: string; path: string } | null = null;
  files = 0;
  bytesRead = 0;
  private resultBytes = 0;
  private readonly subtree: Subtree;
  private readonly infoJson: string;

  constructor(
    private readonly job: SandboxJob,
    private readonly messages: MessagePort | null,
  ) {
    this.state = job.state;
    const text = readRobotsText(job.robotsText);
    this.subtree = new Subtree({
      root: job.root,
      base: job.info.path,
      site: job.info.site,
      robot: job.info.robot,
      policy: parseRobots(job.robotsText, { origin: job.info.site }),
      servers: new MobileAgentServers(text),
    });
    this.infoJson = JSON.stringify(job.info);
  }

  /** One call from the VM: an operation name and its arguments as a JSON array. */
  call(op: string, argsJson: string): string {
    let args: unknown;
    try {
      args = JSON.parse(argsJson);
    } catch {
      throw new CapabilityError(`${op}: arguments are not JSON`);
    }
    if (!Array.isArray(args)) throw new CapabilityError(`${op}: arguments must be a list`);
    switch (op) {
      case "info":
        return this.infoJson;
      case "list":
        return JSON.stringify(this.list(args[0]));
      case "read":
        return JSON.stringify(this.read(args[0]));
      case "emit":
        this.emit(args[0] as Json);
        return "null";
      case "getState":
        return JSON.stringify(this.state);
      case "setState":
        this.setState(args[0] as Json, argsJson);
        return "null";
      case "moveTo":
        this.setMove(args[0], args[1]);
        return "null";
      case "receive":
        return JSON.stringify(this.receive());
      default:
        throw new CapabilityError(`no capability named ${JSON.stringify(op.slice(0, 40))}`);
    }
  }

  private list(path: unknown): { name: string; path: string; type: "file" | "directory" }[] {
    const dir = this.subtree.resolve(path);
    if (!dir.ok) throw new CapabilityError(`list: ${dir.message} [${dir.code}]`);
    if (!dir.directory)
      throw new CapabilityError(`list: ${JSON.stringify(path)} is not a directory`);
    const entries = readdirSync(dir.file, { withFileTypes: true });
    const max = this.job.limits.maxListEntries;
    if (entries.length > max) {
      throw new CapabilityError(`list: ${entries.length} entries, over the limit of ${max}`);
    }
    const out: { name: string; path: string; type: "file" | "directory" }[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      // Only what the agent could also read: a symlink out, or a forbidden path, is not shown.
      const check = this.subtree.resolve(dir.urlPath + encodeURIComponent(entry.name));
      if (!check.ok) continue;
      out.push({
        name: entry.name,
        path: check.urlPath,
        type: check.directory ? "directory" : "file",
      });
    }
    return out;
  }

  private read(path: unknown): {
    path: string;
    url: string;
    size: number;
    lastmod: string;
    sha256: string;
    text: string;
  } {
    const file = this.subtree.resolve(path);
    if (!file.ok) throw new CapabilityError(`read: ${file.message} [${file.code}]`);
    if (file.directory) throw new CapabilityError(`read: ${JSON.stringify(path)} is a directory`);
    const fd = openSync(file.file, "r");
    try {
      const stat = fstatSync(fd);
      const max = this.job.limits.maxReadBytes;
      if (stat.size > max)
        throw new CapabilityError(`read: ${stat.size} bytes, over the limit of ${max}`);
      const buffer = Buffer.alloc(stat.size);
      let got = 0;
      while (got < stat.size) {
        const n = readSync(fd, buffer, got, stat.size - got, got);
        if (n === 0) break;
        got += n;
      }
      const bytes = buffer.subarray(0, got);
      this.files++;
      this.bytesRead += got;
      return {
        path: file.urlPath,
        url: this.subtree.url(file.urlPath),
        size: got,
        lastmod: stat.mtime.toISOString(),
        sha256: createHash("sha256").update(bytes).digest("hex"),
        text: bytes.toString("utf8"),
      };
    } finally {
      closeSync(fd);
    }
  }

  private emit(record: Json): void {
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      throw new CapabilityError("emit: a record must be an object");
    }
    const text = JSON.stringify(record);
    const { maxResultBytes, maxResultRecords } = this.job.limits;
    if (
      this.records.length >= maxResultRecords ||
      this.resultBytes + Buffer.byteLength(text) > maxResultBytes
    ) {
      this.fatal = {
        code: "result-too-large",
        message: `the result is over its limit (${maxResultRecords} records, ${maxResultBytes} bytes)`,
      };
      throw new CapabilityError(`emit: ${this.fatal.message}`);
    }
    this.resultBytes += Buffer.byteLength(text);
    this.records.push(text);
  }

  private setState(value: Json, argsJson: string): void {
    if (argsJson.length > this.job.limits.maxStateLength) {
      throw new CapabilityError(
        `setState: over the limit of ${this.job.limits.maxStateLength} characters`,
      );
    }
    // The arguments are one list: the state is one level below it.
    if (jsonDepth(argsJson) > MAX_AGENT_STATE_DEPTH + 1) {
      throw new CapabilityError(
        `setState: nested more than ${MAX_AGENT_STATE_DEPTH} levels deep, over the limit`,
      );
    }
    this.state = value;
  }

  private setMove(url: unknown, path: unknown): void {
    const parsed = typeof url === "string" ? parseAtpUrl(url) : null;
    if (parsed === null || !parsed.ok)
      throw new CapabilityError(`moveTo: ${JSON.stringify(url)} is not an atp:// URL`);
    // An agent may go only where the site sends agents: not a way to reach any address.
    if (!this.job.moveTargets.includes(parsed.url.service)) {
      throw new CapabilityError(
        `moveTo: ${parsed.url.service} is not an agent host of ${this.job.info.site}`,
      );
    }
    const target = typeof path === "string" ? path : this.job.info.path;
    if (!target.startsWith("/")) throw new CapabilityError("moveTo: the path must start with /");
    this.moveTo = { url: parsed.url.service, path: target };
  }

  private receive(): Json[] {
    const out: Json[] = [];
    if (this.messages === null) return out;
    for (
      let m = receiveMessageOnPort(this.messages);
      m !== undefined;
      m = receiveMessageOnPort(this.messages)
    ) {
      out.push(m.message as Json);
    }
    return out;
  }
}
