/**
 * Typing in `heed ui`'s robots.txt editor in real Chromium, and what each keystroke costs the
 * page's main thread: for bench/ui.bench.ts and test/web/ui-keystroke.test.ts.
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
  /** All main-thread task time from the keystroke until the page settled. */
  readonly totalMs: number;
  /** Of which running script (the page's, and the probe's few calls). */
  readonly scriptMs: number;
  /** Of which style and layout. */
  readonly layoutMs: number;
}

/**
 * Types `count` characters at the end of line 12 (`Disallow: /tmp…`), one at a time, each once
 * the page has settled, and returns what each cost.
 */
export async function measureKeystrokes(page: Page, count: number): Promise<KeystrokeCost[]> {
  await installProbe(page);
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const seconds = async (): Promise<Record<string, number>> => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
  };
  const spent = (a: Record<string, number>, b: Record<string, number>, name: string) =>
    ((b[name] ?? 0) - (a[name] ?? 0)) * 1000;
  await page.focus("#robots");
  await page.keyboard.press("Control+End");
  const costs: KeystrokeCost[] = [];
  for (let i = 0; i < count; i++) {
    await page.evaluate("window.__heedProbe.reset()");
    const before = await seconds();
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    await settled(page);
    const after = await seconds();
    const probe = (await page.evaluate("window.__heedProbe.read()")) as {
      handlerMs: number;
      longestMs: number;
    };
    costs.push({
      handlerMs: probe.handlerMs,
      longestMs: Math.max(probe.longestMs, probe.handlerMs),
      totalMs: spent(before, after, "TaskDuration"),
      scriptMs: spent(before, after, "ScriptDuration"),
      layoutMs:
        spent(before, after, "LayoutDuration") + spent(before, after, "RecalcStyleDuration"),
    });
  }
  await cdp.detach();
  return costs;
}

/**
 * Listeners around the page's own: a capturing one on window runs before the editor's handler,
 * a bubbling one after it, so their difference is the handlers' time. Long tasks and the page's
 * own `heed:` measures give the longest task. Installed through the DevTools protocol (the
 * page's CSP allows no inline script).
 */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const probe = { handler: 0, longest: 0, started: 0 };
    for (const type of ["keydown", "keypress", "input", "keyup"]) {
      window.addEventListener(type, () => { probe.started = performance.now(); }, true);
      window.addEventListener(type, () => { probe.handler += performance.now() - probe.started; }, false);
    }
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.entryType === "longtask" || e.name.startsWith("heed:")) probe.longest = Math.max(probe.longest, e.duration);
    }).observe({ entryTypes: ["longtask", "measure"] });
    window.__heedProbe = {
      reset() { probe.handler = 0; probe.longest = 0; },
      read() { return { handlerMs: probe.handler, longestMs: probe.longest }; },
    };
  })()`);
}
