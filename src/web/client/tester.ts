/**
 * The robots.txt tester: the file in the editor is parsed, linted and asked every URL in the
 * page itself, with heed's own protocol code bundled for the browser, so answers follow each
 * keystroke without a request. Fetching a site's robots.txt is the one request, and it goes
 * through heed's guarded client on the server.
 */
import {
  type AccessPlan,
  BASIS_TEXT,
  type Decision,
  type DialectChoice,
  type FetchVerdict,
  type LintFinding,
  lintPolicy,
  parseRobots,
  productToken,
  type Robot,
  type RobotsPolicy,
  siteWideDecision,
} from "../../protocol/robots/index.js";
import { hasUsageLines, usageFor } from "../../protocol/usage/index.js";
import type { RobotsAnswer } from "../fetches.js";
import { byId, debounce, fill, getJson, h, moment } from "./dom.js";
import { Editor, type LineMarks, type Severity } from "./editor.js";

/** URLs asked at once: more lines are reported, not answered (the page must stay quick). */
export const MAX_URLS = 1000;
/**
 * Past this size the file is parsed and drawn once typing pauses, not at each keystroke: a
 * robots.txt near the 500 KiB parse limit has tens of thousands of lines to draw.
 */
export const LARGE_FILE_CHARS = 64 * 1024;
export const LARGE_FILE_DEBOUNCE_MS = 250;

const DIALECT_NAMES: Readonly<Record<string, string>> = {
  rfc9309: "RFC 9309",
  koster1996: "Koster 1996",
  regp: "REGP 3.0",
};

const REASON_TEXT: Readonly<Record<Decision["reason"], string>> = {
  rule: "a rule decided",
  default: "no rule decided",
  ip: "the robot's IP is refused: the whole site is closed to it",
  time: "outside the visiting hours",
  language: "the robot supports none of the languages the site requires",
  encoding: "the robot supports none of the encodings the site requires",
  charset: "the robot supports none of the charsets the site requires",
  "robots-txt": "/robots.txt itself is always allowed",
  "fetch-status": "the answer to GET /robots.txt decided for the whole site",
  "other-origin": "the URL is on another site",
  "invalid-url": "the URL cannot be read",
  "invalid-query": "the question cannot be answered",
};

export interface TesterState {
  /** The last policy parsed, for the other views. */
  policy: RobotsPolicy | null;
  /** The robot's description, for the other views. */
  robot: Robot;
  /** When a fetched robots.txt's status decided for the whole site. */
  siteWide: { readonly allowed: boolean; readonly detail: string } | null;
  verdict: FetchVerdict | null;
  origin: string | null;
}

export class Tester {
  readonly state: TesterState = {
    policy: null,
    robot: { agent: "" },
    siteWide: null,
    verdict: null,
    origin: null,
  };
  private readonly editor: Editor;
  private selected = 0;
  private decisions: { url: string; decision: Decision }[] = [];
  private findings: readonly LintFinding[] = [];
  /** Called after every recomputation (the other views follow the file and the robot). */
  onChange: () => void = () => undefined;

  constructor() {
    this.editor = new Editor(
      byId<HTMLTextAreaElement>("robots"),
      byId("backdrop"),
      byId("gutter-lines"),
    );
    const later = debounce(() => this.update(), LARGE_FILE_DEBOUNCE_MS);
    this.editor.textarea.addEventListener("input", () => {
      // The file is now the user's own: a fetched status no longer speaks for it.
      this.state.siteWide = null;
      this.state.verdict = null;
      // A small file is answered at each keystroke; a large one once typing pauses.
      if (this.editor.text.length > LARGE_FILE_CHARS) later();
      else this.update();
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
    ]) {
      byId(id).addEventListener("input", () => this.update());
    }
    byId("fetch-form").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.fetchSite();
    });
    byId("answers").addEventListener("click", (event) => {
      const button = (event.target as Element).closest("button[data-row]");
      if (button === null) return;
      this.select(Number(button.getAttribute("data-row")), true);
    });
    byId("lint-list").addEventListener("click", (event) => {
      const button = (event.target as Element).closest("button[data-line]");
      if (button !== null) this.editor.goTo(Number(button.getAttribute("data-line")));
    });
  }

  /**
   * The answer for one URL as the answers table gives it: the fetched status when it decided
   * for the whole site, else the file's rules. For the other views.
   */
  decide(url: string): Decision | null {
    const { policy, robot, siteWide } = this.state;
    if (policy === null || robot.agent === "") return null;
    if (siteWide !== null && !/\/robots\.txt([?#]|$)/.test(url)) {
      return siteWideDecision(
        siteWide.allowed,
        siteWide.detail,
        productToken(robot.agent),
        policy.dialect,
      );
    }
    return policy.check(url, robot);
  }

  get text(): string {
    return this.editor.text;
  }

  setText(text: string): void {
    this.editor.text = text;
    this.update();
  }

  /** Parses, lints and answers again: on every keystroke. */
  update(): void {
    const dialect = byId<HTMLSelectElement>("dialect").value as DialectChoice;
    const policy = parseRobots(this.editor.text, {
      dialect,
      ...(this.state.origin === null ? {} : { origin: this.state.origin }),
    });
    this.state.policy = policy;
    this.state.robot = this.robot();
    this.showDialect(policy, dialect);
    this.showToken();
    const report = lintPolicy(
      policy,
      this.state.verdict === null ? {} : { verdict: this.state.verdict },
    );
    this.findings = report.findings;
    this.showFindings(report.errors, report.warnings, report.infos);
    this.answer(policy);
    this.onChange();
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
      note.textContent = `now: ${moment(now)}`;
      return { ms: now, note: "now" };
    }
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) {
      note.textContent = `not a time heed can read (write 2026-11-24T10:00:00Z); using now`;
      return { ms: Date.now(), note: "now" };
    }
    note.textContent = moment(ms);
    return { ms, note: moment(ms) };
  }

  private showDialect(policy: RobotsPolicy, choice: DialectChoice): void {
    const name = DIALECT_NAMES[policy.dialect] ?? policy.dialect;
    const out = byId("dialect-why");
    if (choice !== "auto") {
      out.textContent = `${name}, as chosen`;
      return;
    }
    const versionLine = policy.text.lines.find((l) => l.key.toLowerCase() === "robot-version");
    out.textContent =
      policy.robotVersion === null
        ? `auto chose ${name}: the file has no Robot-version line`
        : `auto chose ${name}: line ${versionLine?.number ?? "?"} says Robot-version: ${policy.robotVersion}`;
  }

  private showToken(): void {
    const agent = this.state.robot.agent;
    const out = byId("token");
    if (agent === "") {
      out.textContent = "name a robot";
      return;
    }
    const token = productToken(agent);
    out.textContent =
      token === agent ? `token: ${token}` : `heed matches the token ${token} (from the User-Agent)`;
  }

  private showFindings(errors: number, warnings: number, infos: number): void {
    const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    byId("lint-summary").textContent =
      this.findings.length === 0
        ? "No findings."
        : `${count(errors, "error")}, ${count(warnings, "warning")}, ${count(infos, "note")}.`;
    fill(
      byId("lint-list"),
      ...this.findings.map((f) =>
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
    );
  }

  private answer(policy: RobotsPolicy): void {
    const lines = byId<HTMLTextAreaElement>("urls")
      .value.split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== "");
    const robot = this.state.robot;
    const siteWide = this.state.siteWide;
    this.decisions = lines.slice(0, MAX_URLS).map((url) => ({
      url,
      decision:
        robot.agent === ""
          ? {
              ...siteWideDecision(false, "", "", policy.dialect),
              reason: "invalid-query",
              error: "no robot named",
            }
          : siteWide !== null && !/\/robots\.txt([?#]|$)/.test(url)
            ? siteWideDecision(
                siteWide.allowed,
                siteWide.detail,
                productToken(robot.agent),
                policy.dialect,
              )
            : policy.check(url, robot),
    }));
    byId("urls-note").textContent =
      lines.length > MAX_URLS
        ? `only the first ${MAX_URLS} of ${lines.length} URLs are answered`
        : "";
    if (this.selected >= this.decisions.length) this.selected = 0;
    this.drawAnswers();
    this.select(this.selected, false);
  }

  /**
   * The usage preferences robots.txt states for the URL and the robot (docs/usage-preferences.md):
   * each category with a value, and the line that said it.
   */
  private usageText(url: string, decision: Decision): string {
    const policy = this.state.policy;
    if (policy === null || !hasUsageLines(policy)) return "";
    if (decision.error !== undefined || this.state.siteWide !== null) return "";
    if (!decision.allowed) return "none: not crawlable";
    const answer = usageFor({
      url,
      agent: this.state.robot.agent,
      robots: policy,
      crawlable: true,
    });
    const said = Object.entries(answer.categories)
      .filter(([, a]) => a.value !== "unknown")
      .map(
        ([category, a]) => `${category} ${a.value}${a.from?.line ? ` (line ${a.from.line})` : ""}`,
      );
    return said.length === 0 ? "none stated" : said.join("; ");
  }

  private drawAnswers(): void {
    const rows = this.decisions.map(({ url, decision }, i) =>
      h(
        "tr",
        {
          class: `answer ${decision.allowed ? "allowed" : "disallowed"}`,
          "data-row": i,
          "data-line": decision.line ?? "",
          "data-reason": decision.reason,
        },
        h(
          "td",
          { class: "url" },
          h("button", { type: "button", "data-row": i, class: "link" }, url),
        ),
        h("td", { class: "verdict" }, decision.allowed ? "allowed" : "disallowed"),
        h("td", { class: "line" }, decision.line === null ? "–" : String(decision.line)),
        h("td", { class: "rule" }, decision.rule ?? ""),
        h("td", { class: "group" }, groupText(decision)),
        h("td", { class: "reason" }, reasonText(decision)),
        h("td", { class: "usage" }, this.usageText(url, decision)),
      ),
    );
    fill(byId("answers-body"), ...rows);
    const closed = this.state.siteWide;
    const banner = byId("site-banner");
    banner.hidden = closed === null;
    banner.className = closed?.allowed === false ? "banner closed" : "banner open";
    banner.textContent =
      closed === null
        ? ""
        : closed.allowed
          ? `The site is open to every robot: ${closed.detail}`
          : `The site is closed to robots: ${closed.detail}`;
  }

  /** Selects an answer: its deciding line is highlighted, its plan shown. */
  private select(index: number, moveCursor: boolean): void {
    this.selected = index;
    const chosen = this.decisions[index];
    for (const row of byId("answers-body").querySelectorAll("tr")) {
      row.classList.toggle("selected", row.getAttribute("data-row") === String(index));
      if (row.getAttribute("data-row") === String(index)) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
    }
    const decided = new Map<number, boolean>();
    for (const { decision } of this.decisions)
      if (decision.line !== null) decided.set(decision.line, decision.allowed);
    const findings = new Map<number, { severity: Severity; code: string; message: string }[]>();
    for (const f of this.findings) {
      if (f.line === null) continue;
      const list = findings.get(f.line) ?? [];
      list.push({ severity: f.severity, code: f.code, message: f.message });
      findings.set(f.line, list);
    }
    const marks: LineMarks = {
      decided,
      current: chosen?.decision.line ?? null,
      group: chosen?.decision.group?.lines ?? [],
      findings,
    };
    this.editor.draw(marks);
    const line = chosen?.decision.line ?? null;
    if (moveCursor && line !== null) this.editor.goTo(line);
    showPlan(chosen ?? null);
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

function groupText(decision: Decision): string {
  const group = decision.group;
  if (group === null) return decision.reason === "default" ? "none" : "";
  return group.agents
    .map((agent, i) => `User-agent: ${agent} (line ${group.lines[i] ?? "?"})`)
    .join(", ");
}

function reasonText(decision: Decision): string {
  if (decision.error !== undefined && decision.error !== "")
    return `${REASON_TEXT[decision.reason]}: ${decision.error}`;
  if (decision.reason === "default" && decision.basis !== undefined)
    return BASIS_TEXT[decision.basis];
  if (decision.reason === "time") {
    const next = decision.next;
    return `${REASON_TEXT.time}${next === null || next === undefined ? "; it does not open again" : `; opens ${moment(next)}`}`;
  }
  if (decision.reason === "fetch-status") return decision.detail ?? REASON_TEXT["fetch-status"];
  const base = REASON_TEXT[decision.reason];
  return decision.detail === undefined ? base : `${base}: ${decision.detail}`;
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
    for (const s of plan.sitemaps) rows.push(["Sitemap", `${s.value}${at(s.line)}`]);
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
