/**
 * Typing in `heed ui`'s robots.txt editor in real Chromium, and what each keystroke costs the
 * page's main thread: for bench/ui.bench.ts and test/web/ui-tester-tools.test.ts.
 */
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
/** The robots asked at once: a search engine's and the AI crawlers' tokens. */
export const UI_ROBOTS = ["Googlebot", "Bingbot", "GPTBot", "ClaudeBot", "CCBot"] as const;
/** Longest wait for the answers to settle after one keystroke. */
const SETTLE_TIMEOUT_MS = 30_000;

export const UI_ROBOTS_TXT = [
  "User-agent: *",
  "Disallow: /private/",
  "Allow: /",
  "",
  "User-agent: GPTBot",
  "User-agent: CCBot",
  "Disallow: /",
  "",
  "User-agent: Googlebot",
  "Disallow: /search",
  "Allow: /search/about",
  "Disallow: /tmp",
].join("\n");

export function urlsFor(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) => `https://example.com/${["p", "private", "search", "tmp"][i % 4]}/${i}/page.html`,
  );
}

export interface TesterSession {
  readonly page: Page;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** A page of the tester with the file, `count` URLs and {@link UI_ROBOTS} asked. */
export async function openTester(url: string, count: number): Promise<TesterSession> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
  await page.goto(`${url}#tester`);
  await page.waitForSelector("body[data-ready]");
  await setValue(page, "robots", UI_ROBOTS_TXT);
  await setValue(page, "agent", UI_ROBOTS[0]);
  await setValue(page, "urls", urlsFor(count).join("\n"));
  // The page's robots to compare, where it has them.
  for (const robot of UI_ROBOTS.slice(1)) {
    const box = page.locator(`#crawlers input[value="${robot}"]`);
    if ((await box.count()) > 0) await box.check();
  }
  await settled(page);
  return { page, close: () => browser.close() };
}

/** Sets a field as a paste does: one input event. */
export async function setValue(page: Page, id: string, value: string): Promise<void> {
  await page.$eval(
    `#${id}`,
    (field, text) => {
      (field as { value: string }).value = text;
      field.dispatchEvent(new Event("input", { bubbles: true }));
    },
    value,
  );
}

/** Waits until the page has answered everything asked (its `data-answering` mark is gone). */
export async function settled(page: Page): Promise<void> {
  await page.waitForSelector("body:not([data-answering])", {
    state: "attached",
    timeout: SETTLE_TIMEOUT_MS,
  });
}

export interface KeystrokeCost {
  /** The keystroke's input events' own processing time (the page's handlers). */
  readonly handlerMs: number;
  /** The longest main-thread task from the keystroke until the page settled. */
  readonly longestMs: number;
  /**
   * The main thread's CPU time from the keystroke until the page settled (Chromium's
   * ThreadTime): what waiting for a busy machine's cores does not inflate.
   */
  readonly cpuMs: number;
  /**
   * All main-thread task time from the keystroke until the page settled (Chromium's
   * TaskDuration), less the time the DevTools protocol's own commands took.
   */
  readonly totalMs: number;
  /** Of which running script. */
  readonly scriptMs: number;
  /** Of which style and layout. */
  readonly layoutMs: number;
  /** The page's own script on the main thread: the handlers and its `heed:` measures. */
  readonly pageScriptMs: number;
  /** Files parsed on the main thread (the tester parses in its worker: none). */
  readonly parses: number;
  /** Rows of the answers grid whose DOM changed. */
  readonly rowsTouched: number;
}

/**
 * Types `count` characters at the end of `field` (in the bench's file, line 12, `Disallow:
 * /tmp…`), one at a time, each once the page has settled, and returns what each cost. The
 * page's settling is awaited by the probe in the page (one call), not by polling it, so that
 * the measure holds as little of the bench's own work as can be.
 */
export async function measureKeystrokes(
  page: Page,
  count: number,
  field = "#robots",
): Promise<KeystrokeCost[]> {
  await installProbe(page);
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const seconds = async (): Promise<Record<string, number>> => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
  };
  const spent = (a: Record<string, number>, b: Record<string, number>, name: string) =>
    ((b[name] ?? 0) - (a[name] ?? 0)) * 1000;
  await page.focus(field);
  await page.keyboard.press("Control+End");
  const costs: KeystrokeCost[] = [];
  for (let i = 0; i < count; i++) {
    await page.evaluate("window.__heedProbe.reset()");
    const before = await seconds();
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    await page.evaluate(`window.__heedProbe.settled(${SETTLE_TIMEOUT_MS})`);
    const after = await seconds();
    const probe = (await page.evaluate("window.__heedProbe.read()")) as {
      handlerMs: number;
      longestMs: number;
      measuredMs: number;
      parses: number;
      rows: number;
    };
    costs.push({
      handlerMs: probe.handlerMs,
      longestMs: Math.max(probe.longestMs, probe.handlerMs),
      cpuMs: spent(before, after, "ThreadTime"),
      totalMs:
        spent(before, after, "TaskDuration") - spent(before, after, "DevToolsCommandDuration"),
      scriptMs: spent(before, after, "ScriptDuration"),
      layoutMs:
        spent(before, after, "LayoutDuration") + spent(before, after, "RecalcStyleDuration"),
      pageScriptMs: probe.handlerMs + probe.measuredMs,
      parses: probe.parses,
      rowsTouched: probe.rows,
    });
  }
  await cdp.detach();
  return costs;
}

/**
 * Listeners around the page's own: a capturing one on window runs before the editor's handler,
 * a bubbling one after it, so their difference is the handlers' time. Long tasks and the page's
 * own `heed:` measures give the longest task; the measures summed, the page's script outside
 * its handlers; its `heed:parse` marks, the files it parsed. A mutation observer counts the
 * answers grid's rows whose DOM changed. Installed through the DevTools protocol (the page's
 * CSP allows no inline script), once.
 */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(`window.__heedProbe || (() => {
    const probe = { handler: 0, longest: 0, started: 0, measured: 0, parses: 0, rows: new Set() };
    for (const type of ["keydown", "keypress", "input", "keyup"]) {
      window.addEventListener(type, () => { probe.started = performance.now(); }, true);
      window.addEventListener(type, () => { probe.handler += performance.now() - probe.started; }, false);
    }
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.entryType === "mark") { if (e.name === "heed:parse") probe.parses++; }
        else if (e.entryType === "longtask" || e.name.startsWith("heed:")) {
          probe.longest = Math.max(probe.longest, e.duration);
          if (e.entryType === "measure") probe.measured += e.duration;
        }
    }).observe({ entryTypes: ["longtask", "measure", "mark"] });
    new MutationObserver((records) => {
      for (const r of records) {
        const nodes = r.type === "childList" ? [...r.addedNodes, ...r.removedNodes] : [r.target];
        for (const n of nodes) {
          const el = n.nodeType === 1 ? n : n.parentElement;
          const row = el && (el.closest("tr[data-row]") || (el.matches("tr[data-row]") ? el : null));
          if (row) probe.rows.add(row);
        }
      }
    }).observe(document.getElementById("answers-body"), { subtree: true, childList: true, characterData: true, attributes: true });
    window.__heedProbe = {
      settled(timeout) {
        return new Promise((resolve, reject) => {
          const done = () => !document.body.hasAttribute("data-answering");
          if (done()) return resolve();
          const timer = setTimeout(() => reject(new Error("the page did not settle")), timeout);
          const watch = new MutationObserver(() => {
            if (done()) { watch.disconnect(); clearTimeout(timer); resolve(); }
          });
          watch.observe(document.body, { attributes: true, attributeFilter: ["data-answering"] });
        });
      },
      reset() { probe.handler = 0; probe.longest = 0; probe.measured = 0; probe.parses = 0; probe.rows.clear(); },
      read() { return { handlerMs: probe.handler, longestMs: probe.longest, measuredMs: probe.measured, parses: probe.parses, rows: probe.rows.size }; },
    };
  })()`);
}
