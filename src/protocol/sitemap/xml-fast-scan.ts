/**
 * The fast path of the XML sitemap reader: finds where one element at the top level of a
 * `<urlset>` or `<sitemapindex>` ends, and whether it is a plain entry — `<url>` (or `<sitemap>`)
 * with no attributes, whose children are text-only fields and subtrees of other namespaces — so
 * that the reader can take its fields without the general tokenizer. A 50 MB sitemap is mostly such
 * entries; reading them with `indexOf` and a small tag scanner costs a fraction of tokenizing them.
 *
 * The scan is conservative: it says `unusual` for anything whose reading it does not know to be the
 * tokenizer's (a declaration or processing instruction, a malformed or mismatched tag, an unquoted
 * attribute, deep nesting), and then the full reader reads the rest of the file; a block that is
 * well-formed but not a plain entry (attributes on a field, CDATA, comments, namespace declarations,
 * markup inside a field) is handed to the full reader whole. Either way the findings are the full
 * reader's own. test/protocol/sitemap/fast-path.property.test.ts checks that both read alike.
 */

/** A field candidate: a direct child of the entry holding text only. Offsets into the scanned text. */
export interface FastField {
  readonly prefix: string;
  readonly local: string;
  /** Offset of the `<` of its start tag (findings name this line, as the full reader does). */
  readonly tagStart: number;
  readonly textStart: number;
  readonly textEnd: number;
}

export type BlockScan =
  /** The text ends before the block does. */
  | { readonly kind: "more" }
  /** Something only the full reader reads right; it reads from here on. */
  | { readonly kind: "unusual" }
  /** The block spans more than `maxChars` characters or holds more than `maxTags` tags. */
  | { readonly kind: "too-large" }
  /** A comment or processing instruction between entries, ending at `end`: nothing to read. */
  | { readonly kind: "ignored"; readonly end: number }
  /**
   * A whole block ending at `end`; `entry` is its fields when it is a plain entry, else null;
   * `tags` the `<` in it.
   */
  | {
      readonly kind: "block";
      readonly end: number;
      readonly entry: readonly FastField[] | null;
      readonly tags: number;
    };

/** What a direct child of an entry is: a field candidate, a subtree skipped whole, or neither. */
export type ChildKind = "field" | "skip" | "other";

export interface ScanContext {
  /** `url` in a urlset, `sitemap` in an index. */
  readonly entryName: string;
  childKind(prefix: string, local: string): ChildKind;
  /** limits.ts MAX_ENTRY_CHARS and MAX_ENTRY_TAGS: past them the scan stops with `too-large`. */
  readonly maxChars: number;
  readonly maxTags: number;
}

/**
 * Elements open at once inside one block before the scan gives up: far more than any entry needs
 * (an image or news extension nests three deep), and well under the full reader's MAX_XML_DEPTH, so
 * that the full reader, not this scan, meets that limit.
 */
const FAST_MAX_DEPTH = 24;

const MORE: BlockScan = { kind: "more" };
const UNUSUAL: BlockScan = { kind: "unusual" };
const TOO_LARGE: BlockScan = { kind: "too-large" };

const GT = 62; // >
const SLASH = 47; // /
const BANG = 33; // !
const QUESTION = 63; // ?
const COLON = 58; // :
const EQUALS = 61; // =
const DQUOTE = 34;
const SQUOTE = 39;

/** Scans the element, comment or close tag whose `<` is at `start`. */
export function scanBlock(text: string, start: number, ctx: ScanContext): BlockScan {
  const second = text.charCodeAt(start + 1);
  if (second === BANG) {
    if (text.length < start + 4) return MORE;
    if (!text.startsWith("<!--", start)) return UNUSUAL;
    const close = text.indexOf("-->", start + 4);
    return close < 0 ? MORE : { kind: "ignored", end: close + 3 };
  }
  if (second === QUESTION) {
    // The tokenizer ends a processing instruction at the first `?>` after its `<?`; between
    // entries the reader does nothing with one.
    const end = text.indexOf("?>", start + 2);
    return end < 0 ? MORE : { kind: "ignored", end: end + 2 };
  }
  const status = tag.read(text, start);
  if (status === TAG_MORE) return MORE;
  if (status === TAG_BAD || tag.close) return UNUSUAL;
  if (tag.end - start > ctx.maxChars) return TOO_LARGE;
  if (tag.selfClosing) return { kind: "block", end: tag.end, entry: null, tags: 1 };
  let plainEntry =
    tag.plain &&
    tag.nameEnd - tag.nameStart === ctx.entryName.length &&
    text.startsWith(ctx.entryName, tag.nameStart);
  const fields: FastField[] = [];
  // Open elements, as the offsets where their names start and end.
  const starts: number[] = [tag.nameStart];
  const ends: number[] = [tag.nameEnd];
  // The field being read (a direct child of the entry), while no markup has been seen inside it.
  let inField = false;
  let fieldTag = 0;
  let fieldText = 0;
  let fieldPrefix = "";
  let fieldLocal = "";
  let pos = tag.end;
  // Bounded so that a hostile block costs at most a bounded scan: the reader then stops.
  const limit = start + ctx.maxChars;
  let tags = 0;
  for (;;) {
    const lt = text.indexOf("<", pos);
    if (lt < 0) return text.length > limit ? TOO_LARGE : MORE;
    if (lt >= limit || ++tags > ctx.maxTags) return TOO_LARGE;
    const next = text.charCodeAt(lt + 1);
    if (next === BANG) {
      // Comments and CDATA: the full reader reads the block.
      plainEntry = false;
      if (text.length < lt + 9) return MORE;
      let close: number;
      if (text.startsWith("<!--", lt)) close = text.indexOf("-->", lt + 4);
      else if (text.startsWith("<![CDATA[", lt)) close = text.indexOf("]]>", lt + 9);
      else return UNUSUAL;
      if (close < 0) return text.length > limit ? TOO_LARGE : MORE;
      pos = close + 3;
      inField = false;
      continue;
    }
    if (next === QUESTION) return UNUSUAL;
    const read = tag.read(text, lt);
    if (read === TAG_MORE) return text.length > limit ? TOO_LARGE : MORE;
    if (read === TAG_BAD) return UNUSUAL;
    pos = tag.end;
    const depth = starts.length;
    if (tag.close) {
      const openStart = starts[depth - 1] ?? 0;
      const length = (ends[depth - 1] ?? 0) - openStart;
      if (
        tag.nameEnd - tag.nameStart !== length ||
        !sameName(text, openStart, tag.nameStart, length)
      )
        return UNUSUAL;
      starts.pop();
      ends.pop();
      if (depth === 1) {
        if (pos > limit) return TOO_LARGE;
        return { kind: "block", end: pos, entry: plainEntry ? fields : null, tags: tags + 1 };
      }
      if (depth === 2 && inField) {
        fields.push({
          prefix: fieldPrefix,
          local: fieldLocal,
          tagStart: fieldTag,
          textStart: fieldText,
          textEnd: lt,
        });
        inField = false;
      }
      continue;
    }
    if (depth >= FAST_MAX_DEPTH) return UNUSUAL;
    if (depth === 1) {
      const kind = tag.xmlns ? "other" : ctx.childKind(tag.prefix(text), tag.local(text));
      inField = kind === "field" && tag.plain;
      if (kind === "other" || (kind === "field" && !tag.plain)) plainEntry = false;
      if (inField) {
        fieldTag = lt;
        fieldText = tag.end;
        fieldPrefix = tag.prefix(text);
        fieldLocal = tag.local(text);
      }
    } else if (depth === 2 && inField) {
      // Markup inside a field: the full reader keeps only the field's own text.
      plainEntry = false;
      inField = false;
    }
    if (!tag.selfClosing) {
      starts.push(tag.nameStart);
      ends.push(tag.nameEnd);
    }
  }
}

// Character classes by code: 1 a name's first character, 2 any other name character, 4 white space.
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_]/.test(ch)) CLASS[c] = 1 | 2;
  else if (/[0-9.-]/.test(ch)) CLASS[c] = 2;
  else if (ch === " " || ch === "\n" || ch === "\t" || ch === "\r") CLASS[c] = 4;
}
const isNameStart = (c: number): boolean => c < 128 && ((CLASS[c] ?? 0) & 1) !== 0;
const isNameChar = (c: number): boolean => c < 128 && ((CLASS[c] ?? 0) & 2) !== 0;
const isSpace = (c: number): boolean => c < 128 && ((CLASS[c] ?? 0) & 4) !== 0;

const TAG_OK = 0;
const TAG_MORE = 1;
const TAG_BAD = 2;

/**
 * The last tag read, in fields rather than a new object per tag: a 50 MB sitemap has millions of
 * tags, and this scan is its hot loop.
 */
class TagReader {
  close = false;
  nameStart = 0;
  nameEnd = 0;
  /** Offset of the colon in the name, or -1. */
  colon = -1;
  /** Nothing between the name and `>`. */
  plain = false;
  xmlns = false;
  selfClosing = false;
  /** Offset just past the `>`. */
  end = 0;

  /**
   * Reads the tag at `start` (which is `<`): TAG_MORE when the text ends inside it, TAG_BAD when
   * it is not a tag this scan reads the way the tokenizer does.
   */
  read(text: string, start: number): number {
    const length = text.length;
    let i = start + 1;
    const close = text.charCodeAt(i) === SLASH;
    if (close) i++;
    const nameStart = i;
    if (i >= length) return TAG_MORE;
    if (!isNameStart(text.charCodeAt(i))) return TAG_BAD;
    let colon = -1;
    let c = 0;
    for (i++; i < length; i++) {
      c = text.charCodeAt(i);
      if (isNameChar(c)) continue;
      if (c === COLON && colon < 0) {
        colon = i;
        i++;
        if (i >= length) return TAG_MORE;
        if (!isNameStart(text.charCodeAt(i))) return TAG_BAD;
        continue;
      }
      break;
    }
    if (i >= length) return TAG_MORE;
    this.close = close;
    this.nameStart = nameStart;
    this.nameEnd = i;
    this.colon = colon;
    this.xmlns = false;
    this.selfClosing = false;
    if (c === GT) {
      this.plain = true;
      this.end = i + 1;
      return TAG_OK;
    }
    this.plain = false;
    if (!isSpace(c) && c !== SLASH) return TAG_BAD;
    if (close) {
      while (i < length && isSpace(text.charCodeAt(i))) i++;
      if (i >= length) return TAG_MORE;
      if (text.charCodeAt(i) !== GT) return TAG_BAD;
      this.end = i + 1;
      return TAG_OK;
    }
    for (;;) {
      while (i < length && isSpace(text.charCodeAt(i))) i++;
      if (i >= length) return TAG_MORE;
      c = text.charCodeAt(i);
      if (c === GT) {
        this.end = i + 1;
        return TAG_OK;
      }
      if (c === SLASH) {
        if (i + 1 >= length) return TAG_MORE;
        if (text.charCodeAt(i + 1) !== GT) return TAG_BAD;
        this.selfClosing = true;
        this.end = i + 2;
        return TAG_OK;
      }
      const attrStart = i;
      for (; i < length; i++) {
        const a = text.charCodeAt(i);
        if (!isNameChar(a) && a !== COLON) break;
      }
      if (i >= length) return TAG_MORE;
      if (i === attrStart) return TAG_BAD;
      if (text.startsWith("xmlns", attrStart)) this.xmlns = true;
      while (i < length && isSpace(text.charCodeAt(i))) i++;
      if (i >= length) return TAG_MORE;
      if (text.charCodeAt(i) !== EQUALS) return TAG_BAD;
      i++;
      while (i < length && isSpace(text.charCodeAt(i))) i++;
      if (i >= length) return TAG_MORE;
      const quote = text.charCodeAt(i);
      if (quote !== DQUOTE && quote !== SQUOTE) return TAG_BAD;
      const endQuote = text.indexOf(quote === DQUOTE ? '"' : "'", i + 1);
      if (endQuote < 0) return TAG_MORE;
      i = endQuote + 1;
      if (i >= length) return TAG_MORE;
      const after = text.charCodeAt(i);
      if (!isSpace(after) && after !== GT && after !== SLASH) return TAG_BAD;
    }
  }

  /** The tag's prefix, or "". */
  prefix(text: string): string {
    return this.colon < 0 ? "" : text.slice(this.nameStart, this.colon);
  }

  local(text: string): string {
    return text.slice(this.colon < 0 ? this.nameStart : this.colon + 1, this.nameEnd);
  }
}

const tag = new TagReader();

/** Whether the names at `a` and `b`, each `length` long, are the same. */
function sameName(text: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++)
    if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/** Where the start tag at `start` ends: null when the text ends first, false when it is not one. */
export function startTagEnd(text: string, start: number): number | null | false {
  const status = tag.read(text, start);
  if (status === TAG_MORE) return null;
  if (status === TAG_BAD || tag.close) return false;
  return tag.end;
}

/** Newlines in `text` from `from` up to `to`. */
export function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  let i = text.indexOf("\n", from);
  while (i >= 0 && i < to) {
    n++;
    i = text.indexOf("\n", i + 1);
  }
  return n;
}
