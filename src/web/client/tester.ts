/**
 * The robots.txt tester: the file in the editor is parsed, linted and asked every URL in the
 * page itself, with heed's own protocol code bundled for the browser, so answers follow each
 * keystroke without a request. Fetching a site's robots.txt is the one request, and it goes
 * through heed's guarded client on the server.
 */
import {
  type AccessPlan,
  type Decision,
  type DialectChoice,
  type FetchVerdict,
  isRobotsSitemap,
  type LintFinding,
  productToken,
  type Robot,
  type RobotsPolicy,
} from "../../protocol/robots/index.js";
import type { RobotsAnswer } from "../fetches.js";
import { AnswerClient } from "./answer-client.js";
import { AnswerGrid } from "./answer-grid.js";
import type { AnswersMessage } from "./answer-messages.js";
import { decide, type SiteWide } from "./answer-text.js";
import { byId, debounce, fill, getJson, h, moment, setText } from "./dom.js";
import { Editor, type LineMarks, type Severity } from "./editor.js";
import { ParseCache } from "./parse-cache.js";

/** URLs asked at once: more lines are reported, not answered (the page must stay quick). */
export const MAX_URLS = 1000;
/**
 * Findings listed below the editor; the rest are marked at their lines in the editor all the
 * same. A file near the parse limit can have tens of thousands, which the page would take
 * seconds to lay out as a list no one reads whole.
 */
export const MAX_FINDINGS_LISTED = 500;
/** Robots compared beside the one in focus: each is a column of the answers. */
export const MAX_COMPARED = 24;
/**
 * Past this size the file is parsed and drawn once typing pauses for LARGE_FILE_DEBOUNCE_MS: a
 * robots.txt near the 500 KiB parse limit has tens of thousands of lines to draw.
 */
export const LARGE_FILE_CHARS = 64 * 1024;
export const LARGE_FILE_DEBOUNCE_MS = 250;
/**
 * Smaller files are parsed once a burst of keystrokes pauses this long: a typist's keystrokes
 * come 100 ms or more apart, so each is still answered at once, while a key held down or a
 * script's burst of events costs one parse.
 */
export const EDIT_DEBOUNCE_MS = 30;

const DIALECT_NAMES: Readonly<Record<string, string>> = {
  rfc9309: "RFC 9309",
  koster1996: "Koster 1996",
  regp: "REGP 3.0",
};

export interface TesterState {
  /**
   * The file as parsed, for the other views: parsed in the page only when one of them asks (the
   * tester's own answers are worked out in the answering worker).
   */
  readonly policy: RobotsPolicy | null;
  /** The robot in focus, for the other views. */
  robot: Robot;
  /** The robots compared beside it. */
  compared: readonly string[];
  /** When a fetched robots.txt's status decided for the whole site. */
  siteWide: SiteWide | null;
  verdict: FetchVerdict | null;
  origin: string | null;
}

export class Tester {
  readonly state: TesterState;
  private readonly editor: Editor;
  readonly grid: AnswerGrid;
  readonly answers: AnswerClient;
  private readonly parsed = new ParseCache();
  private findings: readonly LintFinding[] = [];
  /** The findings listed, as JSON. */
  private findingsShown = "";
  /** The URLs field as last read, and the URLs last sent to the worker. */
  private urlsField: { value: string; urls: string[] } = { value: "", urls: [] };
  private sentUrls: string | null = null;
  /** What the worker last said of the robot in focus's answers, for the editor's marks. */
  private decided: ReadonlyMap<number, boolean> = new Map();
  private chosen: { url: string; decision: Decision } | null = null;
  /** The answer whose plan is shown, as JSON. */
  private planShown = "";
  /** An edit waits for typing to pause before it is sent. */
  private scheduled = false;
  /** A row was picked: its line is shown once its answer comes. */
  private goToChosen = false;
  /** Called after each update (the other views follow the file and the robots). */
  onChange: () => void = () => undefined;

  /** `scriptUrl`: the page's own script, which the answering worker runs. */
  constructor(scriptUrl: string) {
    const parse = () => this.policy();
    this.state = {
      get policy() {
        return parse();
      },
      robot: { agent: "" },
      compared: [],
      siteWide: null,
      verdict: null,
      origin: null,
    };
    this.editor = new Editor(
      byId<HTMLTextAreaElement>("robots"),
      byId("backdrop"),
      byId("gutter-lines"),
    );
    this.grid = new AnswerGrid(
      byId<HTMLTableElement>("answers"),
      byId<HTMLTableRowElement>("answers-head-row"),
      byId<HTMLTableSectionElement>("answers-body"),
      byId("answers-scroll"),
    );
    this.answers = new AnswerClient(scriptUrl, (message, newest) =>
      this.showAnswers(message, newest),
    );
    const soon = debounce(() => this.update(), EDIT_DEBOUNCE_MS);
    const later = debounce(() => this.update(), LARGE_FILE_DEBOUNCE_MS);
    const schedule = () => {
      // Marked at once, so that whoever waits for the answers waits for this edit's.
      document.body.setAttribute("data-answering", "");
      this.scheduled = true;
      if (this.editor.text.length > LARGE_FILE_CHARS) later();
      else soon();
    };
    this.editor.textarea.addEventListener("input", () => {
      // The file is now the user's own: a fetched status no longer speaks for it.
      this.state.siteWide = null;
      this.state.verdict = null;
      schedule();
    });
    for (const id of [
      "dialect",
      "agent",
      "urls",
      "ip",
      "at",
      "languages",
      "encodings",
      "charsets",
      "crawlers",
      "other-robots",
    ]) {
      byId(id).addEventListener(id === "crawlers" ? "change" : "input", schedule);
    }
    byId("fetch-form").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.fetchSite();
    });
    byId("answers").addEventListener("click", (event) => {
      const button = (event.target as Element).closest("button[data-row]");
      if (button === null) return;
      this.grid.select(Number(button.getAttribute("data-row")));
      this.goToChosen = true;
      this.update();
    });
    byId("lint-list").addEventListener("click", (event) => {
      const button = (event.target as Element).closest("button[data-line]");
      if (button !== null) this.editor.goTo(Number(button.getAttribute("data-line")));
    });
  }

  /**
   * The answer for one URL as the answers table gives it, for the robot in focus or another:
   * the fetched status when it decided for the whole site, else the file's rules.
   */
  decide(url: string, agent = this.state.robot.agent): Decision | null {
    const { policy, robot, siteWide } = this.state;
    if (policy === null || agent === "") return null;
    return decide({ policy, robot: { ...robot, agent }, siteWide }, url);
  }

  get text(): string {
    return this.editor.text;
  }

  setText(text: string): void {
    this.editor.text = text;
    this.update();
  }

  /** The URLs asked, as typed (at most MAX_URLS are answered). */
  urls(): string[] {
    const value = byId<HTMLTextAreaElement>("urls").value;
    if (value !== this.urlsField.value)
      this.urlsField = {
        value,
        urls: value
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter((l) => l !== ""),
      };
    return this.urlsField.urls;
  }

  /** Sends the edit to the answering worker, which parses, lints and answers what changed. */
  update(): void {
    const started = performance.now();
    this.scheduled = false;
    const dialect = byId<HTMLSelectElement>("dialect").value as DialectChoice;
    const { origin, verdict, siteWide } = this.state;
    this.state.robot = this.robot();
    this.state.compared = this.compared();
    this.showToken();
    const urls = this.urls();
    setText(
      byId("urls-note"),
      urls.length > MAX_URLS
        ? `only the first ${MAX_URLS} of ${urls.length} URLs are answered`
        : "",
    );
    const asked = urls.length > MAX_URLS ? urls.slice(0, MAX_URLS) : urls;
    const changed = this.sentUrls !== this.urlsField.value;
    this.sentUrls = this.urlsField.value;
    document.body.setAttribute("data-answering", "");
    this.answers.ask({
      text: this.editor.text,
      dialect,
      origin,
      verdict,
      siteWide,
      robots: this.robots(),
      ...(changed ? { urls: asked } : {}),
      selected: this.grid.selected,
    });
    this.showBanner();
    performance.measure("heed:update", { start: started, end: performance.now() });
    this.onChange();
  }

  /** One reply of the worker: lint's findings when it parsed, the rows that changed. */
  private showAnswers(message: AnswersMessage, newest: boolean): void {
    if (message.lint !== undefined) {
      this.findings = message.lint.findings;
      const shown = JSON.stringify(this.findings);
      if (shown !== this.findingsShown)
        this.showFindings(message.lint.errors, message.lint.warnings, message.lint.infos);
      this.findingsShown = shown;
      this.showDialect(message.lint);
    }
    this.grid.apply(message);
    this.decided = new Map(message.decided);
    this.chosen = message.selected;
    if (this.grid.selected >= this.grid.length) this.grid.select(0);
    this.drawMarks();
    // Settled when this answers the newest edit sent, and no edit waits to be sent.
    if (newest && !this.scheduled) {
      const line = this.chosen?.decision.line ?? null;
      if (this.goToChosen && line !== null) this.editor.goTo(line);
      this.goToChosen = false;
      document.body.removeAttribute("data-answering");
    }
  }

  /** The file parsed in the page, for the other views (kept until an input changes). */
  private policy(): RobotsPolicy {
    const { policy, fresh } = this.parsed.parse({
      text: this.editor.text,
      dialect: byId<HTMLSelectElement>("dialect").value as DialectChoice,
      origin: this.state.origin,
      verdict: this.state.verdict,
    });
    // Marked, so that the page's tests see that typing in the tester parses nothing here.
    if (fresh) performance.mark("heed:parse");
    return policy;
  }

  /** When the fetched status decides for the whole site, a banner says so. */
  private showBanner(): void {
    const closed = this.state.siteWide;
    const banner = byId("site-banner");
    banner.hidden = closed === null;
    banner.className = closed?.allowed === false ? "banner closed" : "banner open";
    setText(
      banner,
      closed === null
        ? ""
        : closed.allowed
          ? `The site is open to every robot: ${closed.detail}`
          : `The site is closed to robots: ${closed.detail}`,
    );
  }

  /** The robot in focus, then those compared (each with the focus robot's IP, time and abilities). */
  robots(): Robot[] {
    const robot = this.state.robot;
    return [robot, ...this.state.compared.map((agent) => ({ ...robot, agent }))];
  }

  /** The robots picked from the known crawlers and typed, less the one in focus. */
  private compared(): string[] {
    const picked = [
      ...byId("crawlers").querySelectorAll<HTMLInputElement>("input[type=checkbox]:checked"),
    ].map((box) => box.value);
    const typed = byId<HTMLInputElement>("other-robots").value.split(",");
    const seen = new Set([this.state.robot.agent.toLowerCase()]);
    const out: string[] = [];
    for (const agent of [...picked, ...typed].map((a) => a.trim())) {
      if (agent === "" || seen.has(agent.toLowerCase()) || out.length >= MAX_COMPARED) continue;
      seen.add(agent.toLowerCase());
      out.push(agent);
    }
    return out;
  }

  private robot(): Robot {
    const value = (id: string) => byId<HTMLInputElement>(id).value.trim();
    const list = (id: string) =>
      value(id) === ""
        ? undefined
        : value(id)
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s !== "");
    const at = this.moment();
    const languages = list("languages");
    const encodings = list("encodings");
    const charsets = list("charsets");
    return {
      agent: value("agent"),
      ...(value("ip") === "" ? {} : { ip: value("ip") }),
      at: at.ms,
      ...(languages === undefined ? {} : { languages }),
      ...(encodings === undefined ? {} : { encodings }),
      ...(charsets === undefined ? {} : { charsets }),
    };
  }

  /** The visit's moment: the time field (RFC 3339), or now. */
  private moment(): { ms: number; note: string } {
    const text = byId<HTMLInputElement>("at").value.trim();
    const note = byId("at-note");
    if (text === "") {
      const now = Date.now();
      setText(note, `now: ${moment(now)}`);
      return { ms: now, note: "now" };
    }
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) {
      setText(note, `not a time heed can read (write 2026-11-24T10:00:00Z); using now`);
      return { ms: Date.now(), note: "now" };
    }
    setText(note, moment(ms));
    return { ms, note: moment(ms) };
  }

  private showDialect(lint: NonNullable<AnswersMessage["lint"]>): void {
    const choice = byId<HTMLSelectElement>("dialect").value as DialectChoice;
    const name = DIALECT_NAMES[lint.dialect] ?? lint.dialect;
    const out = byId("dialect-why");
    if (choice !== "auto") {
      setText(out, `${name}, as chosen`);
      return;
    }
    setText(
      out,
      lint.robotVersion === null
        ? `auto chose ${name}: the file has no Robot-version line`
        : `auto chose ${name}: line ${lint.versionLine ?? "?"} says Robot-version: ${lint.robotVersion}`,
    );
  }

  private showToken(): void {
    const agent = this.state.robot.agent;
    const out = byId("token");
    if (agent === "") {
      setText(out, "name a robot");
      return;
    }
    const token = productToken(agent);
    setText(
      out,
      token === agent ? `token: ${token}` : `heed matches the token ${token} (from the User-Agent)`,
    );
  }

  private showFindings(errors: number, warnings: number, infos: number): void {
    const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    setText(
      byId("lint-summary"),
      this.findings.length === 0
        ? "No findings."
        : `${count(errors, "error")}, ${count(warnings, "warning")}, ${count(infos, "note")}.`,
    );
    // The file's own findings first (a cut file, say), then by line, as lint gives them.
    const listed = [
      ...this.findings.filter((f) => f.line === null),
      ...this.findings.filter((f) => f.line !== null),
    ].slice(0, MAX_FINDINGS_LISTED);
    const more = this.findings.length - listed.length;
    fill(
      byId("lint-list"),
      ...listed.map((f) =>
        h(
          "li",
          { class: `finding ${f.severity}`, "data-line": f.line ?? "", "data-code": f.code },
          f.line === null
            ? h("span", { class: "where" }, "file")
            : h(
                "button",
                { type: "button", class: "where", "data-line": f.line },
                `line ${f.line}`,
              ),
          " ",
          h("span", { class: `severity ${f.severity}` }, f.severity),
          " ",
          h("code", {}, f.code),
          " ",
          f.message,
        ),
      ),
      more > 0
        ? h("li", { class: "more" }, `and ${more} more, each marked at its line in the editor`)
        : null,
    );
  }

  /** The editor's marks: the lines that decided, the selected answer's line and group, lint. */
  private drawMarks(): void {
    const findings = new Map<number, { severity: Severity; code: string; message: string }[]>();
    for (const f of this.findings) {
      if (f.line === null) continue;
      const list = findings.get(f.line) ?? [];
      list.push({ severity: f.severity, code: f.code, message: f.message });
      findings.set(f.line, list);
    }
    const marks: LineMarks = {
      decided: this.decided,
      current: this.chosen?.decision.line ?? null,
      group: this.chosen?.decision.group?.lines ?? [],
      findings,
    };
    this.editor.draw(marks);
    const plan = JSON.stringify(this.chosen);
    if (plan !== this.planShown) showPlan(this.chosen);
    this.planShown = plan;
  }

  private async fetchSite(): Promise<void> {
    const site = byId<HTMLInputElement>("site").value.trim();
    const status = byId("fetch-status");
    if (site === "") {
      status.textContent = "Type a site first, e.g. https://example.com";
      return;
    }
    status.textContent = `Fetching the robots.txt of ${site} …`;
    try {
      const answer = await getJson<RobotsAnswer>("/api/robots", {
        site,
        agent: byId<HTMLInputElement>("agent").value,
      });
      const { verdict } = answer;
      status.textContent = `GET ${answer.url}${answer.finalUrl !== answer.url ? ` (→ ${answer.finalUrl})` : ""}: ${verdict.why}`;
      status.setAttribute("data-action", verdict.action);
      this.state.origin = new URL(answer.url).origin;
      this.editor.text = answer.text ?? "";
      this.state.verdict = verdict;
      this.state.siteWide =
        verdict.action === "parse"
          ? null
          : { allowed: verdict.action === "allow-all", detail: verdict.why };
      this.update();
    } catch (error) {
      status.textContent = `Could not fetch: ${(error as Error).message}`;
      status.setAttribute("data-action", "error");
    }
  }
}

function showPlan(chosen: { url: string; decision: Decision } | null): void {
  const out = byId("plan");
  if (chosen === null) {
    fill(out, h("p", {}, "Ask a URL to see how the robot should fetch it."));
    return;
  }
  const { decision, url } = chosen;
  const plan: AccessPlan | undefined = decision.plan;
  const rows: [string, string][] = [];
  const at = (line: number) => ` (line ${line})`;
  if (plan !== undefined) {
    rows.push(["Gap before the next request", `${plan.delaySeconds} s`]);
    if (plan.crawlDelay !== null)
      rows.push([
        "Crawl-delay (every robot of this name)",
        `${plan.crawlDelay.value} s${at(plan.crawlDelay.line)}`,
      ]);
    if (plan.ipDelay !== null)
      rows.push(["Ip-delay (this IP)", `${plan.ipDelay.value} s${at(plan.ipDelay.line)}`]);
    for (const r of plan.rates)
      rows.push([
        r.scope === "agent" ? "Request-rate" : "Ip-rate",
        `at most ${r.requests} per ${r.seconds} s, counted from the first visit${at(r.line)}`,
      ]);
    for (const t of plan.times)
      rows.push([
        t.kind === "visit" ? "Visit-time" : "Time-forbidden",
        `${t.text.replace(/^[^:]*:\s*/, "")}${at(t.line)}`,
      ]);
    if (plan.times.length > 0)
      rows.push([
        "At the time asked",
        decision.reason === "time"
          ? decision.next === null || decision.next === undefined
            ? "closed, and it does not open again"
            : `closed; next opening ${moment(decision.next)}`
          : "open",
      ]);
    if (plan.cookie !== null)
      rows.push(["Cookie to send", `${plan.cookie.value}${at(plan.cookie.line)}`]);
    if (plan.mirror !== null)
      rows.push(["Mirror-site: crawl instead", `${plan.mirror.value}${at(plan.mirror.line)}`]);
    if (plan.host !== null)
      rows.push(["Host (canonical)", `${plan.host.value}${at(plan.host.line)}`]);
    for (const [key, name] of [
      ["language", "Language"],
      ["encoding", "Encoding"],
      ["charset", "Charset"],
    ] as const) {
      const need = plan.requires[key];
      if (need !== null)
        rows.push([`${name} required (one of)`, `${need.value.join(", ")}${at(need.line)}`]);
    }
    if (plan.indexPage !== null)
      rows.push(["Index-page", `${plan.indexPage.value}${at(plan.indexPage.line)}`]);
    if (plan.change !== null) rows.push(["Changes", `${plan.change.value}${at(plan.change.line)}`]);
    // Only the sitemaps robots read: lint's bad-sitemap says robots ignore the others.
    for (const s of plan.sitemaps)
      if (isRobotsSitemap(s.value)) rows.push(["Sitemap", `${s.value}${at(s.line)}`]);
  }
  fill(
    out,
    h("p", { class: "plan-for" }, `For ${url}, as ${decision.agent || "(no robot)"}:`),
    rows.length === 0
      ? h("p", {}, "Nothing to plan: no delays, windows or requirements.")
      : h(
          "table",
          { class: "plan", id: "plan-table" },
          h("caption", { class: "sr-only" }, "Access plan"),
          h(
            "tbody",
            {},
            ...rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v))),
          ),
        ),
  );
}
