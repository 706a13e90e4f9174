/**
 * The edited file against the live one: the site's robots.txt fetched again (through the
 * server's guarded client), how robots read it (a status that decides for the whole site, a
 * redirect, a file past the parse limit, an HTML page served as robots.txt), the lines that
 * differ, and the answers the edit changes for every URL and robot of the tester.
 */
import {
  type DialectChoice,
  htmlPageLine,
  MAX_ROBOTS_BYTES,
  MAX_ROBOTS_REDIRECTS,
  parseRobots,
  type Robot,
  type RobotsPolicy,
} from "../../protocol/robots/index.js";
import type { RobotsAnswer } from "../fetches.js";
import type { AnswerClient } from "./answer-client.js";
import { shortText } from "./answer-text.js";
import { byId, fill, getJson, h } from "./dom.js";
import { lineDiff } from "./line-diff.js";

/** Changed answers listed; the count covers them all. */
export const MAX_CHANGES_SHOWN = 500;

export interface HealthNote {
  /** `status`, `redirect`, `size`, `html` or `ok`. */
  readonly code: string;
  readonly severity: "error" | "warning" | "info";
  readonly text: string;
}

/** How robots read the live file, in the order a webmaster would look. */
export function liveHealth(answer: RobotsAnswer, policy: RobotsPolicy): HealthNote[] {
  const notes: HealthNote[] = [];
  const { verdict, status } = answer;
  if (verdict.action !== "parse") {
    notes.push({
      code: "status",
      severity: verdict.action === "allow-all" ? "warning" : "error",
      text:
        verdict.action === "unreachable"
          ? `${verdict.why}: robots treat the whole site as closed until it answers (RFC 9309 §2.3.1.3)`
          : verdict.action === "disallow-all"
            ? `${verdict.why}: robots treat the whole site as closed`
            : `${verdict.why}: robots treat the whole site as open; the file's rules are not read`,
    });
  }
  if (answer.redirects > 0) {
    const other = new URL(answer.finalUrl).origin !== new URL(answer.url).origin;
    notes.push({
      code: "redirect",
      severity: "warning",
      text: `${answer.url} redirects (${answer.redirects} hop${answer.redirects === 1 ? "" : "s"}) to ${answer.finalUrl}${other ? ", on another site" : ""}: robots follow up to ${MAX_ROBOTS_REDIRECTS} redirects (RFC 9309 §2.3.1.2) and read the file found there`,
    });
  }
  if (answer.cut || policy.truncated) {
    notes.push({
      code: "size",
      severity: "error",
      text: `the file is larger than ${MAX_ROBOTS_BYTES / 1024} KiB: robots read only the first ${MAX_ROBOTS_BYTES / 1024} KiB (RFC 9309 §2.5); the rules after it are ignored`,
    });
  }
  const html = verdict.action === "parse" ? htmlPageLine(policy.text) : null;
  if (html !== null) {
    notes.push({
      code: "html",
      severity: "error",
      text: `line ${html} opens an HTML page: the site serves a web page as /robots.txt, and robots find no rules in it`,
    });
  }
  if (notes.length === 0)
    notes.push({
      code: "ok",
      severity: "info",
      text: `${status ?? ""}: robots read the live file as it is written`,
    });
  return notes;
}

export interface CompareInput {
  readonly site: string;
  readonly editedText: string;
  readonly dialect: DialectChoice;
  readonly robots: readonly Robot[];
  readonly urls: readonly string[];
  /** The answering worker, which works out the changed answers. */
  readonly answers: AnswerClient;
}

/** Fetches the live file and shows the comparison in #diff. */
export async function compareWithLive(input: CompareInput): Promise<void> {
  const status = byId("tools-status");
  if (input.site === "") {
    status.textContent = "Type the site first (above the editor), e.g. https://example.com";
    return;
  }
  status.textContent = `Fetching the live robots.txt of ${input.site} …`;
  let answer: RobotsAnswer;
  try {
    answer = await getJson<RobotsAnswer>("/api/robots", {
      site: input.site,
      agent: input.robots[0]?.agent ?? "",
    });
  } catch (error) {
    status.textContent = `Could not fetch the live file: ${(error as Error).message}`;
    return;
  }
  const origin = new URL(answer.url).origin;
  const liveText = answer.text ?? "";
  const policy = parseRobots(liveText, { dialect: input.dialect, origin });
  const siteWide =
    answer.verdict.action === "parse"
      ? null
      : { allowed: answer.verdict.action === "allow-all", detail: answer.verdict.why };
  const { changes } = await input.answers.diff({
    liveText,
    liveSiteWide: siteWide,
    editedText: input.editedText,
    dialect: input.dialect,
    origin,
    robots: input.robots,
    urls: input.urls,
  });
  const diff = lineDiff(liveText, input.editedText);
  const added = diff.filter((d) => d.op === "added").length;
  const removed = diff.filter((d) => d.op === "removed").length;
  status.textContent = `Compared with ${answer.url}.`;
  byId("diff").hidden = false;
  byId("diff-summary").textContent =
    `${answer.url}: ${removed} line${removed === 1 ? "" : "s"} removed, ${added} added; the edit changes ${changes.length} of ${input.urls.length * input.robots.length} answers.`;
  fill(
    byId("live-health"),
    ...liveHealth(answer, policy).map((n) =>
      h(
        "li",
        { class: `finding ${n.severity}`, "data-code": n.code },
        h("span", { class: `severity ${n.severity}` }, n.severity),
        " ",
        n.text,
      ),
    ),
  );
  fill(
    byId("diff-answers-body"),
    ...changes
      .slice(0, MAX_CHANGES_SHOWN)
      .map((c) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, c.url),
          h("td", {}, c.robot),
          h("td", { class: c.live.allowed ? "allowed" : "disallowed" }, shortText(c.live)),
          h("td", { class: c.edited.allowed ? "allowed" : "disallowed" }, shortText(c.edited)),
        ),
      ),
    changes.length > MAX_CHANGES_SHOWN
      ? h("tr", {}, h("td", { colspan: 4 }, `and ${changes.length - MAX_CHANGES_SHOWN} more`))
      : null,
  );
  fill(
    byId("diff-lines"),
    ...diff.map((d) =>
      h(
        "li",
        { class: `diff ${d.op}` },
        h("span", { class: "sign" }, d.op === "added" ? "+ " : d.op === "removed" ? "− " : "  "),
        h("span", { class: "sr-only" }, d.op === "same" ? "" : `${d.op}: `),
        d.text,
      ),
    ),
  );
}
