/**
 * A Structured Fields Dictionary (RFC 9651 §3.2), parsed as §4.2.2 says: the format a
 * statement of preference is written in (draft-ietf-aipref-vocab-07 §6). Pure and linear in
 * the input; a failure is a value with the offset and the reason, never an exception.
 *
 * Only what the vocabulary needs is kept of each value (its type, and a token's or a
 * string's text); every production of RFC 9651 is parsed all the same, because one bad
 * member fails the whole dictionary (§4.2: "fail parsing"), and a parser that skipped
 * productions it did not need would accept what the RFC refuses.
 */
import { MAX_DICTIONARY_MEMBERS, MAX_PARAMETERS } from "./limits.js";

/** The type of a bare item (RFC 9651 §3.3), or an inner list. */
export type ItemType =
  | "integer"
  | "decimal"
  | "string"
  | "token"
  | "byte-sequence"
  | "boolean"
  | "date"
  | "display-string"
  | "inner-list";

export interface DictionaryMember {
  readonly key: string;
  readonly type: ItemType;
  /** A token's or a string's text, a boolean's `?1`/`?0`, a number as written; "" for lists. */
  readonly text: string;
  /** Parameter keys of the member, in order (values are not needed by the vocabulary). */
  readonly parameters: readonly string[];
}

export type DictionaryParse =
  | {
      readonly ok: true;
      /** Members in order of first appearance; a repeated key keeps the last value (§4.2.2). */
      readonly members: readonly DictionaryMember[];
      /** Keys written more than once: only their last value counts. */
      readonly repeated: readonly string[];
    }
  | { readonly ok: false; readonly offset: number; readonly error: string };

class Failure {
  constructor(
    readonly offset: number,
    readonly error: string,
  ) {}
}

/** Parses `input` as a Dictionary. `input` is text whose characters stand for bytes. */
export function parseDictionary(input: string): DictionaryParse {
  const reader = new Reader(input);
  try {
    return reader.dictionary();
  } catch (error) {
    if (error instanceof Failure) return { ok: false, offset: error.offset, error: error.error };
    throw error;
  }
}

const SP = 0x20;
const HTAB = 0x09;

function isLcAlpha(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || isLcAlpha(c);
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
// RFC 9110 §5.6.2 tchar.
const TCHAR_PUNCT = "!#$%&'*+-.^_`|~";
function isTchar(c: number): boolean {
  return isAlpha(c) || isDigit(c) || (c < 0x80 && TCHAR_PUNCT.includes(String.fromCharCode(c)));
}
function isBase64(c: number): boolean {
  return isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d;
}

class Reader {
  private p = 0;

  constructor(private readonly s: string) {}

  private fail(error: string): never {
    throw new Failure(this.p, error);
  }

  private peek(): number {
    return this.p < this.s.length ? this.s.charCodeAt(this.p) : -1;
  }

  dictionary(): DictionaryParse {
    // §4.2: discard leading SP, parse, discard trailing SP, nothing may remain.
    while (this.peek() === SP) this.p++;
    const members = new Map<string, DictionaryMember>();
    const repeated = new Set<string>();
    if (this.p < this.s.length) {
      for (;;) {
        const key = this.key();
        let member: DictionaryMember;
        if (this.peek() === 0x3d) {
          this.p++;
          member = this.itemOrInnerList(key);
        } else {
          member = { key, type: "boolean", text: "?1", parameters: this.parameters() };
        }
        if (members.has(key)) {
          repeated.add(key);
          // RFC 9651 §4.2.2: the value is overwritten; the ordered map keeps the key's place.
          members.set(key, member);
        } else {
          if (members.size >= MAX_DICTIONARY_MEMBERS)
            this.fail(`more than ${MAX_DICTIONARY_MEMBERS} members`);
          members.set(key, member);
        }
        this.ows();
        if (this.p >= this.s.length) break;
        if (this.peek() !== 0x2c) this.fail(`expected "," between members`);
        this.p++;
        this.ows();
        if (this.p >= this.s.length) this.fail(`a "," with no member after it`);
      }
    }
    while (this.peek() === SP) this.p++;
    if (this.p < this.s.length) this.fail("unexpected text at the end");
    return { ok: true, members: [...members.values()], repeated: [...repeated] };
  }

  private ows(): void {
    let c = this.peek();
    while (c === SP || c === HTAB) {
      this.p++;
      c = this.peek();
    }
  }

  private key(): string {
    const start = this.p;
    const c = this.peek();
    if (!isLcAlpha(c) && c !== 0x2a) {
      this.fail(
        isAlpha(c)
          ? "keys are lower-case (the format is case-sensitive)"
          : "expected a key (a lower-case letter or *)",
      );
    }
    this.p++;
    for (;;) {
      const d = this.peek();
      if (isLcAlpha(d) || isDigit(d) || d === 0x5f || d === 0x2d || d === 0x2e || d === 0x2a)
        this.p++;
      else break;
    }
    return this.s.slice(start, this.p);
  }

  private parameters(): string[] {
    const keys: string[] = [];
    while (this.peek() === 0x3b) {
      this.p++;
      while (this.peek() === SP) this.p++;
      const key = this.key();
      if (this.peek() === 0x3d) {
        this.p++;
        this.bareItem();
      }
      if (!keys.includes(key)) {
        if (keys.length >= MAX_PARAMETERS) this.fail(`more than ${MAX_PARAMETERS} parameters`);
        keys.push(key);
      }
    }
    return keys;
  }

  private itemOrInnerList(key: string): DictionaryMember {
    if (this.peek() === 0x28) {
      this.innerList();
      return { key, type: "inner-list", text: "", parameters: this.parameters() };
    }
    const item = this.bareItem();
    return { key, type: item.type, text: item.text, parameters: this.parameters() };
  }

  private innerList(): void {
    this.p++; // (
    let count = 0;
    for (;;) {
      while (this.peek() === SP) this.p++;
      if (this.peek() === 0x29) {
        this.p++;
        return;
      }
      if (++count > MAX_DICTIONARY_MEMBERS)
        this.fail(`more than ${MAX_DICTIONARY_MEMBERS} items in an inner list`);
      this.bareItem();
      this.parameters();
      const c = this.peek();
      if (c !== SP && c !== 0x29) this.fail(`expected " " or ")" in an inner list`);
    }
  }

  private bareItem(): { type: Exclude<ItemType, "inner-list">; text: string } {
    const c = this.peek();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x22) return { type: "string", text: this.string() };
    if (c === 0x2a || isAlpha(c)) return { type: "token", text: this.token() };
    if (c === 0x3a) return { type: "byte-sequence", text: this.byteSequence() };
    if (c === 0x3f) return { type: "boolean", text: this.boolean() };
    if (c === 0x40) {
      this.p++;
      const n = this.number();
      if (n.type !== "integer") this.fail("a date is an integer");
      return { type: "date", text: `@${n.text}` };
    }
    if (c === 0x25) return { type: "display-string", text: this.displayString() };
    return this.fail(c < 0 ? "a value is missing" : "not a value");
  }

  private number(): { type: "integer" | "decimal"; text: string } {
    const start = this.p;
    if (this.peek() === 0x2d) this.p++;
    if (!isDigit(this.peek())) this.fail("expected a digit");
    let digits = 0;
    let dot = -1;
    for (;;) {
      const c = this.peek();
      if (isDigit(c)) {
        digits++;
        this.p++;
      } else if (c === 0x2e && dot < 0) {
        if (digits > 12) this.fail("a decimal has at most 12 digits before the point");
        dot = digits;
        this.p++;
      } else break;
      if (dot < 0 && digits > 15) this.fail("an integer has at most 15 digits");
      if (dot >= 0 && digits > 15) this.fail("a decimal has at most 15 digits");
    }
    if (dot >= 0) {
      const fraction = digits - dot;
      if (fraction < 1 || fraction > 3) this.fail("a decimal has 1 to 3 digits after the point");
      return { type: "decimal", text: this.s.slice(start, this.p) };
    }
    return { type: "integer", text: this.s.slice(start, this.p) };
  }

  private string(): string {
    this.p++; // "
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c < 0) this.fail("a string is not closed");
      this.p++;
      if (c === 0x5c) {
        const next = this.peek();
        if (next !== 0x22 && next !== 0x5c) this.fail('only \\" and \\\\ are escapes in a string');
        this.p++;
        out += String.fromCharCode(next);
      } else if (c === 0x22) {
        return out;
      } else if (c < 0x20 || c > 0x7e) {
        this.p--;
        this.fail("a string holds printable ASCII only");
      } else {
        out += String.fromCharCode(c);
      }
    }
  }

  private token(): string {
    const start = this.p;
    this.p++;
    for (;;) {
      const c = this.peek();
      if (isTchar(c) || c === 0x3a || c === 0x2f) this.p++;
      else break;
    }
    return this.s.slice(start, this.p);
  }

  private byteSequence(): string {
    this.p++; // :
    const start = this.p;
    for (;;) {
      const c = this.peek();
      if (c === 0x3a) break;
      if (!isBase64(c)) this.fail("a byte sequence holds base64 and ends with :");
      this.p++;
    }
    const text = this.s.slice(start, this.p);
    this.p++;
    return text;
  }

  private boolean(): string {
    this.p++; // ?
    const c = this.peek();
    if (c !== 0x30 && c !== 0x31) this.fail("a boolean is ?0 or ?1");
    this.p++;
    return c === 0x31 ? "?1" : "?0";
  }

  private displayString(): string {
    this.p++; // %
    if (this.peek() !== 0x22) this.fail('a display string starts %"');
    this.p++;
    const bytes: number[] = [];
    for (;;) {
      const c = this.peek();
      if (c < 0) this.fail("a display string is not closed");
      if (c < 0x20 || c > 0x7e) this.fail("a display string holds printable ASCII only");
      this.p++;
      if (c === 0x22) break;
      if (c === 0x25) {
        const hex = this.s.slice(this.p, this.p + 2);
        if (!/^[0-9a-f]{2}$/.test(hex)) this.fail("a display string escapes as %xx, lower-case");
        bytes.push(parseInt(hex, 16));
        this.p += 2;
      } else {
        bytes.push(c);
      }
    }
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
    } catch {
      return this.fail("a display string is not UTF-8");
    }
  }
}
