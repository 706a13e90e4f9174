/**
 * Raw TCP clients for the hostile tests of heed's servers, each bound to a loopback source
 * address of its own (127.0.0.0/8 has millions): a well-behaved exchange, and attackers that
 * write and then hold their socket without reading.
 */
import { connect, type Socket } from "node:net";

/**
 * Sends `wire` from `from` and reads until the peer closes or `until` matches what came; the
 * text received, or why nothing came within `guardMs`.
 */
export function exchange(
  port: number,
  wire: string | Buffer,
  from: string,
  until: RegExp,
  guardMs = 10_000,
): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: from });
    let got = "";
    const end = (text: string): void => {
      clearTimeout(guard);
      socket.destroy();
      resolve(text);
    };
    const guard = setTimeout(() => end(`no answer within ${guardMs} ms`), guardMs);
    socket.on("connect", () => socket.write(wire));
    socket.on("data", (c: Buffer) => {
      got += c.toString("latin1");
      if (until.test(got)) end(got);
    });
    socket.on("error", (e) => end(`${got}${e.message}`));
    socket.on("close", () => end(got === "" ? "closed without an answer" : got));
  });
}

/**
 * Opens a socket from `from` that writes `wire` once connected and never reads. With
 * `halfOpen`, it keeps its side open after the server closes its own.
 */
export function attacker(
  port: number,
  from: string,
  wire: string | Buffer,
  halfOpen = false,
): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect({ port, host: "127.0.0.1", localAddress: from, allowHalfOpen: halfOpen });
    s.on("error", () => resolve(s));
    s.on("connect", () => {
      s.pause();
      if (wire.length > 0) s.write(wire);
      resolve(s);
    });
  });
}
