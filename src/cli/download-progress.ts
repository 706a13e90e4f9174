/** The progress bar of `heed datasets --download`, on standard error: redrawn in place on a terminal, one line a file otherwise. */
import type { Writable } from "node:stream";
import type { DownloadProgress } from "../crawler/datasets/download.js";
import { printable } from "./printable.js";

const REDRAW_MS = 200;
const BAR_WIDTH = 24;

export class DownloadBar {
  private lastDraw = 0;
  private readonly tty: boolean;

  constructor(
    private readonly out: Writable & { isTTY?: boolean; columns?: number },
    private readonly now: () => number = Date.now,
  ) {
    this.tty = out.isTTY === true;
  }

  progress(p: DownloadProgress): void {
    if (!this.tty) return;
    const at = this.now();
    if (at - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = at;
    this.draw(p.file, p.received, p.total);
  }

  /** A file is finished (or failed): its line stays. */
  done(file: string, text: string): void {
    if (this.tty) this.out.write("\r\x1b[K");
    // File names and messages come from the site: control characters shown, not sent.
    this.out.write(`${printable(`${file}: ${text}`)}\n`);
  }

  private draw(file: string, received: number, total: number | null): void {
    const share = total === null || total === 0 ? null : Math.min(received / total, 1);
    const bar =
      share === null
        ? ""
        : `[${"#".repeat(Math.round(share * BAR_WIDTH)).padEnd(BAR_WIDTH, " ")}] ${(share * 100).toFixed(0).padStart(3)}% `;
    const size =
      total === null ? formatSize(received) : `${formatSize(received)}/${formatSize(total)}`;
    const line = `${bar}${size} ${printable(file)}`;
    const width = this.out.columns ?? 100;
    this.out.write(`\r\x1b[K${line.slice(0, width - 1)}`);
  }
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit] as string}`;
}
