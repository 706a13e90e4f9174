/**
 * The page's entry point: the views (tester; sitemaps, agents and data; crawl) switched by the
 * address's fragment, so each has an address and the back button works. A permalink's state
 * follows the view's name in the fragment (`#tester&state=…`).
 */
import { runAnswerWorker } from "./answer-worker.js";
import { CrawlView } from "./crawl.js";
import { drawCrawlerPicker } from "./crawler-picker.js";
import { byId } from "./dom.js";
import { More } from "./more.js";
import { Tester } from "./tester.js";
import { restoreFromHash, wireTools } from "./tools.js";

const VIEWS = ["tester", "more", "crawl"] as const;
type View = (typeof VIEWS)[number];

async function start(): Promise<void> {
  drawCrawlerPicker(byId("crawler-list"));
  const tester = new Tester(import.meta.url);
  const more = new More(tester);
  // The other views follow the tester only while they are shown (and when they are shown).
  tester.onChange = () => {
    if (!byId("view-more").hidden) more.update();
  };
  wireTools(tester);
  await restoreFromHash();
  tester.update();
  const crawl = new CrawlView();
  let hasCrawl = false;
  try {
    const info = (await (await fetch("/api/info")).json()) as { crawl: boolean };
    hasCrawl = info.crawl;
  } catch {
    hasCrawl = false;
  }
  byId("nav-crawl-item").hidden = !hasCrawl;
  let lastState: string | null = null;
  const show = () => {
    const wanted = location.hash.replace(/^#/, "").split("&")[0] as View;
    const view: View =
      VIEWS.includes(wanted) && (wanted !== "crawl" || hasCrawl) ? wanted : "tester";
    for (const name of VIEWS) {
      byId(`view-${name}`).hidden = name !== view;
      const link = byId(`nav-${name}`);
      if (name === view) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    if (view === "crawl") crawl.start();
    if (view === "more") more.update();
    document.title = `heed ui · ${byId(`nav-${view}`).textContent ?? ""}`;
  };
  window.addEventListener("hashchange", () => {
    // A permalink pasted into this page's address bar: fill the test from it.
    const state = location.hash.includes("&state=") ? location.hash : null;
    if (state !== null && state !== lastState) {
      lastState = state;
      void restoreFromHash().then((filled) => {
        if (filled) tester.update();
      });
    }
    show();
  });
  show();
  document.body.setAttribute("data-ready", "true");
}

// The same script runs the page and, in a worker of its own, the tester's answering.
if (typeof document === "undefined")
  runAnswerWorker(globalThis as unknown as Parameters<typeof runAnswerWorker>[0]);
else void start();
