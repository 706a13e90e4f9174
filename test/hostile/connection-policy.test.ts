// issue 27 rows 1-3: the built `heed serve` and `heed agents host` processes while attackers on
// many loopback addresses hold connections: silent or answered ATP sockets, HTTP answers never
// read, and HTTP requests pipelined by the thousand. Each time a well-behaved client on
// another address must be answered during the attack and after it. Limits are lowered by the
// operator's flags so that a few dozen sockets fill the server; deadlines are generous.
import assert from "node:assert/strict";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { attacker, exchange } from "../helpers/loopback-clients.js";
import { runCli } from "../helpers/run-cli.js";
import { type ServingCli, startServing, stopServing } from "../helpers/serving-cli.js";

const GOOD_GET = "GET /index.html HTTP/1.1\r\nHost: site\r\nConnection: close\r\n\r\n";

/** A well-behaved HTTP client's GET (from `from`, within `guardMs`): the status line. */
async function goodGet(port: number, from = "127.0.9.9", guardMs = 10_000): Promise<string> {
  const text = await exchange(port, GOOD_GET, from, /\r\n\r\nhome/, guardMs);
  return text.split("\r\n")[0] ?? text;
}

/** `count` attackers spread over `addresses` addresses of 127.0.`net`.x. */
function attackers(
  port: number,
  net: number,
  addresses: number,
  count: number,
  wire: (i: number) => string,
): Promise<Socket[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      attacker(port, `127.0.${net}.${(i % addresses) + 1}`, wire(i)),
    ),
  );
}

function serveArgs(dir: string, total: number, perAddress: number): string[] {
  return [
    "serve",
    dir,
    "--port",
    "0",
    "--quiet",
    "--max-connections",
    String(total),
    "--max-connections-per-address",
    String(perAddress),
  ];
}

/**
 * Runs the attack `attack` opens against `served`; a well-behaved client must be answered
 * four times while it lasts and once just after the attackers leave. Stops the server.
 */
async function servedDuringAndAfter(
  served: ServingCli,
  attack: (port: number) => Promise<Socket[]>,
  atOnce: readonly string[] = [],
): Promise<void> {
  try {
    const attacking = attack(served.port);
    // Clients that come with the attackers, each on its own address.
    const first = await Promise.all(atOnce.map((from) => goodGet(served.port, from, 5_000)));
    const held = await attacking;
    try {
      assert.deepEqual(first, Array(atOnce.length).fill("HTTP/1.1 200 OK"));
      await sleep(2_000);
      const during: string[] = [];
      for (let round = 0; round < 4; round++) {
        during.push(await goodGet(served.port));
        await sleep(500);
      }
      assert.deepEqual(during, Array(4).fill("HTTP/1.1 200 OK"));
    } finally {
      for (const s of held) s.destroy();
    }
    // Served again at once: nothing is left to do for the attackers that left.
    assert.equal(await goodGet(served.port), "HTTP/1.1 200 OK");
  } finally {
    await stopServing(served);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("servers hold while attackers hold connections", { timeout: 600_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-policy-"));
    await writeFile(join(dir, "index.html"), "home");
    // Larger than what the kernel buffers on loopback between a sender and a reader that
    // stopped (a few MiB each way); sparse, so it costs no disk.
    await writeFile(join(dir, "big.bin"), "");
    await truncate(join(dir, "big.bin"), 96 * 1024 * 1024);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("row 1: the agent host answers while 16 sockets from 4 addresses sit silent or answered", async () => {
    const served = await startServing(
      [
        "agents",
        "host",
        "--root",
        dir,
        "--listen",
        "127.0.0.1:0",
        "--assign",
        "/",
        "--quiet",
        "--max-connections",
        "16",
        "--max-connections-per-address",
        "4",
      ],
      /atp:\/\/127\.0\.0\.1:(\d+)/,
    );
    const port = served.port;
    const held = await attackers(port, 71, 4, 16, (i) =>
      i % 2 === 0 ? "" : "PING / ATP/0.1\r\n\r\n",
    );
    try {
      const answers: string[] = [];
      for (let round = 0; round < 4; round++) {
        const text = await exchange(port, "PING / ATP/0.1\r\n\r\n", "127.0.9.9", /\r\n\r\n\{/);
        answers.push(text.split("\r\n")[0] ?? text);
        await sleep(1_000);
      }
      assert.deepEqual(answers, Array(4).fill("ATP/0.1 100 OKAY"));
      // Answered sockets are destroyed a few seconds after their answer, silent ones after the
      // request deadline (10 s): the host no longer holds any of the first flood.
      await sleep(14_000);
      const again = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          exchange(port, "PING / ATP/0.1\r\n\r\n", `127.0.71.${(i % 4) + 1}`, /\r\n\r\n\{/),
        ),
      );
      const answered = again.filter((t) => t.startsWith("ATP/0.1 100 OKAY")).length;
      assert.equal(answered, 16, "the attackers' addresses are no longer at their limit");
    } finally {
      for (const s of held) s.destroy();
      await stopServing(served);
    }
  });

  it("row 2: heed serve answers while 24 sockets from 6 addresses never read a large file", async () => {
    const served = await startServing(
      [...serveArgs(dir, 24, 4), "--progress-timeout", "3"],
      /at http:\/\/127\.0\.0\.1:(\d+)/,
    );
    await servedDuringAndAfter(served, (port) =>
      attackers(port, 72, 6, 24, () => "GET /big.bin HTTP/1.1\r\nHost: site\r\n\r\n"),
    );
  });

  it("row 3: heed serve answers while 32 sockets from 8 addresses pipeline 3,000 requests each", async () => {
    // The attackers fill every place; three clients that arrive with them are answered within
    // 5 s: a newcomer whose request is not read yet does not give way to the next newcomer.
    const served = await startServing(serveArgs(dir, 32, 4), /at http:\/\/127\.0\.0\.1:(\d+)/);
    const flood = "GET /index.html HTTP/1.1\r\nHost: site\r\n\r\n".repeat(3_000);
    await servedDuringAndAfter(served, (port) => attackers(port, 73, 8, 32, () => flood), [
      "127.0.9.10",
      "127.0.9.11",
      "127.0.9.12",
    ]);
  });

  it("heed ui takes the same flags: an address over --max-connections-per-address is closed, others are answered", async () => {
    const served = await startServing(
      [
        "ui",
        "--port",
        "0",
        "--max-connections",
        "8",
        "--max-connections-per-address",
        "2",
        "--progress-timeout",
        "3",
      ],
      /heed ui: http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const info = `GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nConnection: close\r\n\r\n`;
    const held = await attackers(served.port, 74, 1, 2, () => "");
    try {
      const third = await exchange(served.port, info, "127.0.74.1", /\r\n\r\n\{/);
      assert.doesNotMatch(third, /^HTTP\/1\.1 200/, "a third connection from one address");
      const other = await exchange(served.port, info, "127.0.9.9", /\r\n\r\n\{/);
      assert.match(other, /^HTTP\/1\.1 200 OK/);
    } finally {
      for (const s of held) s.destroy();
      await stopServing(served);
    }
  });

  it("the connection flags are checked alike by serve, agents host and ui", async () => {
    const commands = [
      ["serve", dir],
      ["agents", "host", "--root", dir],
      ["ui", "--port", "0"],
    ];
    for (const command of commands) {
      for (const [flag, bad, said] of [
        ["--max-connections", "0", /--max-connections: expected a positive whole number/],
        [
          "--max-connections-per-address",
          "x",
          /--max-connections-per-address: expected a positive/,
        ],
        ["--progress-timeout", "-1", /--progress-timeout: expected seconds > 0/],
      ] as const) {
        const result = await runCli([...command, flag, bad], { timeoutMs: 30_000 });
        assert.equal(result.code, 2, `${command.join(" ")} ${flag} ${bad}: ${result.stderr}`);
        assert.match(result.stderr, said);
      }
    }
  });
});
