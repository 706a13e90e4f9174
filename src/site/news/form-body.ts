/**
 * The body of an HTML form post (`application/x-www-form-urlencoded`), read with limits: the
 * site's forms (login, registration, release, comment) all arrive this way. A body that is too
 * large, has too many fields or another type is an answer with a status, not an exception.
 */
import type { IncomingMessage } from "node:http";
import { MAX_FORM_BYTES, MAX_FORM_FIELDS } from "./limits.js";

export type FormResult =
  | { readonly ok: true; readonly fields: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly message: string };

export interface FormLimits {
  readonly maxBytes?: number;
  readonly maxFields?: number;
}

/** Reads and decodes the form; rejects only when the connection fails while reading. */
export async function readForm(req: IncomingMessage, limits: FormLimits = {}): Promise<FormResult> {
  const maxBytes = limits.maxBytes ?? MAX_FORM_BYTES;
  const maxFields = limits.maxFields ?? MAX_FORM_FIELDS;
  const type = String(req.headers["content-type"] ?? "")
    .split(";")[0]
    ?.trim()
    .toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    req.resume();
    return {
      ok: false,
      status: 415,
      message: `expected a form (application/x-www-form-urlencoded), got "${type || "no content type"}"`,
    };
  }
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxBytes) {
    req.resume();
    return tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      req.resume();
      return tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  return parseForm(Buffer.concat(chunks).toString("utf8"), maxFields);
}

/** Decodes `a=1&b=2` into fields; the first of repeated names wins. */
export function parseForm(text: string, maxFields: number = MAX_FORM_FIELDS): FormResult {
  const params = new URLSearchParams(text);
  const fields = new Map<string, string>();
  let count = 0;
  for (const [name, value] of params) {
    count++;
    if (count > maxFields)
      return {
        ok: false,
        status: 413,
        message: `a form may have at most ${maxFields} fields`,
      };
    if (!fields.has(name)) fields.set(name, value);
  }
  return { ok: true, fields };
}

function tooLarge(maxBytes: number): FormResult {
  return { ok: false, status: 413, message: `a form may have at most ${maxBytes} bytes` };
}
