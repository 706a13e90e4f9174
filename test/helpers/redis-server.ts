// A real redis-server for the tests of the Redis store and of what runs on it: started on a
// free loopback port with no persistence, stopped at the end. No redis-server is a failure with
// a message saying how to get one, never a skip: CI installs it (.ci/run, scripts/setup.mjs).
// Most test files want one server for all their tests: `redisForFile()`.
import { spawn, type ChildProcess } from "node:child_process";
import { connect, createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { after } from "node:test";

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** The server's process id, for tests that stop it (SIGSTOP) without closing its sockets. */
  readonly pid: number;
  stop(): Promise<void>;
}

export const REDIS_MISSING =
  "redis-server is not installed, and the Redis store's tests need a real one: " +
  "run `npm run setup` as root (it installs Debian's redis-server), " +
  "or `apt-get install -y redis-server`";

/** How long redis-server may take to answer PING. */
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

/** Starts on a port found free, each a new one: see startRedisServer. */
const START_ATTEMPTS = 8;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One PING on a fresh connection: true when the answer is +PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let answer = "";
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.on("error", () => finish(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\r\n")) finish(answer.startsWith("+PONG"));
    });
  });
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Starts redis-server; `port` starts it again where one ran (a restart, without its data). */
export async function startRedisServer(
  options: { port?: number; args?: readonly string[] } = {},
  attempt = 1,
): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const child = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      // Later options win: a test that wants snapshots (--save, --dir) asks for them here.
      ...(options.args ?? []),
    ],
    // Any file it writes (a snapshot on shutdown) lands outside the checkout.
    { stdio: ["ignore", "ignore", "pipe"], cwd: tmpdir() },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once("spawn", () => resolve(null));
    child.once("error", resolve);
  });
  if (spawned !== null) {
    const missing = (spawned as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(missing ? REDIS_MISSING : `cannot start redis-server: ${spawned.message}`, {
      cause: spawned,
    });
  }
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await ping(port))) {
    // A port found free may be taken again before redis binds it, or (cluster mode) its bus
    // port, 10000 above, may be taken or past 65535: a server that exited at once gets another.
    if (child.exitCode !== null && options.port === undefined && attempt < START_ATTEMPTS) {
      return startRedisServer(options, attempt + 1);
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`redis-server on port ${port} did not answer PING: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exitOf(child);
      clearTimeout(timer);
    },
  };
}

/** The one redis-server of a test file (or of a suite), started by the first test that asks. */
export interface FileRedis {
  server(): Promise<RedisServer>;
  /** Its `redis://127.0.0.1:PORT` URL. */
  url(): Promise<string>;
}

/**
 * Start redis once per file: call at the file's top level (or in a `describe`, for that suite).
 * The server starts when a test first asks for it, so that without redis-server each test that
 * needs one fails with {@link REDIS_MISSING} (a hook that failed would only cancel them), and it
 * stops after the file's (or suite's) last test.
 */
export function redisForFile(): FileRedis {
  let started: Promise<RedisServer> | undefined;
  after(async () => {
    // A server that failed to start has failed every test that asked for it already.
    const server = await started?.catch(() => undefined);
    await server?.stop();
  });
  const server = (): Promise<RedisServer> => (started ??= startRedisServer());
  return { server, url: async () => (await server()).url };
}
