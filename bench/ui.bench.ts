/**
 * What a keystroke in `heed ui`'s robots.txt editor costs, in real Chromium (playwright-core,
 * /usr/bin/chromium), with 100 and 1,000 URLs asked of five robots. For each size the page is
 * loaded with a robots.txt, the URLs and the robots, and then KEYSTROKES characters are typed
 * at the end of a rule, one at a time, each after the page has settled. Per keystroke, in ms of
 * the page's main thread, from the keystroke until the answers settle:
 *
 *   handler       the keystroke's input events' processing time (the Performance API: listeners
 *                 around the page's own, keydown, keypress, input and keyup)
 *   longest task  the longest main-thread task (the page's own `heed:` performance measures,
 *                 and longtask entries)
 *   page script   the handlers and the page's `heed:` measures summed: all the page's own
 *                 script the keystroke sets off (sending the edit, drawing the worker's reply)
 *   style+layout  Chromium's RecalcStyleDuration and LayoutDuration (DevTools protocol)
 *   work          all main-thread task time (Chromium's TaskDuration, less the DevTools
 *                 protocol's own commands): script, style, layout, paint, messages
 *   CPU           the main thread's CPU time (Chromium's ThreadTime): the same work, less the
 *                 waiting a busy machine adds. It counts the field's own editing and painting,
 *                 which any text field costs, so
 *   plain field   is the CPU of a keystroke in a field the tester does not answer (Site), and
 *   keystroke     is CPU less plain field: the main-thread work the tester adds to a keystroke
 *
 * and the rows of the answers grid whose DOM changed. Medians over the keystrokes. The aim:
 * under 16 ms of main-thread work per keystroke.
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
      const plain = median(
        (await measureKeystrokes(session.page, KEYSTROKES, "#site")).map((c) => c.cpuMs),
      );
      const cpu = median(costs.map((c) => c.cpuMs));
      rows.push([
        `${size} URLs × ${UI_ROBOTS.length} robots`,
        fmt(median(costs.map((c) => c.handlerMs))),
        fmt(median(costs.map((c) => c.longestMs))),
        fmt(median(costs.map((c) => c.pageScriptMs))),
        fmt(median(costs.map((c) => c.layoutMs))),
        fmt(median(costs.map((c) => c.totalMs))),
        fmt(cpu),
        fmt(plain),
        fmt(cpu - plain),
        fmt(Math.max(...costs.map((c) => c.rowsTouched))),
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
  [
    "page",
    "handler",
    "longest task",
    "page script",
    "style+layout",
    "work",
    "CPU",
    "plain field",
    "keystroke",
    "grid rows touched",
  ],
  rows,
);
