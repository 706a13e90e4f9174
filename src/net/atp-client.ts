/**
 * Sends one ATP/0.1 request and reads its response (ATP draft §2.4: connect, send a request,
 * wait for the response; one exchange a connection, as in HTTP/1.0 on which ATP is modelled).
 * Limits: a connect timeout, a total timeout, the response's head and body size. Addresses
 * are checked by the SSRF guard unless private ones are allowed, for every host or for the
 * hosts named.
 */
import { connect, isIP } from "node:net";
import { MAX_BODY_BYTES } from "../protocol/atp/limits.js";
import type { AtpResponse } from "../protocol/atp/message.js";
import { MessageBuffer } from "../protocol/atp/message-buffer.js";
import { readResponse } from "../protocol/atp/reader.js";
import type { AtpUrl } from "../protocol/atp/url.js";
import { type RequestToWrite, writeRequest } from "../protocol/atp/writer.js";
import { BlockedAddressError, checkAddress, guardedLookup } from "./address-guard.js";

/** How long connecting may take. */
export const ATP_CONNECT_TIMEOUT_MS = 10_000;
/**
 * The whole exchange. A RETRACT waits for a running agent to finish, which the host bounds by
 * its time limit (30 s by default) plus the time to send the results.
 */
export const ATP_TOTAL_TIMEOUT_MS = 120_000;

export type AtpClientErrorCode = "ATP_CONNECT" | "ATP_TIMEOUT" | "ATP_BAD_RESPONSE" | "ATP_BLOCKED";

export class AtpClientError extends Error {
  constructor(
    readonly code: AtpClientErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AtpClientError";
  }
}

export interface AtpClientOptions {
  readonly connectTimeoutMs?: number;
  readonly totalTimeoutMs?: number;
  readonly maxBodyBytes?: number;
  /** Connect to private and loopback addresses too, whatever the host. Default false. */
  readonly allowPrivate?: boolean;
  /**
   * Hosts (as written in the URL) that may be on private and loopback addresses: the hosts
   * the user named. Any other name is checked by the guard, whatever it resolves to.
   */
  readonly privateHosts?: readonly string[];
}

/** A host name as compared: lower case, an IPv6 address without its brackets. */
function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

export function atpRequest(
  target: Pick<AtpUrl, "host" | "port">,
  request: RequestToWrite,
  options: AtpClientOptions = {},
): Promise<AtpResponse> {
  const host = target.host.startsWith("[") ? target.host.slice(1, -1) : target.host;
  const allowPrivate =
    options.allowPrivate === true ||
    (options.privateHosts ?? []).some((named) => bare(named) === bare(host));
  if (!allowPrivate && isIP(host) !== 0) {
    const verdict = checkAddress(host);
    if (!verdict.allowed) {
      return Promise.reject(
        new AtpClientError(
          "ATP_BLOCKED",
          `${host} is a ${verdict.range} address; not connecting to it`,
        ),
      );
    }
  }
  const wire = writeRequest(request);
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  return new Promise((resolve, reject) => {
    const socket = connect({
      host,
      port: target.port,
      ...(allowPrivate ? {} : { lookup: guardedLookup }),
    });
    const buffer = new MessageBuffer();
    let settled = false;
    const done = (error: Error | null, response?: AtpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      socket.destroy();
      if (error !== null) reject(error);
      else resolve(response as AtpResponse);
    };
    const connectTimer = setTimeout(
      () =>
        done(
          new AtpClientError(
            "ATP_TIMEOUT",
            `no connection to ${host}:${target.port} within ${options.connectTimeoutMs ?? ATP_CONNECT_TIMEOUT_MS} ms`,
          ),
        ),
      options.connectTimeoutMs ?? ATP_CONNECT_TIMEOUT_MS,
    );
    const totalTimer = setTimeout(
      () =>
        done(
          new AtpClientError(
            "ATP_TIMEOUT",
            `no answer from ${host}:${target.port} within ${options.totalTimeoutMs ?? ATP_TOTAL_TIMEOUT_MS} ms`,
          ),
        ),
      options.totalTimeoutMs ?? ATP_TOTAL_TIMEOUT_MS,
    );
    const attempt = (bytes: Uint8Array, ended: boolean) => {
      if (ended && bytes.byteLength === 0) {
        done(
          new AtpClientError(
            "ATP_BAD_RESPONSE",
            `${host}:${target.port} closed the connection without an answer`,
          ),
        );
        return;
      }
      const read = readResponse(bytes, { ended, maxBodyBytes });
      if (read.kind === "message") done(null, read.message);
      else if (read.kind === "error")
        done(
          new AtpClientError(
            "ATP_BAD_RESPONSE",
            `bad answer from ${host}:${target.port}: ${read.message}`,
          ),
        );
      else if (ended)
        done(
          new AtpClientError(
            "ATP_BAD_RESPONSE",
            `${host}:${target.port} closed the connection without an answer`,
          ),
        );
    };
    socket.once("connect", () => {
      clearTimeout(connectTimer);
      socket.write(wire);
    });
    socket.on("data", (chunk: Buffer) => {
      const bytes = buffer.push(chunk);
      if (bytes !== null) attempt(bytes, false);
    });
    socket.once("end", () => attempt(buffer.bytes(), true));
    socket.once("error", (error) => {
      if (error instanceof BlockedAddressError)
        done(new AtpClientError("ATP_BLOCKED", error.message, { cause: error }));
      else
        done(
          new AtpClientError(
            "ATP_CONNECT",
            `cannot reach ${host}:${target.port}: ${error.message}`,
            { cause: error },
          ),
        );
    });
  });
}
