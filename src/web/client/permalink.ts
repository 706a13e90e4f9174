/**
 * The permalink: the tester's fields (the file, the URLs, the robots, the REGP inputs) kept in
 * the page's address, after the `#`. A fragment is never sent to a server, so the test is
 * stored nowhere but in the link; opening the link fills the fields again.
 *
 * Form: `#tester&state=` then base64url of the fields as JSON, deflated (CompressionStream's
 * deflate-raw), so that a robots.txt of a few KiB makes a link one can send.
 */

/** The fields a permalink keeps, by element id. */
export const PERMALINK_FIELDS = [
  "robots",
  "urls",
  "agent",
  "dialect",
  "ip",
  "at",
  "languages",
  "encodings",
  "charsets",
  "other-robots",
  "site",
] as const;
export type PermalinkField = (typeof PERMALINK_FIELDS)[number];

/** Longest state text read from an address: past it the link is refused, not decoded. */
export const MAX_PERMALINK_CHARS = 2_000_000;
/**
 * Most bytes the state may inflate to: the 500 KiB robots.txt heed parses, 1,000 URLs and the
 * rest fit well within it; a link that inflates past it is refused (a deflate bomb).
 */
export const MAX_STATE_BYTES = 2 * 1024 * 1024;

const PREFIX = "state=";

export interface TestState {
  readonly fields: Readonly<Partial<Record<PermalinkField, string>>>;
  /** The known crawlers checked. */
  readonly compared: readonly string[];
}

export class PermalinkError extends Error {}

/** The address's state text, when the fragment has one: `#tester&state=…`. */
export function stateInHash(hash: string): string | null {
  const part = hash
    .replace(/^#/, "")
    .split("&")
    .find((p) => p.startsWith(PREFIX));
  return part === undefined ? null : part.slice(PREFIX.length);
}

export async function encodeState(state: TestState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, ...state }));
  const packed = await drain(
    new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw")),
    Infinity,
  );
  return `${PREFIX}${toBase64Url(packed)}`;
}

/** Reads a state text back; a link that is cut, altered or too large is a PermalinkError saying which. */
export async function decodeState(text: string): Promise<TestState> {
  if (text.length > MAX_PERMALINK_CHARS)
    throw new PermalinkError(`it is longer than ${MAX_PERMALINK_CHARS} characters`);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64Url(text);
  } catch {
    throw new PermalinkError("it is not base64url text (was the link cut or changed?)");
  }
  let json: Uint8Array;
  try {
    json = await drain(
      new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")),
      MAX_STATE_BYTES,
    );
  } catch (error) {
    if (error instanceof PermalinkError) throw error;
    throw new PermalinkError("its data does not inflate (was the link cut?)");
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(json));
  } catch {
    throw new PermalinkError("its data is not JSON");
  }
  return checked(value);
}

function checked(value: unknown): TestState {
  if (typeof value !== "object" || value === null || (value as { v?: unknown }).v !== 1)
    throw new PermalinkError("it is not a heed ui permalink of version 1");
  const { fields, compared } = value as { fields?: unknown; compared?: unknown };
  if (typeof fields !== "object" || fields === null)
    throw new PermalinkError('its "fields" is not an object');
  const out: Partial<Record<PermalinkField, string>> = {};
  for (const [name, text] of Object.entries(fields)) {
    if (!(PERMALINK_FIELDS as readonly string[]).includes(name))
      throw new PermalinkError(`it has a field heed ui does not know: "${name}"`);
    if (typeof text !== "string") throw new PermalinkError(`its field "${name}" is not text`);
    out[name as PermalinkField] = text;
  }
  if (!Array.isArray(compared) || !compared.every((c) => typeof c === "string"))
    throw new PermalinkError('its "compared" is not a list of robot names');
  return { fields: out, compared };
}

/** Reads a stream whole, refusing it past `limit` bytes. */
async function drain(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new PermalinkError(`its data inflates past ${limit} bytes`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  // In steps: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
