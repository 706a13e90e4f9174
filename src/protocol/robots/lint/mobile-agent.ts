/**
 * Mobile-agent-server lines (seeds/000 §3): the reader's diagnostics, lines that can never
 * decide because a later line covers them (the last match wins, DESIGN §5), and hosts of a
 * protocol heed cannot dispatch to.
 */
import { MobileAgentServers } from "../mobile-agent/servers.js";
import type { LintContext } from "./finding.js";

export function lintMobileAgentServers(ctx: LintContext): void {
  const servers = new MobileAgentServers(ctx.policy.text);
  for (const d of servers.diagnostics) ctx.add(d.line, d.severity, d.code, d.message);
  for (const record of servers.records) {
    // A later line whose path is a prefix of this one's wins for every URL this one matches.
    const later = servers.shadowOf(record);
    if (later !== null) {
      ctx.add(
        record.line,
        "warning",
        "agent-server-shadowed",
        `Mobile-agent-server for "${record.path}" never applies: line ${later.line} ("${later.path}") comes later and covers it, and the last matching line wins (docs/mobile-agents.md#reading-the-records); put the more specific line last`,
      );
    }
    if (record.target.kind === "host" && record.target.url.scheme !== "atp") {
      ctx.add(
        record.line,
        "info",
        "agent-server-not-atp",
        `Mobile-agent-server names a ${record.target.url.scheme}:// host; heed dispatches agents over ATP (atp://) only and fetches these paths over HTTP`,
      );
    }
  }
}
