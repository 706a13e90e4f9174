// Counts the commands clients send to Redis servers as MONITOR shows them, commands run inside
// scripts aside: what a store costs in commands, for the tests and the fleet bench.
import { connect } from "node:net";

export interface CommandCount {
  /** Commands clients sent, every server summed. */
  commands: number;
  /** EVALSHA and EVAL among them. */
  lua: number;
  /** By name; a script by the start of its SHA-1 (EVAL's by its first characters). */
  readonly byName: Map<string, number>;
  /** Ends the count: closes the MONITOR connections. */
  stop(): void;
}

/** Starts counting on each server (`redis://host:port` URLs); resolves once each listens. */
export async function monitorCommands(urls: readonly string[]): Promise<CommandCount> {
  const seen: CommandCount = { commands: 0, lua: 0, byName: new Map(), stop: () => {} };
  const sockets = await Promise.all(
    urls.map(async (url) => {
      const { hostname, port } = new URL(url);
      const socket = connect({ host: hostname, port: Number(port) });
      await new Promise<void>((resolve) => socket.once("connect", resolve));
      let rest = "";
      socket.on("data", (chunk: Buffer) => {
        const lines = (rest + chunk.toString("latin1")).split("\r\n");
        rest = lines.pop() ?? "";
        for (const line of lines) {
          // `+1700000000.123456 [0 127.0.0.1:54321] "EVALSHA" …`; `[0 lua]` ran inside a script.
          const m = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] "([^"]+)"/.exec(line);
          if (m === null || m[1] === "lua") continue;
          seen.commands++;
          const name = (m[2] ?? "").toUpperCase();
          if (name === "EVALSHA" || name === "EVAL") seen.lua++;
          const what = /^\+\S+ \[[^\]]+\] "[^"]+" "([^"]{1,12})/.exec(line)?.[1] ?? "?";
          const key = name.startsWith("EVAL") ? `${name} ${what}` : name;
          seen.byName.set(key, (seen.byName.get(key) ?? 0) + 1);
        }
      });
      socket.write("MONITOR\r\n");
      // MONITOR answers +OK once it listens.
      await new Promise<void>((resolve) => {
        const ok = (chunk: Buffer) => {
          if (!chunk.toString("latin1").startsWith("+OK")) return;
          socket.off("data", ok);
          resolve();
        };
        socket.on("data", ok);
      });
      return socket;
    }),
  );
  seen.stop = () => {
    for (const socket of sockets) socket.destroy();
  };
  return seen;
}
