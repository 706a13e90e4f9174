/**
 * A request recorded as it was received (RFC 9112 §3: the request line, then one field a line,
 * up to the first empty line), read into what RFC 9421 needs, for checking it later
 * (`heed verify-request`).
 */
import type { Parsed } from "./structured-fields.js";
import type { MessageRequest } from "./signature-base.js";

/** A recorded head longer than this is refused: a server's own limit is 8 to 64 KiB. */
export const MAX_RECORDED_HEAD_CHARS = 64 * 1024;
/** Field lines read at most (Node's http server keeps 2000; real requests have a few dozen). */
export const MAX_RECORDED_FIELDS = 200;

/** Reads `text`; `scheme` is the connection's (a recording does not say whether it was TLS). */
export function readRecordedRequest(
  text: string,
  scheme: "http" | "https",
): Parsed<MessageRequest> {
  const end = text.search(/\r?\n\r?\n/);
  const head = end < 0 ? text : text.slice(0, end);
  if (head.length > MAX_RECORDED_HEAD_CHARS) {
    return { ok: false, message: `the head is longer than ${MAX_RECORDED_HEAD_CHARS} characters` };
  }
  const lines = head.split(/\r?\n/);
  const requestLine = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\S+) HTTP\/\d(?:\.\d)?$/.exec(
    lines[0] ?? "",
  );
  if (requestLine === null) {
    return { ok: false, message: 'line 1: expected a request line such as "GET /path HTTP/1.1"' };
  }
  if (lines.length - 1 > MAX_RECORDED_FIELDS) {
    return { ok: false, message: `more than ${MAX_RECORDED_FIELDS} field lines` };
  }
  const fields = new Map<string, string[]>();
  for (const [index, line] of lines.slice(1).entries()) {
    // Only the head's last line can be empty: a recording that ends with one line break.
    if (line === "") continue;
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      return { ok: false, message: `line ${index + 2}: expected "Name: value"` };
    }
    const list = fields.get(name.toLowerCase()) ?? [];
    list.push(line.slice(colon + 1).trim());
    fields.set(name.toLowerCase(), list);
  }
  const [, method = "GET", target = "/"] = requestLine;
  let url: string;
  if (/^https?:\/\//i.test(target)) url = target;
  else {
    const host = fields.get("host")?.[0];
    if (host === undefined) return { ok: false, message: "no Host field and no absolute target" };
    url = `${scheme}://${host}${target}`;
  }
  try {
    url = new URL(url).href;
  } catch {
    return { ok: false, message: `line 1: the target ${JSON.stringify(target)} is not a URL` };
  }
  return {
    ok: true,
    value: { method, url, field: (name) => fields.get(name)?.join(", ") ?? null },
  };
}
