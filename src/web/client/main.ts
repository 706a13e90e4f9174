/**
 * The page's entry point: the views (tester; sitemaps, agents and data; crawl) switched by the
 * address's fragment, so each has an address and the back button works.
 */
import { CrawlView } from "./crawl.js";
import { byId } from "./dom.js";
import { More } from "./more.js";
import { Tester } from "./tester.js";

const VIEWS = ["tester", "more", "crawl"] as const;
type View = (typeof VIEWS)[number];

async function start(): Promise<void> {
  const tester = new Tester();
  const more = new More(tester);
  tester.onChange = () => more.update();
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
  const show = () => {
    const wanted = location.hash.replace(/^#/, "") as View;
    const view: View =
      VIEWS.includes(wanted) && (wanted !== "crawl" || hasCrawl) ? wanted : "tester";
    for (const name of VIEWS) {
      byId(`view-${name}`).hidden = name !== view;
      const link = byId(`nav-${name}`);
      if (name === view) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    if (view === "crawl") crawl.start();
    document.title = `heed ui · ${byId(`nav-${view}`).textContent ?? ""}`;
  };
  window.addEventListener("hashchange", show);
  show();
  document.body.setAttribute("data-ready", "true");
}

void start();
