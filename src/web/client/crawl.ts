/**
 * The crawl view: snapshots of the crawl store pushed by the server as server-sent events
 * (the browser reconnects by itself), drawn as progress, per-host state, errors, the URLs not
 * fetched with their reasons, and the charts and tables of `heed report --html`. The page only
 * reads: nothing here can change the crawl.
 */
import type { SitePace } from "../../crawler/site-pace.js";
import type { CrawlSnapshot, HostRow } from "../crawl-snapshot.js";
import { byId, fill, h, moment } from "./dom.js";

export class CrawlView {
  private source: EventSource | null = null;
  private shadow: ShadowRoot | null = null;

  start(): void {
    if (this.source !== null) return;
    const source = new EventSource("/api/crawl/events");
    this.source = source;
    source.addEventListener("snapshot", (event) => {
      this.draw(JSON.parse((event as MessageEvent<string>).data) as CrawlSnapshot);
    });
    source.addEventListener("error", () => {
      byId("crawl-link").textContent = "connection lost; reconnecting …";
    });
    source.addEventListener("open", () => {
      byId("crawl-link").textContent = "live";
    });
  }

  private draw(s: CrawlSnapshot): void {
    const view = byId("view-crawl");
    view.setAttribute("data-state", s.state);
    byId("crawl-source").textContent = s.source;
    byId("crawl-state").textContent = stateText(s);
    const counts = s.counts;
    const total =
      counts === null
        ? 0
        : counts.queued + counts.leased + counts.done + counts.skipped + counts.failed;
    const settled = counts === null ? 0 : counts.done + counts.skipped + counts.failed;
    const bar = byId<HTMLProgressElement>("crawl-progress");
    bar.max = Math.max(total, 1);
    bar.value = settled;
    bar.textContent = `${settled} of ${total}`;
    fill(
      byId("crawl-counts"),
      ...(
        [
          ["queued", counts?.queued ?? 0],
          ["in flight", counts?.leased ?? 0],
          ["done", counts?.done ?? 0],
          ["skipped", counts?.skipped ?? 0],
          ["failed", counts?.failed ?? 0],
          ["requests", s.requests],
          ["errors", s.errors.count],
        ] as const
      ).map(([name, n]) =>
        h(
          "div",
          { class: "card", "data-count": name },
          h("span", { class: "n" }, String(n)),
          h("span", { class: "k" }, name),
        ),
      ),
    );
    fill(byId("crawl-hosts-body"), ...s.hosts.map((host) => hostRow(host, s.at)));
    fill(
      byId("crawl-errors"),
      ...(s.errors.top.length === 0
        ? [h("li", {}, "No errors.")]
        : s.errors.top.map((e) => h("li", {}, `${e.count} × ${e.message}`))),
    );
    byId("crawl-skipped-note").textContent =
      s.skippedTotal === 0
        ? "Every URL met so far was fetched."
        : `${s.skippedTotal} not fetched${s.skippedTotal > s.skipped.length ? `; the latest ${s.skipped.length} below` : ""}.`;
    fill(
      byId("crawl-skipped-body"),
      ...s.skipped.map((r) =>
        h(
          "tr",
          {},
          h("td", {}, h("code", {}, r.url)),
          h("td", {}, r.outcome),
          h("td", {}, r.detail ?? ""),
          h("td", {}, moment(r.at)),
        ),
      ),
    );
    this.drawReport(s);
  }

  /** The report's charts and tables, in a shadow root so that its style stays its own. */
  private drawReport(s: CrawlSnapshot): void {
    const host = byId("crawl-report");
    this.shadow ??= host.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    // The report's page style, scoped to the shadow root; its headings sit under the view's.
    style.textContent = `${s.report.style}\n:host{display:block} main,section{margin:0}`;
    const body = document.createElement("div");
    body.className = "report";
    // The server made this HTML with heed report's renderer, which escapes every text from the log.
    body.innerHTML = s.report.body.replace(/<h2(\s|>)/g, "<h3$1").replace(/<\/h2>/g, "</h3>");
    this.shadow.replaceChildren(style, body);
  }
}

function stateText(s: CrawlSnapshot): string {
  switch (s.state) {
    case "no-store":
      return "Waiting for the crawl to start: no store there yet.";
    case "unreadable":
      return `The store cannot be read: ${s.message ?? ""}`;
    case "empty":
      return "The store is empty so far.";
    case "running":
      return `Crawling: ${s.counts?.queued ?? 0} queued, ${s.counts?.leased ?? 0} in flight.`;
    case "finished":
      return "Finished: nothing is queued or in flight.";
  }
}

function seconds(ms: number | null): string {
  return ms === null ? "–" : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)} s`;
}

/** Each "Allowed" number as written: 0.5, not 0.50. */
function plain(n: number): string {
  return String(Number(n.toFixed(3)));
}

/** What paces the host: its robots.txt delay and rates, the window running, the next moment. */
function paceText(p: SitePace, now: number): string {
  const parts: string[] = [];
  if (p.crawlDelay !== null)
    parts.push(`Crawl-delay ${plain(p.crawlDelay.seconds)} s (line ${p.crawlDelay.line})`);
  if (p.ipDelay !== null)
    parts.push(`Ip-delay ${plain(p.ipDelay.seconds)} s (line ${p.ipDelay.line})`);
  for (const r of p.rates) {
    const name = r.scope === "ip" ? "Ip-rate" : "Request-rate";
    const window =
      r.windowStart === null
        ? "window empty"
        : `${r.inWindow} of ${r.allows} in the window since ${moment(r.windowStart)}`;
    parts.push(
      `${name} ${plain(r.requests)} per ${plain(r.seconds)} s (line ${r.line}): ${window}`,
    );
  }
  for (const t of p.times) parts.push(`${t.text} (line ${t.line})`);
  if (parts.length === 0) parts.push(p.rulesKept ? "no delay or rate" : "no robots.txt rules kept");
  if (p.gapMs > 0) parts.push(`gap kept ${seconds(p.gapMs)}`);
  if (p.allowedAt !== null)
    parts.push(
      p.allowedAt > now
        ? `next request not before ${moment(p.allowedAt)} (${seconds(p.allowedAt - now)} from the snapshot)`
        : "next request may start now",
    );
  if (p.inFlight > 0) parts.push(`${p.inFlight} in flight`);
  return parts.join("; ");
}

function hostRow(host: HostRow, now: number): HTMLTableRowElement {
  const g = host.gaps;
  const until = Math.max(host.nextAt ?? 0, host.pace.allowedAt ?? 0);
  const waiting =
    host.waiting === null
      ? "ready"
      : `${host.waiting}${until > now ? `, until ${moment(until)} (${seconds(until - now)} from the snapshot)` : ""}`;
  return h(
    "tr",
    { "data-origin": host.origin },
    h("th", { scope: "row" }, host.origin),
    h("td", { class: "num" }, String(host.requests)),
    h("td", {}, waiting),
    h(
      "td",
      {},
      host.robots === null
        ? "not yet fetched"
        : `${host.robots.status ?? "no answer"} (${host.robots.action})`,
    ),
    h(
      "td",
      {},
      g.count === 0
        ? "–"
        : `min ${seconds(g.minMs)}, median ${seconds(g.medianMs)}; required ${seconds(g.requiredMaxMs)}${g.belowRequired > 0 ? `; ${g.belowRequired} below` : ""}`,
    ),
    h("td", { class: "pace" }, paceText(host.pace, now)),
    h("td", { class: "num" }, String(host.errors)),
    h(
      "td",
      {},
      host.last === null
        ? ""
        : `${host.last.outcome}${host.last.status === null ? "" : ` ${host.last.status}`} ${host.last.url}`,
    ),
  );
}
