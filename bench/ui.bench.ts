/**
 * What a keystroke in `heed ui`'s robots.txt editor costs, in real Chromium (playwright-core,
 * /usr/bin/chromium), with 100 and 1,000 URLs asked of five robots. For each size the page is
 * loaded with a robots.txt, the URLs and the robots, and then KEYSTROKES characters are typed
 * at the end of a rule, one at a time, each after the page has settled. Per keystroke:
 *
 *   handler   the keystroke's input events' processing time (Event Timing API,
 *             processingEnd − processingStart of keydown, keypress, input and keyup)
 *   longest   the longest main-thread task from the keystroke until the answers settle
 *             (the page's own `heed:` performance measures, and longtask entries)
 *   total     all main-thread task time from the keystroke until the answers settle
 *             (Chromium's TaskDuration, through the DevTools protocol), and of it the time
 *             running script and the time in style and layout
 *
 * Medians over the keystrokes. The aim: under 16 ms of main-thread time per keystroke.
 *
 *   node dist/bench/ui.bench.js            # after npm run build
 *   node dist/bench/ui.bench.js --quick    # fewer keystrokes
 */
import { startUiServer } from "../src/web/server.js";
import { fmt, median, printTable } from "./report.js";
import { measureKeystrokes, openTester, UI_ROBOTS } from "./ui-keystrokes.js";

const QUICK = process.argv.includes("--quick");
const KEYSTROKES = QUICK ? 8 : 24;
const SIZES = [100, 1000] as const;

const ui = await startUiServer({ port: 0 });
const rows: string[][] = [];
try {
  for (const size of SIZES) {
    const session = await openTester(ui.url, size);
    try {
      const costs = await measureKeystrokes(session.page, KEYSTROKES);
      rows.push([
        `${size} URLs × ${UI_ROBOTS.length} robots`,
        fmt(median(costs.map((c) => c.handlerMs))),
        fmt(median(costs.map((c) => c.longestMs))),
        fmt(median(costs.map((c) => c.totalMs))),
        fmt(Math.max(...costs.map((c) => c.totalMs))),
        fmt(median(costs.map((c) => c.scriptMs))),
        fmt(median(costs.map((c) => c.layoutMs))),
      ]);
    } finally {
      await session.close();
    }
  }
} finally {
  await ui.close();
}
printTable(
  `heed ui: one keystroke in the robots.txt editor (median of ${KEYSTROKES}; ms of main-thread time)`,
  ["page", "handler", "longest task", "total", "total, worst", "script", "style+layout"],
  rows,
);
