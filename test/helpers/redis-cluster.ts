// A real Redis Cluster for the tests: three masters (redis-server --cluster-enabled yes) on free
// loopback ports, joined by `redis-cli --cluster create`, no replicas, no persistence; stopped at
// the end. Started once per file, as redisForFile does for one server.
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { startRedisServer, type RedisServer } from "./redis-server.js";

export interface RedisCluster {
  /** `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3`. */
  readonly url: string;
  readonly nodes: readonly RedisServer[];
  /** Where node `i` writes its snapshot when told to SAVE (none is written otherwise). */
  snapshotOf(i: number): string;
  /**
   * Stops node `i` without saving and starts it again on its port, as the same cluster node
   * (its nodes file), from what its snapshot file holds then: a node restored from a snapshot.
   */
  restart(i: number): Promise<void>;
  stop(): Promise<void>;
}

/** How long the three nodes may take to agree that the cluster is up. */
const READY_TIMEOUT_MS = 20_000;

function cli(port: number, args: readonly string[]): string {
  const r = spawnSync("redis-cli", ["-p", String(port), ...args], {
    encoding: "utf8",
    timeout: 10_000,
  });
  return `${r.stdout}${r.stderr}`;
}

export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), "heed-cluster-"));
  const nodes: RedisServer[] = [];
  const nodeArgs = (i: number) => [
    "--cluster-enabled",
    "yes",
    "--cluster-config-file",
    join(dir, `nodes-${i}.conf`),
    "--cluster-node-timeout",
    "5000",
    "--dir",
    dir,
    "--dbfilename",
    `dump-${i}.rdb`,
  ];
  try {
    for (let i = 0; i < 3; i++) nodes.push(await startRedisServer({ args: nodeArgs(i) }));
    const create = spawn(
      "redis-cli",
      [
        "--cluster",
        "create",
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        "--cluster-replicas",
        "0",
        "--cluster-yes",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let said = "";
    create.stdout.on("data", (c: Buffer) => (said += c.toString("utf8")));
    create.stderr.on("data", (c: Buffer) => (said += c.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => create.on("close", resolve));
    if (code !== 0) throw new Error(`redis-cli --cluster create failed: ${said}`);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!nodes.every((n) => /cluster_state:ok/.test(cli(n.port, ["cluster", "info"])))) {
      if (Date.now() > deadline) throw new Error("the cluster did not reach cluster_state:ok");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    for (const n of nodes) await n.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(",")}`,
    nodes,
    snapshotOf: (i) => join(dir, `dump-${i}.rdb`),
    async restart(i) {
      const node = nodes[i];
      if (node === undefined) throw new Error(`no node ${i}`);
      await node.stop();
      nodes[i] = await startRedisServer({ port: node.port, args: nodeArgs(i) });
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (!/cluster_state:ok/.test(cli(node.port, ["cluster", "info"]))) {
        if (Date.now() > deadline) throw new Error(`node ${i} did not rejoin the cluster`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      for (const n of nodes) await n.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The one cluster of a test file, started by the first test that asks, stopped after the last. */
export function clusterForFile(): { url(): Promise<string>; cluster(): Promise<RedisCluster> } {
  let started: Promise<RedisCluster> | undefined;
  after(async () => {
    const cluster = await started?.catch(() => undefined);
    await cluster?.stop();
  });
  const cluster = (): Promise<RedisCluster> => (started ??= startRedisCluster());
  return { cluster, url: async () => (await cluster()).url };
}
