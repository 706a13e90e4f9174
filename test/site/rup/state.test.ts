// The site's state file: the log is kept for MaxQuerySpan and never pruned of what a
// registration has not had in a report; reports and registrations survive a reopening.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SiteState } from "../../../src/site/rup/state.js";

describe("SiteState", () => {
  let tmp: string;
  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), "heed-site-state-"));
  });
  after(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("prunes changes older than the span only once every registration had them", () => {
    const path = join(tmp, "prune.db");
    const state = SiteState.open(path);
    state.record([
      { kind: "New", path: "/old", at: 100 },
      { kind: "Change", path: "/old", at: 200 },
      { kind: "New", path: "/recent", at: 10_000 },
    ]);
    const r = state.insert({
      email: "bot@robot.test",
      keyHash: "00",
      agent: null,
      latency: { count: 1, unit: "day" },
      filter: { kind: "all" },
      lastChangeId: 0,
      nextDue: 0,
      createdAt: 0,
    });
    assert.equal(state.prune(5_000), 0, "the registration has not had them yet");
    state.enqueue(r, {
      seq: 1,
      body: "SequenceNumber: 1\nURLBase: http://h/\n\n",
      upTo: 2,
      nextDue: 1,
      now: 1,
    });
    assert.equal(state.prune(5_000), 2);
    assert.deepEqual(
      state.changesSince(0).map((c) => c.path),
      ["/recent"],
    );
    state.close();
    // Reopened: the registration and its unsent report are there.
    const again = SiteState.open(path);
    assert.equal(again.findByEmail("bot@robot.test")?.seq, 1);
    assert.equal(again.outbox().length, 1);
    again.remove(r.id);
    assert.equal(again.outbox().length, 0, "unregistering drops its unsent reports");
    again.close();
  });

  it("without registrations, prunes by age alone", () => {
    const state = SiteState.open(join(tmp, "alone.db"));
    state.record([
      { kind: "New", path: "/a", at: 1 },
      { kind: "New", path: "/b", at: 50 },
    ]);
    assert.equal(state.prune(10), 1);
    state.close();
  });
});
