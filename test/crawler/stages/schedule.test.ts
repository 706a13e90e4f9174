// schedule.ts: why a run with nothing left to do now ended (the summary's stoppedBy).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { endReason } from "../../../src/crawler/stages/schedule.js";

describe("endReason", () => {
  const table: [string, number, number, number, string][] = [
    ["nothing queued: finished", 0, 0, 0, "finished"],
    ["nothing queued, even with spent sites: finished", 0, 2, 1, "finished"],
    ["queued on sites whose budget is spent", 5, 1, 0, "max-per-host"],
    ["queued on sites set aside", 5, 0, 1, "sites-unreachable"],
    ["a spent budget is said before unreachable sites", 5, 1, 1, "max-per-host"],
  ];
  for (const [name, queued, spent, setAside, reason] of table)
    it(name, () => assert.equal(endReason({ queued, spent, setAside }), reason));
});
