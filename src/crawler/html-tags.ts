/**
 * The start tags of an HTML document and their attributes, in document order, read with
 * htmlparser2's Tokenizer alone.
 *
 * Why not its Parser: the Parser keeps the open-element stack with `Array#unshift`, so its time
 * grows with the square of the nesting depth (200,000 nested `<div>` took 37.7 s, and a 4.4 MB page
 * of 400,000 blocked a crawl's event loop for 122 s; bench/html-depth.bench.ts). Reading links
 * needs no tree, only start tags: no stack is kept here, so the work is one pass over the text
 * whatever the nesting. The Tokenizer still knows HTML's raw-text elements (`script`, `style`,
 * `textarea`, `title`), so a `<a href>` inside a script is not a link.
 *
 * Names of tags and attributes are lower-cased; values have their character references decoded;
 * of an attribute given twice the first counts (as in HTML's tokenizer, and as the Parser did).
 */
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";

/** Called for each start tag; returning `false` stops reading the document there. */
export type StartTagHandler = (
  name: string,
  attributes: Readonly<Record<string, string>>,
) => unknown;

/**
 * Characters kept of one attribute value: a URL is a few thousand at most. A longer value is
 * dropped (the attribute reads as absent), so that a 16 MiB `href` of character references is
 * not built up one reference at a time.
 */
export const MAX_ATTRIBUTE_CHARS = 64 * 1024;

/**
 * Calls `onStartTag` for each start tag of `html`, in order, until it returns `false`; with
 * `only`, for the tags of those (lower-case) names alone, and the attributes of no other tag are
 * gathered.
 */
export function forEachStartTag(
  html: string,
  onStartTag: StartTagHandler,
  only?: ReadonlySet<string>,
): void {
  const reader = new StartTags(html, onStartTag, only ?? null);
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, reader);
  reader.stop = () => tokenizer.pause();
  tokenizer.write(html);
  tokenizer.end();
}

/** Tokenizer callbacks that gather one start tag at a time; every other token is ignored. */
class StartTags implements TokenizerCallbacks {
  private name = "";
  private attributes: Record<string, string> | null = null;
  private attributeName = "";
  private attributeValue = "";
  private attributeTooLong = false;
  /** Stops the tokenizer (set once it exists). */
  stop: () => void = () => undefined;

  constructor(
    private readonly html: string,
    private readonly onStartTag: StartTagHandler,
    private readonly only: ReadonlySet<string> | null,
  ) {}

  onopentagname(start: number, endIndex: number): void {
    this.name = this.html.slice(start, endIndex).toLowerCase();
    this.attributes =
      this.only === null || this.only.has(this.name)
        ? (Object.create(null) as Record<string, string>)
        : null;
  }

  onattribname(start: number, endIndex: number): void {
    if (this.attributes !== null)
      this.attributeName = this.html.slice(start, endIndex).toLowerCase();
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.attributes === null || this.attributeTooLong) return;
    if (this.attributeValue.length + (endIndex - start) > MAX_ATTRIBUTE_CHARS)
      this.attributeTooLong = true;
    else this.attributeValue += this.html.slice(start, endIndex);
  }

  onattribentity(codepoint: number): void {
    if (this.attributes === null || this.attributeTooLong) return;
    if (this.attributeValue.length >= MAX_ATTRIBUTE_CHARS) this.attributeTooLong = true;
    else this.attributeValue += codepoint <= 0x10ffff ? String.fromCodePoint(codepoint) : "\ufffd";
  }

  onattribend(): void {
    const attributes = this.attributes;
    if (attributes !== null && !this.attributeTooLong && !(this.attributeName in attributes))
      attributes[this.attributeName] = this.attributeValue;
    this.attributeValue = "";
    this.attributeTooLong = false;
  }

  onopentagend(): void {
    this.emit();
  }

  onselfclosingtag(): void {
    this.emit();
  }

  private emit(): void {
    const attributes = this.attributes;
    if (attributes === null) return;
    this.attributes = null;
    if (this.onStartTag(this.name, attributes) === false) this.stop();
  }

  oncdata(): void {}
  onclosetag(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onprocessinginstruction(): void {}
  ontext(): void {}
  ontextentity(): void {}
}
