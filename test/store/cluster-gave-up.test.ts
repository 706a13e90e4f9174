// ioredis's "Too many Cluster redirections" in its three forms seen from a real cluster losing a
// master (crawl-cluster-down.test.ts runs the first for real): said as what happened.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clusterGaveUp } from "../../src/store/redis/cluster-gave-up.js";

describe("clusterGaveUp", () => {
  const cases: readonly (readonly [message: string, said: string | null])[] = [
    [
      "Too many Cluster redirections. Last error: ReplyError: MOVED 653 127.0.0.1:40189",
      "the cluster's master for slot 653, 127.0.0.1:40189, does not answer",
    ],
    [
      "Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down",
      "the cluster is down (CLUSTERDOWN The cluster is down): a master has not joined again",
    ],
    [
      "Too many Cluster redirections. Last error: Error: connect ECONNREFUSED 127.0.0.1:7001",
      "the cluster does not answer (connect ECONNREFUSED 127.0.0.1:7001)",
    ],
    [
      "Too many Cluster redirections. Last error: Error: Connection is closed.",
      "the cluster does not answer (Connection is closed.)",
    ],
    ["Too many Cluster redirections.", "the cluster does not answer"],
    ["ERR unknown command", null],
    ["MOVED 653 127.0.0.1:40189", null],
  ];
  for (const [message, said] of cases)
    it(message, () => {
      assert.equal(clusterGaveUp(message), said);
    });
});
