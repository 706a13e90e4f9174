/**
 * The other records a robots.txt leads to: the sitemaps it names (each read on request through
 * the server's guarded client, then counted and checked), the Mobile-agent-server record for a
 * URL, and a /data.txt catalog with what the robot may fetch of it. All follow the file and the
 * robot of the tester.
 */
import { offeredTo, readDataTxt } from "../../protocol/datasets/index.js";
import { isRobotsSitemap, parseMobileAgentServers } from "../../protocol/robots/index.js";
import type { DataTxtAnswerJson, SitemapAnswer } from "../fetches.js";
import { byId, fill, getJson, h } from "./dom.js";
import type { Tester } from "./tester.js";

/** Sitemaps read when reading through: the file's and their children, breadth first. */
export const MAX_SITEMAPS_READ = 50;
/** Blocked URLs listed after a read-through; the count covers them all. */
export const MAX_FLAGGED_SHOWN = 1000;

export class More {
  private dataUrl: string | null = null;

  constructor(private readonly tester: Tester) {
    byId("sitemaps").addEventListener("click", (event) => {
      const button = (event.target as Element).closest("button[data-sitemap]");
      if (button !== null) void this.readSitemap(button.getAttribute("data-sitemap") ?? "", button);
    });
    byId("sitemaps-all").addEventListener("click", () => void this.readThrough());
    byId("agent-url").addEventListener("input", () => this.resolveAgent());
    byId("data-text").addEventListener("input", () => {
      this.dataUrl = null;
      this.showData();
    });
    byId("data-fetch").addEventListener("click", () => void this.fetchData());
  }

  /** The file or the robot changed. */
  update(): void {
    this.listSitemaps();
    this.listRobots();
    this.resolveAgent();
    this.showData();
  }

  private listSitemaps(): void {
    const policy = this.tester.state.policy;
    const sitemaps = policy?.sitemaps ?? [];
    const list = byId("sitemaps");
    const known = new Map<string, Element>();
    for (const li of list.querySelectorAll("li[data-url]"))
      known.set(li.getAttribute("data-url") ?? "", li);
    fill(
      list,
      ...(sitemaps.length === 0
        ? [h("li", {}, "The robots.txt names no sitemap.")]
        : sitemaps.map(
            (s) =>
              known.get(s.url) ??
              (isRobotsSitemap(s.url)
                ? sitemapItem(s.url, `line ${s.line}`)
                : h(
                    "li",
                    { "data-url": s.url, class: "ignored" },
                    h("span", { class: "where" }, `line ${s.line}`),
                    " ",
                    h("code", {}, s.url),
                    " robots ignore it: not an absolute http(s) URL",
                  )),
          )),
    );
  }

  private async readSitemap(url: string, button: Element): Promise<void> {
    const out = button.parentElement?.querySelector(":scope > .sitemap-result");
    if (out === null || out === undefined) return;
    out.textContent = `Reading ${url} …`;
    try {
      const from = this.tester.state.origin;
      const answer = await getJson<SitemapAnswer>("/api/sitemap", {
        url,
        agent: this.tester.state.robot.agent,
        // The site the file was fetched from: a public site's file cannot name a private sitemap.
        ...(from === null ? {} : { from }),
      });
      if (answer.error !== null) {
        fill(out, h("p", { class: "bad" }, `Could not read it: ${answer.error}`));
        return;
      }
      fill(
        out,
        h(
          "p",
          { class: "counts" },
          `${answer.format ?? "unknown format"}${answer.compressed ? ", gzip" : ""}: ${count(answer.urls, "URL")}, ${count(answer.sitemaps, "sitemap")}, ${count(answer.errors, "error")}, ${count(answer.warnings, "warning")}`,
        ),
        answer.findings.length === 0
          ? null
          : h(
              "ul",
              { class: "findings" },
              ...answer.findings.map((f) =>
                h(
                  "li",
                  { class: `finding ${f.severity}` },
                  f.line === null ? "file" : `line ${f.line}`,
                  " ",
                  h("span", { class: `severity ${f.severity}` }, f.severity),
                  " ",
                  h("code", {}, f.code),
                  " ",
                  f.message,
                ),
              ),
            ),
        answer.sampleSitemaps.length === 0
          ? null
          : h(
              "ul",
              { class: "sample" },
              // Each child of an index can be read in turn.
              ...answer.sampleSitemaps.map((s) => sitemapItem(s.loc, "listed")),
            ),
        answer.sampleUrls.length === 0
          ? null
          : h(
              "details",
              {},
              h(
                "summary",
                {},
                `First ${answer.sampleUrls.length} URLs, as the robot may fetch them`,
              ),
              h(
                "ul",
                { class: "sample" },
                ...answer.sampleUrls.map((u) => {
                  const decision = this.tester.decide(u.loc);
                  return h(
                    "li",
                    {},
                    h("code", {}, u.loc),
                    decision === null
                      ? ""
                      : ` ${decision.allowed ? "allowed" : "disallowed"}${decision.line === null ? "" : ` (line ${decision.line})`}`,
                  );
                }),
              ),
            ),
      );
    } catch (error) {
      fill(out, h("p", { class: "bad" }, `Could not read it: ${(error as Error).message}`));
    }
  }

  /** The robots the read-through may flag for: the tester's robot in focus and those compared. */
  private listRobots(): void {
    const select = byId<HTMLSelectElement>("sitemap-robot");
    const robots = [this.tester.state.robot.agent, ...this.tester.state.compared].filter(
      (r) => r !== "",
    );
    const kept = select.value;
    fill(select, ...robots.map((r) => h("option", { value: r }, r)));
    if (robots.includes(kept)) select.value = kept;
  }

  /**
   * Reads every sitemap the file names, and the children of the indexes among them, and flags
   * each listed URL robots.txt blocks for the chosen robot.
   */
  private async readThrough(): Promise<void> {
    const status = byId("sitemaps-all-status");
    const agent = byId<HTMLSelectElement>("sitemap-robot").value;
    const queue = (this.tester.state.policy?.sitemaps ?? [])
      .map((s) => s.url)
      .filter(isRobotsSitemap);
    if (queue.length === 0 || agent === "") {
      status.textContent =
        agent === ""
          ? "Name a robot in the tester first."
          : "The robots.txt names no sitemap robots read.";
      return;
    }
    const seen = new Set(queue);
    const flagged: { url: string; line: number | null; sitemap: string }[] = [];
    const failed: string[] = [];
    let read = 0;
    let urls = 0;
    const from = this.tester.state.origin;
    while (queue.length > 0 && read < MAX_SITEMAPS_READ) {
      const url = queue.shift() as string;
      read++;
      status.textContent = `Reading ${url} (${read} read) …`;
      let answer: SitemapAnswer;
      try {
        answer = await getJson<SitemapAnswer>("/api/sitemap", {
          url,
          agent,
          all: "1",
          ...(from === null ? {} : { from }),
        });
      } catch (error) {
        failed.push(`${url}: ${(error as Error).message}`);
        continue;
      }
      if (answer.error !== null) failed.push(`${url}: ${answer.error}`);
      for (const child of answer.sampleSitemaps) {
        if (!seen.has(child.loc)) {
          seen.add(child.loc);
          queue.push(child.loc);
        }
      }
      for (const u of answer.sampleUrls) {
        urls++;
        const decision = this.tester.decide(u.loc, agent);
        if (decision !== null && !decision.allowed)
          flagged.push({ url: u.loc, line: decision.line, sitemap: url });
      }
    }
    status.textContent = `Read ${count(read, "sitemap")}${queue.length > 0 ? ` (${queue.length} more not read: at most ${MAX_SITEMAPS_READ})` : ""}: ${count(urls, "URL")}, ${flagged.length} blocked for ${agent}.`;
    fill(
      byId("sitemaps-all-result"),
      failed.length === 0
        ? null
        : h("ul", { class: "findings" }, ...failed.map((f) => h("li", { class: "bad" }, f))),
      flagged.length === 0
        ? h("p", {}, `robots.txt blocks none of the listed URLs for ${agent}.`)
        : h(
            "div",
            { class: "scroll-x" },
            h(
              "table",
              { id: "sitemap-flags" },
              h("caption", {}, `Listed in a sitemap, blocked for ${agent} by robots.txt`),
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  h("th", { scope: "col" }, "URL"),
                  h("th", { scope: "col" }, "Line"),
                  h("th", { scope: "col" }, "Sitemap"),
                ),
              ),
              h(
                "tbody",
                {},
                ...flagged
                  .slice(0, MAX_FLAGGED_SHOWN)
                  .map((f) =>
                    h(
                      "tr",
                      { class: "disallowed" },
                      h("th", { scope: "row" }, f.url),
                      h("td", {}, f.line === null ? "–" : String(f.line)),
                      h("td", {}, f.sitemap),
                    ),
                  ),
                flagged.length > MAX_FLAGGED_SHOWN
                  ? h(
                      "tr",
                      {},
                      h("td", { colspan: 3 }, `and ${flagged.length - MAX_FLAGGED_SHOWN} more`),
                    )
                  : null,
              ),
            ),
          ),
    );
  }

  private resolveAgent(): void {
    const out = byId("agent-answer");
    const url = byId<HTMLInputElement>("agent-url").value.trim();
    const servers = parseMobileAgentServers(this.tester.text);
    const findings = servers.diagnostics.map(
      (d) => `line ${d.line ?? "file"} ${d.code}: ${d.message}`,
    );
    byId("agent-records").textContent =
      servers.records.length === 0
        ? "The robots.txt has no Mobile-agent-server line."
        : `${servers.records.length} Mobile-agent-server line${servers.records.length === 1 ? "" : "s"}${findings.length === 0 ? "" : `; ${findings.join("; ")}`}`;
    if (url === "") {
      out.textContent = "";
      return;
    }
    const answer = servers.resolve(url);
    out.setAttribute("data-available", String(answer.available));
    out.textContent = answer.available
      ? `Mobile agents for this URL go to ${answer.host.text} (line ${answer.record.line}: ${answer.record.text})`
      : answer.reason === "none"
        ? `No agent host: line ${answer.record?.line ?? "?"} says none`
        : answer.reason === "invalid-url"
          ? `Not a URL: ${answer.error ?? ""}`
          : "No agent host: no Mobile-agent-server line covers this path";
  }

  private async fetchData(): Promise<void> {
    const site = byId<HTMLInputElement>("site").value.trim();
    const status = byId("data-status");
    if (site === "") {
      status.textContent = "Type the site in the tester first.";
      return;
    }
    status.textContent = `Fetching /data.txt of ${site} …`;
    try {
      const answer = await getJson<DataTxtAnswerJson>("/api/data-txt", {
        site,
        agent: this.tester.state.robot.agent,
      });
      if (answer.kind !== "found") {
        status.textContent = `GET ${answer.url}: ${answer.message ?? answer.kind}`;
        return;
      }
      byId<HTMLTextAreaElement>("data-text").value = answer.text ?? "";
      this.dataUrl = answer.url;
      status.textContent = `GET ${answer.url}: ${answer.status}${answer.cut ? " (cut at the size limit)" : ""}`;
      this.showData();
    } catch (error) {
      status.textContent = `Could not fetch: ${(error as Error).message}`;
    }
  }

  private showData(): void {
    const text = byId<HTMLTextAreaElement>("data-text").value;
    const body = byId("data-body");
    const notes = byId("data-notes");
    if (text.trim() === "") {
      fill(body);
      notes.textContent = "Paste a /data.txt, or fetch the site's.";
      return;
    }
    const dataTxt = readDataTxt(text, this.dataUrl === null ? {} : { url: this.dataUrl });
    const robot = this.tester.state.robot;
    const offer = offeredTo(dataTxt, robot.agent === "" ? "*" : robot.agent);
    const offered = new Set(offer.datasets.map((d) => d.entry));
    fill(
      notes,
      `${dataTxt.form} form (${dataTxt.formReason}); ${dataTxt.entries.length} datasets, ${offer.datasets.filter((d) => d.closedBy === null).length} offered to this robot.`,
      ...dataTxt.diagnostics.map((d) =>
        h(
          "span",
          { class: `finding ${d.severity}` },
          ` line ${d.line ?? "file"} `,
          h("code", {}, d.code),
          ` ${d.message}.`,
        ),
      ),
    );
    const rows = dataTxt.entries.map((entry) => {
      const closedBy = offer.datasets.find((d) => d.entry === entry)?.closedBy ?? null;
      const closed = !offered.has(entry)
        ? "no record for this robot"
        : closedBy !== null
          ? `closed by line ${closedBy.line}`
          : null;
      const urls = entry.urls.length === 0 ? [String(entry.path)] : entry.urls;
      const answers = urls.map((u) => {
        const d = this.tester.decide(u);
        return { url: u, allowed: d?.allowed ?? true, line: d?.line ?? null };
      });
      const may = closed === null && answers.every((a) => a.allowed);
      return h(
        "tr",
        { class: may ? "allowed" : "disallowed" },
        h("td", {}, entry.name ?? entry.title ?? String(entry.path)),
        h("td", {}, ...answers.map((a) => h("div", {}, h("code", {}, a.url)))),
        h("td", {}, closed ?? `offered (line ${entry.line})`),
        h(
          "td",
          {},
          ...answers.map((a) =>
            h(
              "div",
              {},
              `${a.allowed ? "allowed" : "disallowed"}${a.line === null ? "" : ` (line ${a.line})`}`,
            ),
          ),
        ),
        h("td", { class: "verdict" }, may ? "may fetch" : "may not fetch"),
      );
    });
    fill(body, ...rows);
  }
}

/** A sitemap with a button to read it, and the place its answer goes. */
function sitemapItem(url: string, where: string): HTMLLIElement {
  return h(
    "li",
    { "data-url": url },
    h("span", { class: "where" }, where),
    " ",
    h("code", {}, url),
    " ",
    h("button", { type: "button", "data-sitemap": url }, "Read it"),
    h("div", { class: "sitemap-result", role: "status" }),
  );
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
