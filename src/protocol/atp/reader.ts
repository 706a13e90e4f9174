/**
 * Reads ATP/0.1 requests and responses from bytes (ATP draft §5-8). Pure and re-entrant: call
 * it again with more bytes until it says `message`. It never throws on content: a malformed
 * or oversized message is an `error` with the status code a recipient answers it with.
 */
import { MAX_BODY_BYTES, MAX_HEAD_BYTES, MAX_HEADER_COUNT } from "./limits.js";
import { type AtpHeaders, type AtpRequest, type AtpResponse, header } from "./message.js";
import { ATP_STATUS, type AtpStatus } from "./status.js";

export interface ReadLimits {
  /** Default {@link MAX_HEAD_BYTES}. */
  readonly maxHeadBytes?: number;
  /** Default {@link MAX_HEADER_COUNT}. */
  readonly maxHeaderCount?: number;
  /** Default {@link MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
}

export type ReadResult<M> =
  | { readonly kind: "incomplete" }
  | { readonly kind: "message"; readonly message: M; readonly consumed: number }
  | {
      readonly kind: "error";
      /** What a recipient answers (§9). */
      readonly status: AtpStatus;
      /** Stable, for tests and logs. */
      readonly code: AtpReadErrorCode;
      readonly message: string;
    };

export type AtpReadErrorCode =
  | "head-too-large"
  | "too-many-headers"
  | "bad-request-line"
  | "bad-status-line"
  | "bad-method"
  | "unsupported-version"
  | "bad-header"
  | "bad-content-length"
  | "body-too-large"
  | "truncated";

// HTTP's token: ATP borrows it for methods (§6.1: "Extension_Method = Token") and field names.
const TOKEN = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;
const VERSION = /^ATP\/(\d{1,9})\.(\d{1,9})$/i;
const CONTENT_LENGTH = /^\d{1,15}$/;
const decoder = new TextDecoder("utf-8");

/** Reads a request from the start of `bytes`. */
export function readRequest(bytes: Uint8Array, limits: ReadLimits = {}): ReadResult<AtpRequest> {
  const head = readHead(bytes, limits);
  if (head.kind !== "head") return head;
  const [first = "", ...fields] = head.lines;
  const parts = first.split(/[ \t]+/);
  if (parts.length !== 3) {
    return fail(
      ATP_STATUS.BAD_REQUEST,
      "bad-request-line",
      `request line "${clip(first)}" is not "METHOD uri ATP/0.1" (§6)`,
    );
  }
  const [method = "", uri = "", version = ""] = parts;
  if (!TOKEN.test(method)) {
    return fail(
      ATP_STATUS.BAD_REQUEST,
      "bad-method",
      `method "${clip(method)}" is not a token (§6.1)`,
    );
  }
  const versionError = checkVersion(version);
  if (versionError !== null) return versionError;
  const headers = readFields(fields, limits);
  if (!Array.isArray(headers)) return headers as ReadResult<never>;
  const body = readBody(bytes, head.bodyStart, headers as AtpHeaders, limits, false);
  if (body.kind !== "body") return body;
  return {
    kind: "message",
    message: {
      method: method.toUpperCase(),
      uri,
      version: version.toUpperCase(),
      headers: headers as AtpHeaders,
      body: body.body,
    },
    consumed: body.end,
  };
}

export interface ResponseReadOptions extends ReadLimits {
  /**
   * The connection has closed: a response without Content-Length ends here (HTTP/1.0's rule,
   * on which the draft is modelled, §10). Default false.
   */
  readonly ended?: boolean;
}

/** Reads a response from the start of `bytes`. */
export function readResponse(
  bytes: Uint8Array,
  options: ResponseReadOptions = {},
): ReadResult<AtpResponse> {
  const head = readHead(bytes, options);
  if (head.kind !== "head") {
    if (head.kind === "incomplete" && options.ended === true) {
      return fail(
        ATP_STATUS.BAD_REQUEST,
        "truncated",
        "the connection closed before the response head ended",
      );
    }
    return head;
  }
  const [first = "", ...fields] = head.lines;
  // §7: Status_line = ATP_version SP Status_code SP Reason_phrase
  const match = /^(\S+)[ \t]+(\d{3})(?:[ \t]+(.*))?$/.exec(first);
  if (match === null) {
    return fail(
      ATP_STATUS.BAD_REQUEST,
      "bad-status-line",
      `status line "${clip(first)}" is not "ATP/0.1 code reason" (§7)`,
    );
  }
  const version = match[1] ?? "";
  const versionError = checkVersion(version);
  if (versionError !== null) return versionError;
  const headers = readFields(fields, options);
  if (!Array.isArray(headers)) return headers as ReadResult<never>;
  const body = readBody(
    bytes,
    head.bodyStart,
    headers as AtpHeaders,
    options,
    options.ended === true,
  );
  if (body.kind !== "body") return body;
  return {
    kind: "message",
    message: {
      version: version.toUpperCase(),
      status: Number(match[2]),
      reason: (match[3] ?? "").trim(),
      headers: headers as AtpHeaders,
      body: body.body,
    },
    consumed: body.end,
  };
}

type Head =
  | { readonly kind: "head"; readonly lines: readonly string[]; readonly bodyStart: number }
  | { readonly kind: "incomplete" }
  | Extract<ReadResult<never>, { kind: "error" }>;

/** Finds the blank line that ends the head; CRLF per the draft, bare LF tolerated. */
function readHead(bytes: Uint8Array, limits: ReadLimits): Head {
  const maxHead = limits.maxHeadBytes ?? MAX_HEAD_BYTES;
  const scan = Math.min(bytes.length, maxHead + 4);
  let end = -1;
  let bodyStart = -1;
  for (let i = 0; i < scan; i++) {
    if (bytes[i] !== 0x0a) continue;
    if (bytes[i + 1] === 0x0a) {
      end = i;
      bodyStart = i + 2;
      break;
    }
    if (bytes[i + 1] === 0x0d && bytes[i + 2] === 0x0a) {
      end = i;
      bodyStart = i + 3;
      break;
    }
  }
  if (end < 0 || end > maxHead) {
    if (bytes.length <= maxHead) return { kind: "incomplete" };
    return fail(
      ATP_STATUS.BAD_REQUEST,
      "head-too-large",
      `the message head is over ${maxHead} bytes`,
    );
  }
  const text = decoder.decode(bytes.subarray(0, end));
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  return { kind: "head", lines, bodyStart };
}

function checkVersion(version: string): Extract<ReadResult<never>, { kind: "error" }> | null {
  const match = VERSION.exec(version);
  if (match === null) {
    return fail(
      ATP_STATUS.BAD_REQUEST,
      "bad-request-line",
      `"${clip(version)}" is not an ATP version (ATP/major.minor, §4.1)`,
    );
  }
  // §4.1: the major number changes when the message format does; a minor one only adds
  // meaning. heed reads every 0.x and answers any other major as the draft's §9.4 example:
  // 400, the version at the recipient does not match.
  if (Number(match[1]) !== 0) {
    return fail(
      ATP_STATUS.INTERNAL_RECIPIENT_ERROR,
      "unsupported-version",
      `${version} is not supported; this recipient speaks ATP/0.1`,
    );
  }
  return null;
}

/** §8: `Name ":" [Value]`, one a line; RFC 822 continuation lines (leading blank) are joined. */
function readFields(
  lines: readonly string[],
  limits: ReadLimits,
): [string, string][] | ReadResult<never> {
  const maxCount = limits.maxHeaderCount ?? MAX_HEADER_COUNT;
  const fields: [string, string][] = [];
  for (const line of lines) {
    const last = fields[fields.length - 1];
    if ((line.startsWith(" ") || line.startsWith("\t")) && last !== undefined) {
      last[1] = `${last[1]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(":");
    const name = colon < 0 ? "" : line.slice(0, colon).trim();
    if (colon < 0 || !TOKEN.test(name)) {
      return fail(
        ATP_STATUS.BAD_REQUEST,
        "bad-header",
        `header line "${clip(line)}" is not "Name: value" (§8)`,
      );
    }
    if (fields.length >= maxCount) {
      return fail(
        ATP_STATUS.BAD_REQUEST,
        "too-many-headers",
        `more than ${maxCount} header fields`,
      );
    }
    fields.push([name, line.slice(colon + 1).trim()]);
  }
  return fields;
}

type Body =
  | { readonly kind: "body"; readonly body: Uint8Array; readonly end: number }
  | { readonly kind: "incomplete" }
  | Extract<ReadResult<never>, { kind: "error" }>;

function readBody(
  bytes: Uint8Array,
  start: number,
  headers: AtpHeaders,
  limits: ReadLimits,
  ended: boolean,
): Body {
  const maxBody = limits.maxBodyBytes ?? MAX_BODY_BYTES;
  const lengths = headers.filter(([n]) => n.toLowerCase() === "content-length").map(([, v]) => v);
  const declared = header(headers, "content-length");
  if (declared === null) {
    // No length: a request has no body (§6: the body is optional); a response runs to the close.
    if (!ended) return { kind: "body", body: new Uint8Array(0), end: start };
    if (bytes.length - start > maxBody) {
      return fail(ATP_STATUS.FORBIDDEN, "body-too-large", `the body is over ${maxBody} bytes`);
    }
    return { kind: "body", body: bytes.slice(start), end: bytes.length };
  }
  if (!CONTENT_LENGTH.test(declared) || lengths.some((l) => l !== declared)) {
    return fail(
      ATP_STATUS.BAD_REQUEST,
      "bad-content-length",
      `Content-Length "${clip(lengths.join(", "))}" is not one decimal number (§8.8)`,
    );
  }
  const length = Number(declared);
  if (length > maxBody) {
    return fail(
      ATP_STATUS.FORBIDDEN,
      "body-too-large",
      `a body of ${length} bytes is over the limit of ${maxBody}`,
    );
  }
  if (bytes.length - start < length) {
    if (ended) {
      return fail(
        ATP_STATUS.BAD_REQUEST,
        "truncated",
        `the connection closed after ${bytes.length - start} of ${length} body bytes`,
      );
    }
    return { kind: "incomplete" };
  }
  return { kind: "body", body: bytes.slice(start, start + length), end: start + length };
}

function fail(
  status: AtpStatus,
  code: AtpReadErrorCode,
  message: string,
): Extract<ReadResult<never>, { kind: "error" }> {
  return { kind: "error", status, code, message };
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The whole message's length in bytes once its head has arrived and names a Content-Length,
 * else null: a reader on a stream waits for that many bytes before reading the message, instead
 * of reading it again at every chunk.
 */
export function expectedLength(bytes: Uint8Array, limits: ReadLimits = {}): number | null {
  const head = readHead(bytes, limits);
  if (head.kind !== "head") return null;
  const length = head.lines
    .slice(1)
    .map((line) => /^content-length[ \t]*:[ \t]*(\d{1,15})[ \t]*$/i.exec(line)?.[1])
    .find((value) => value !== undefined);
  return length === undefined ? null : head.bodyStart + Number(length);
}
