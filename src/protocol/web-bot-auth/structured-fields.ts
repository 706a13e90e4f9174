/**
 * The part of Structured Field Values (RFC 9651, formerly RFC 8941) that HTTP Message Signatures
 * need: dictionaries whose members are items or inner lists, with parameters, parsed from a
 * field value and serialised back in canonical form (RFC 9421 §2.1.2 and §2.3 sign the
 * re-serialised form, never the bytes as sent).
 *
 * Parsing never throws: a value that is not a valid dictionary gives `{ ok: false, message }`.
 */

/** A field longer than this is refused unparsed: no signature header comes near it. */
export const MAX_FIELD_CHARS = 8192;
/** Dictionary members and inner-list items beyond this are refused (RFC 9651 §3.1 asks for 1024). */
export const MAX_MEMBERS = 64;

export type BareItem =
  | { readonly type: "integer"; readonly value: number }
  | { readonly type: "decimal"; readonly value: number }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "token"; readonly value: string }
  | { readonly type: "bytes"; readonly value: Uint8Array }
  | { readonly type: "boolean"; readonly value: boolean };

export type Parameters = ReadonlyMap<string, BareItem>;

export interface Item {
  readonly kind: "item";
  readonly value: BareItem;
  readonly params: Parameters;
}

export interface InnerList {
  readonly kind: "list";
  readonly items: readonly Item[];
  readonly params: Parameters;
}

export type Member = Item | InnerList;
export type Dictionary = ReadonlyMap<string, Member>;

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

class SyntaxFault extends Error {}

/** RFC 9651 §4.2.2: a dictionary; later members of the same key replace earlier ones. */
export function parseDictionary(input: string): Parsed<Dictionary> {
  return parsing(input, (p) => {
    const members = new Map<string, Member>();
    if (p.atEnd()) return members;
    for (;;) {
      const key = p.key();
      const member: Member = p.peek() === "=" ? (p.skip(1), p.member()) : boolTrue(p.params());
      members.delete(key);
      members.set(key, member);
      if (members.size > MAX_MEMBERS) p.fail(`more than ${MAX_MEMBERS} members`);
      p.ows();
      if (p.atEnd()) return members;
      p.expect(",");
      p.ows();
      if (p.atEnd()) p.fail("a trailing comma");
    }
  });
}

/** RFC 9651 §4.2.3: one item with its parameters (a legacy `Signature-Agent: "https://…"`). */
export function parseItem(input: string): Parsed<Item> {
  return parsing(input, (p) => p.item());
}

function parsing<T>(input: string, read: (p: Parser) => T): Parsed<T> {
  if (input.length > MAX_FIELD_CHARS) {
    return { ok: false, message: `longer than ${MAX_FIELD_CHARS} characters` };
  }
  const p = new Parser(input.trim());
  try {
    const value = read(p);
    if (!p.atEnd()) p.fail("unexpected text");
    return { ok: true, value };
  } catch (error) {
    if (error instanceof SyntaxFault) return { ok: false, message: error.message };
    throw error;
  }
}

function boolTrue(params: Parameters): Item {
  return { kind: "item", value: { type: "boolean", value: true }, params };
}

const KEY_START = /[a-z*]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
const TOKEN_START = /[A-Za-z*]/;
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.at >= this.text.length;
  }
  peek(): string {
    return this.text[this.at] ?? "";
  }
  skip(n: number): void {
    this.at += n;
  }
  fail(what: string): never {
    throw new SyntaxFault(`${what} at character ${this.at + 1}`);
  }
  expect(char: string): void {
    if (this.peek() !== char) this.fail(`expected "${char}"`);
    this.at++;
  }
  ows(): void {
    while (this.peek() === " " || this.peek() === "\t") this.at++;
  }
  sp(): void {
    while (this.peek() === " ") this.at++;
  }

  key(): string {
    if (!KEY_START.test(this.peek())) this.fail("expected a key");
    const start = this.at;
    while (KEY_CHAR.test(this.peek()) && !this.atEnd()) this.at++;
    return this.text.slice(start, this.at);
  }

  member(): Member {
    return this.peek() === "(" ? this.innerList() : this.item();
  }

  item(): Item {
    return { kind: "item", value: this.bareItem(), params: this.params() };
  }

  innerList(): InnerList {
    this.expect("(");
    const items: Item[] = [];
    for (;;) {
      this.sp();
      if (this.peek() === ")") {
        this.at++;
        return { kind: "list", items, params: this.params() };
      }
      if (this.atEnd()) this.fail("an unclosed inner list");
      items.push(this.item());
      if (items.length > MAX_MEMBERS) this.fail(`more than ${MAX_MEMBERS} inner-list items`);
      if (this.peek() !== " " && this.peek() !== ")") this.fail("expected a space or )");
    }
  }

  params(): Parameters {
    const params = new Map<string, BareItem>();
    while (this.peek() === ";") {
      this.at++;
      this.sp();
      const key = this.key();
      let value: BareItem = { type: "boolean", value: true };
      if (this.peek() === "=") {
        this.at++;
        value = this.bareItem();
      }
      params.delete(key);
      params.set(key, value);
      if (params.size > MAX_MEMBERS) this.fail(`more than ${MAX_MEMBERS} parameters`);
    }
    return params;
  }

  bareItem(): BareItem {
    const c = this.peek();
    if (c === '"') return this.string();
    if (c === ":") return this.bytes();
    if (c === "?") return this.boolean();
    if (c === "-" || /[0-9]/.test(c)) return this.number();
    if (TOKEN_START.test(c)) return this.token();
    return this.fail("expected an item");
  }

  private string(): BareItem {
    this.at++;
    let value = "";
    for (;;) {
      if (this.atEnd()) this.fail("an unclosed string");
      const c = this.text[this.at++] ?? "";
      if (c === "\\") {
        const next = this.text[this.at++] ?? "";
        if (next !== '"' && next !== "\\") this.fail("a bad escape in a string");
        value += next;
      } else if (c === '"') {
        return { type: "string", value };
      } else {
        const code = c.charCodeAt(0);
        if (code < 0x20 || code > 0x7e) this.fail("a character a string may not hold");
        value += c;
      }
    }
  }

  private token(): BareItem {
    const start = this.at;
    while (!this.atEnd() && TOKEN_CHAR.test(this.peek())) this.at++;
    return { type: "token", value: this.text.slice(start, this.at) };
  }

  private bytes(): BareItem {
    this.at++;
    const end = this.text.indexOf(":", this.at);
    if (end < 0) this.fail("an unclosed byte sequence");
    const encoded = this.text.slice(this.at, end);
    if (!BASE64.test(encoded)) this.fail("a byte sequence that is not base64");
    this.at = end + 1;
    return { type: "bytes", value: base64Decode(encoded) };
  }

  private boolean(): BareItem {
    this.at++;
    const c = this.text[this.at++];
    if (c === "1") return { type: "boolean", value: true };
    if (c === "0") return { type: "boolean", value: false };
    return this.fail("expected ?0 or ?1");
  }

  private number(): BareItem {
    const match = /^-?[0-9]{1,15}(\.[0-9]{1,3})?/.exec(this.text.slice(this.at, this.at + 20));
    if (match === null) return this.fail("expected a number");
    this.at += match[0].length;
    if (/[0-9.]/.test(this.peek())) this.fail("a number too long");
    const [text, fraction] = match;
    if (fraction === undefined) return { type: "integer", value: Number(text) };
    return { type: "decimal", value: Number(text) };
  }
}

/** RFC 9651 §4.1.3: an item and its parameters, in canonical form. */
export function serializeItem(item: Item): string {
  return serializeBare(item.value) + serializeParams(item.params);
}

/** RFC 9651 §4.1.1.1: `(a b);p=1`. */
export function serializeInnerList(list: InnerList): string {
  return `(${list.items.map(serializeItem).join(" ")})${serializeParams(list.params)}`;
}

export function serializeMember(member: Member): string {
  return member.kind === "list" ? serializeInnerList(member) : serializeItem(member);
}

/** RFC 9651 §4.1.2: `a=1, b=(x y)`; a boolean true member is written as its key alone. */
export function serializeDictionary(dictionary: Dictionary): string {
  return [...dictionary]
    .map(([key, member]) =>
      member.kind === "item" && member.value.type === "boolean" && member.value.value
        ? key + serializeParams(member.params)
        : `${key}=${serializeMember(member)}`,
    )
    .join(", ");
}

function serializeParams(params: Parameters): string {
  let out = "";
  for (const [key, value] of params) {
    out += value.type === "boolean" && value.value ? `;${key}` : `;${key}=${serializeBare(value)}`;
  }
  return out;
}

function serializeBare(item: BareItem): string {
  switch (item.type) {
    case "integer":
      return String(item.value);
    case "decimal": {
      const text = (Math.round(item.value * 1000) / 1000).toString();
      return text.includes(".") ? text : `${text}.0`;
    }
    case "string":
      return `"${item.value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    case "token":
      return item.value;
    case "bytes":
      return `:${base64Encode(item.value)}:`;
    case "boolean":
      return item.value ? "?1" : "?0";
  }
}

/** Shorthands for building values. */
export const sf = {
  string: (value: string): BareItem => ({ type: "string", value }),
  integer: (value: number): BareItem => ({ type: "integer", value }),
  item: (value: BareItem, params: Parameters = new Map()): Item => ({
    kind: "item",
    value,
    params,
  }),
};

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Base64 (RFC 4648 §4) without a Buffer: protocol/ runs anywhere. */
export function base64Encode(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET[(n >> 18) & 63] ?? "";
    out += ALPHABET[(n >> 12) & 63] ?? "";
    out += b === undefined ? "=" : (ALPHABET[(n >> 6) & 63] ?? "");
    out += c === undefined ? "=" : (ALPHABET[n & 63] ?? "");
  }
  return out;
}

/** Base64 or base64url, padded or not; characters outside both alphabets are skipped by callers' checks. */
export function base64Decode(text: string): Uint8Array {
  const clean = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    const index = ALPHABET.indexOf(c);
    if (index < 0) continue;
    value = (value << 6) | index;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}
