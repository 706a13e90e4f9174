/**
 * Writes ATP/0.1 requests and responses (ATP draft §6-8): CRLF line ends, Content-Length set
 * from the body. Values that would break the framing (a CR or LF in a header, a method that
 * is not a token) are programming errors and throw {@link AtpWriteError}.
 */
import { ATP_VERSION, type AtpHeaders } from "./message.js";
import { REASON_PHRASE, type AtpStatus } from "./status.js";

export class AtpWriteError extends Error {
  readonly code = "ATP_INVALID_MESSAGE";
  constructor(message: string) {
    super(message);
    this.name = "AtpWriteError";
  }
}

const TOKEN = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;
const encoder = new TextEncoder();

export interface RequestToWrite {
  readonly method: string;
  readonly uri: string;
  readonly headers?: AtpHeaders;
  readonly body?: Uint8Array | string;
}

export function writeRequest(request: RequestToWrite): Uint8Array {
  if (!TOKEN.test(request.method))
    throw new AtpWriteError(`method "${request.method}" is not a token`);
  if (request.uri === "" || /[\s]/.test(request.uri)) {
    throw new AtpWriteError(`resource URI "${request.uri}" is empty or has blanks`);
  }
  return assemble(
    `${request.method.toUpperCase()} ${request.uri} ${ATP_VERSION}`,
    request.headers ?? [],
    request.body,
  );
}

export interface ResponseToWrite {
  readonly status: AtpStatus;
  /** Default: the draft's phrase for the code (§9). */
  readonly reason?: string;
  readonly headers?: AtpHeaders;
  readonly body?: Uint8Array | string;
}

export function writeResponse(response: ResponseToWrite): Uint8Array {
  const reason = response.reason ?? REASON_PHRASE[response.status];
  if (/[\r\n]/.test(reason)) throw new AtpWriteError("reason phrase has a line break");
  return assemble(
    `${ATP_VERSION} ${response.status} ${reason}`,
    response.headers ?? [],
    response.body,
    true,
  );
}

function assemble(
  first: string,
  headers: AtpHeaders,
  body: Uint8Array | string | undefined,
  alwaysLength = false,
): Uint8Array {
  const bytes = typeof body === "string" ? encoder.encode(body) : (body ?? new Uint8Array(0));
  const lines = [first];
  for (const [name, value] of headers) {
    if (name.toLowerCase() === "content-length") continue;
    if (!TOKEN.test(name)) throw new AtpWriteError(`header name "${name}" is not a token`);
    if (/[\r\n]/.test(value))
      throw new AtpWriteError(`header ${name} has a line break in its value`);
    lines.push(`${name}: ${value}`);
  }
  // §8.8: the length of the body; responses always say it, so that the reader need not wait for the close.
  if (bytes.length > 0 || alwaysLength) lines.push(`Content-Length: ${bytes.length}`);
  const head = encoder.encode(`${lines.join("\r\n")}\r\n\r\n`);
  const out = new Uint8Array(head.length + bytes.length);
  out.set(head, 0);
  out.set(bytes, head.length);
  return out;
}
