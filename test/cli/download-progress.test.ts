// The download progress bar of `heed datasets --download`: redrawn in place on a terminal, at
// most every 200 ms; one line a finished file otherwise.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { it } from "node:test";
import { DownloadBar, formatSize } from "../../src/cli/download-progress.js";

function sink(tty: boolean) {
  let text = "";
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString("utf8");
      callback();
    },
  }) as Writable & { isTTY?: boolean; columns?: number };
  out.isTTY = tty;
  out.columns = 80;
  return { out, text: () => text };
}

it("on a terminal: a bar with the share and sizes, redrawn in place, throttled", () => {
  const { out, text } = sink(true);
  let now = 10_000;
  const bar = new DownloadBar(out, () => now);
  bar.progress({ url: "u", file: "a.csv", received: 512 * 1024, total: 1024 * 1024 });
  now += 50; // too soon: not drawn
  bar.progress({ url: "u", file: "a.csv", received: 600 * 1024, total: 1024 * 1024 });
  now += 200;
  bar.progress({ url: "u", file: "a.csv", received: 1024 * 1024, total: 1024 * 1024 });
  bar.done("a.csv", "downloaded, 1.0 MiB");
  const frames = text()
    .split("\r\x1b[K")
    .filter((f) => f !== "");
  assert.deepEqual(frames, [
    "[############            ]  50% 512.0 KiB/1.0 MiB a.csv",
    "[########################] 100% 1.0 MiB/1.0 MiB a.csv",
    "a.csv: downloaded, 1.0 MiB\n",
  ]);
});

it("not a terminal: no bar, one line a file", () => {
  const { out, text } = sink(false);
  const bar = new DownloadBar(out, () => 0);
  bar.progress({ url: "u", file: "a.csv", received: 5, total: null });
  bar.done("a.csv", "failed: the server answered 500");
  assert.equal(text(), "a.csv: failed: the server answered 500\n");
});

it("sizes in binary units", () => {
  const TABLE: readonly [number, string][] = [
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.0 KiB"],
    [1536, "1.5 KiB"],
    [5 * 1024 ** 3, "5.0 GiB"],
  ];
  for (const [bytes, text] of TABLE) assert.equal(formatSize(bytes), text);
});
