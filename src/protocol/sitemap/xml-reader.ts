/**
 * The XML formats — sitemaps.org `urlset` and `sitemapindex`, RSS 2.0, Atom 1.0 (and 0.3) — read
 * as a state machine over the events of a streaming tokenizer fed with decoded text chunks.
 *
 * Tokenizer: htmlparser2 in XML mode, chosen over saxes by measuring (bench/sitemap.bench.ts):
 * on a 50,000-URL file both tokenize at the same speed, but saxes, strict, loses the whole rest of
 * the file at the first bare `&` — and seeds/003 §3.2.12 writes its own example with one — while
 * htmlparser2 recovers. htmlparser2 gives offsets, not lines; `LineIndex` turns offsets into lines.
 * No DTD is processed and no entity is defined: a `<!DOCTYPE` stops reading (so a
 * "billion laughs" file expands nothing), and `entities.ts` decodes only XML's five predefined
 * entities and numeric references.
 *
 * Elements are matched by namespace, not by spelling: `<image:loc>` inside `<image:image>` is not
 * a `<loc>`. Elements of other namespaces (image, news, video, xhtml, anything unknown) are
 * skipped whole, without a word, as sitemaps.org "Extending the Sitemaps protocol" intends.
 * REGP's `<type>` and `<srcloc>` are read unprefixed, as seeds/003 §3.2.12 writes them, and in
 * heed's namespace (limits.ts `REGP_NAMESPACE`) under any prefix.
 *
 * Fast path: in a `<urlset>` or `<sitemapindex>` whose entries are unprefixed in the root's default
 * namespace, each top-level element is first scanned by xml-fast-scan.ts; a plain entry is read
 * from its fields directly, through the same field and entry code as below, and only its newlines
 * are counted (so that line numbers stay right); any other block goes to the tokenizer
 * whole, and anything unusual sends the rest of the file to it. A 50 MB sitemap read this way costs
 * a small part of the CPU that tokenizing it does (bench/sitemap.bench.ts).
 */
import { type Handler, Parser } from "htmlparser2";
import { decodeXmlText, type EntityIssue, escapeCdata } from "./entities.js";
import {
  checkChangefreq,
  checkPageType,
  checkPriority,
  checkUrl,
  clip,
  type FieldResult,
} from "./fields.js";
import {
  ATOM_03_NAMESPACE,
  ATOM_NAMESPACE,
  LEGACY_SITEMAP_NAMESPACES,
  MAX_ENTRY_CHARS,
  MAX_ENTRY_TAGS,
  MAX_FIELD_CHARS,
  MAX_MARKUP_UNITS,
  NAMESPACE_MARKUP_WEIGHT,
  MAX_XML_DEPTH,
  REGP_NAMESPACE,
  SITEMAP_NAMESPACE,
  TOKENIZED_MARKUP_WEIGHT,
} from "./limits.js";
import { LineIndex } from "./line-index.js";
import type { Sink } from "./sink.js";
import type { ChangeFreq, PageType } from "./types.js";
import { checkW3cDatetime, rfc822ToW3c, w3cText } from "./w3c-datetime.js";
import {
  type ChildKind,
  countNewlines,
  type FastField,
  type ScanContext,
  scanBlock,
  startTagEnd,
} from "./xml-fast-scan.js";

/** Text before the root element's start tag that the fast path looks through (declarations, comments). */
const MAX_FAST_HEAD = 64 * 1024;

type Field = "loc" | "lastmod" | "changefreq" | "priority" | "type" | "srcloc";

/** Where a `<lastmod>`-like field comes from: sitemaps and Atom use W3C datetimes, RSS RFC 822. */
type DateStyle = "w3c" | "rfc822";

interface Draft {
  line: number;
  loc: string | null;
  /** `<loc>` was present (valid or not). */
  hasLoc: boolean;
  lastmod: string | null;
  changefreq: ChangeFreq | null;
  priority: number | null;
  type: PageType | null;
  srcloc: string | null;
  /** Fields already seen, for `duplicate-field`. */
  seen: number;
}

const FIELD_BIT: Readonly<Record<Field, number>> = {
  loc: 1,
  lastmod: 2,
  changefreq: 4,
  priority: 8,
  type: 16,
  srcloc: 32,
};

export class XmlSitemapReader implements Partial<Handler> {
  private readonly parser: Parser;
  private readonly lines = new LineIndex();
  private depth = 0;
  /** Inside an element being skipped, opened at this depth; 0 when not skipping. */
  private skipDepth = 0;
  /** Depth of the elements that are entries (`<url>`, `<sitemap>`, `<item>`, `<entry>`). */
  private entryLevel = 0;
  private inEntry = false;
  private draft: Draft = emptyDraft(0);
  private field: Field | null = null;
  /** The field being closed, for findings about its text. */
  private closing: Field = "loc";
  private fieldDepth = 0;
  private fieldStart = 0;
  private fieldRaw = "";
  private fieldCut = false;
  /** The line of the field being read, taken before its start leaves the line index's window. */
  private fieldLineKnown: number | null = null;
  private dateStyle: DateStyle = "w3c";
  private inCdata = false;
  private rootDone = false;
  /** The namespace of the root element: its children in it are the format's own vocabulary. */
  private vocabulary = "";
  private defaultNs = "";
  private readonly prefixes = new Map<string, string>();
  private readonly nsUndo: { depth: number; prefix: string; previous: string | undefined }[] = [];
  private lastOpenStart = -1;
  private ending = false;
  private rootName = "";
  private malformedReported = false;
  /**
   * `head`: before the root's start tag; `fast`: between entries; `catch-up`: the tokenizer
   * reads until it is between entries again (after something unusual); `full`: it reads all.
   */
  private mode: "head" | "head-tokenizer" | "fast" | "catch-up" | "full";
  /** Characters given to the tokenizer, and where the last end tag it read ended. */
  private fed = 0;
  private lastCloseEnd = -1;
  /** Text not yet read by the fast path, and the line its first character is on. */
  private pending = "";
  private pendingLine = 1;
  /** Newlines read by the fast path and not yet given to the tokenizer. */
  private skippedNewlines = 0;
  /** Length `pending` must reach, past the block's start, before a cut block is scanned again. */
  private needLength = 0;
  /** While the fast path reads an entry: its text, and a place in it with its line. */
  private fastText: string | null = null;
  private fastFrom = 0;
  private fastLine = 1;
  private scanContext: ScanContext;
  private fastRead = 0;
  /**
   * The top-level element the tokenizer is reading (an entry, or any other element beside the
   * entries): its depth (0 when none), where it starts, its line, and the markup read in it, so
   * that it is held to MAX_ENTRY_CHARS and MAX_ENTRY_TAGS as the fast path holds its blocks.
   */
  private blockDepth = 0;
  private blockStart = 0;
  private blockLine = 0;
  private blockMarkup = 0;
  /** Markup read in this file, in MAX_MARKUP_UNITS. */
  private markupUnits = 0;

  /** `fastPath: false` reads with the tokenizer alone (tests compare the two). */
  constructor(
    private readonly sink: Sink,
    private readonly compressed: boolean,
    options: { readonly fastPath?: boolean } = {},
  ) {
    this.parser = new Parser(this, { xmlMode: true, decodeEntities: false });
    this.mode = options.fastPath === false ? "full" : "head";
    this.scanContext = {
      entryName: "url",
      childKind: (prefix, local) => this.childKind(prefix, local),
      maxChars: MAX_ENTRY_CHARS,
      maxTags: MAX_ENTRY_TAGS,
    };
  }

  /** Entries the fast path read (the rest, if any, the tokenizer did). */
  get fastEntries(): number {
    return this.fastRead;
  }

  write(text: string): void {
    if (this.sink.stopped) return;
    if (this.mode === "full") {
      this.feed(text);
      return;
    }
    if (this.mode === "head-tokenizer") {
      this.feed(text);
      this.afterRootOpen();
      return;
    }
    this.pending += text;
    if (this.mode === "head") this.readHead();
    // Each turn reads on: the fast path up to something unusual, the tokenizer past it.
    while (!this.sink.stopped) {
      if (this.mode === "fast") this.readFast();
      if (this.mode !== "catch-up" || !this.catchUp()) break;
    }
  }

  end(): void {
    if (this.sink.stopped) return;
    if (this.mode !== "full") this.toFull();
    this.flushNewlines();
    if (this.sink.stopped) return;
    if (this.sink.format === null) {
      this.sink.report("not-a-sitemap", null, "no root element: the file holds no XML element");
      return;
    }
    if (this.depth > 0 && !this.rootDone) {
      // A file cut short: the entry being read is left out, since its last field may be cut too.
      this.sink.report(
        "xml-malformed",
        this.lines.lineAt(Number.MAX_SAFE_INTEGER),
        `the file ends inside <${this.rootName}>: it is cut short or not well-formed; an unfinished entry is left out`,
      );
    }
    this.ending = true;
    this.parser.end();
  }

  private lineAt(offset: number): number {
    return this.lines.lineAt(offset);
  }

  // ---- the fast path ------------------------------------------------------------------------

  /**
   * Gives text to the tokenizer, after counting the newlines the fast path read, and its markup
   * against MAX_MARKUP_UNITS: past it, only the text before the `<` over the limit is given.
   */
  private feed(whole: string): void {
    let text = whole;
    // Each `<` and each `=` (an attribute costs the tokenizer about what a tag does).
    let lt = text.indexOf("<");
    let eq = text.indexOf("=");
    let cut = -1;
    while (lt >= 0 || eq >= 0) {
      const atLt = eq < 0 || (lt >= 0 && lt < eq);
      this.markupUnits += TOKENIZED_MARKUP_WEIGHT;
      if (!atLt && declaresNamespace(text, eq)) this.markupUnits += NAMESPACE_MARKUP_WEIGHT;
      if (this.markupUnits > MAX_MARKUP_UNITS) {
        cut = atLt ? lt : eq;
        break;
      }
      if (atLt) lt = text.indexOf("<", lt + 1);
      else eq = text.indexOf("=", eq + 1);
    }
    if (cut >= 0) text = text.slice(0, cut);
    this.flushNewlines();
    this.keepFieldLine();
    this.lines.push(text);
    this.fed += text.length;
    this.parser.write(text);
    // An element the tokenizer reads through without an event (text, unmatched end tags) is
    // judged at each chunk's end too.
    if (this.blockDepth !== 0 && this.fed - this.blockStart > MAX_ENTRY_CHARS)
      this.entryTooLarge(this.blockLine);
    if (cut >= 0) this.tooMuchMarkup(this.lineAt(this.fed));
  }

  private tooMuchMarkup(line: number): void {
    if (this.sink.stopped) return;
    this.sink.report(
      "too-much-markup",
      line,
      `more than ${MAX_MARKUP_UNITS.toLocaleString("en-US")} tags, comments and CDATA sections in one file (a sitemap of 50,000 entries holds a few million); reading stopped`,
    );
    this.parser.pause();
  }

  /**
   * An element at the top level over MAX_ENTRY_CHARS or MAX_ENTRY_TAGS: reading stops, keeping the
   * entries before it. It is not skipped to read on after it: its end would have to be found by a
   * reading of the markup in it, which is the cost being refused, and a cheaper look (the next
   * `</url>`) could take one inside a comment or CDATA section for its end and read entries that
   * are not in the file.
   */
  private entryTooLarge(line: number): void {
    if (this.sink.stopped) return;
    this.sink.report(
      "entry-too-large",
      line,
      `an element here spans more than ${MAX_ENTRY_CHARS} characters or ${MAX_ENTRY_TAGS} tags (a sitemap entry is a few KB); reading stopped`,
    );
    this.parser.pause();
  }

  /** Counts one piece of markup in the element being read; false when reading stops here. */
  private countMarkup(): boolean {
    if (this.blockDepth === 0) return true;
    if (
      ++this.blockMarkup > MAX_ENTRY_TAGS ||
      this.parser.startIndex - this.blockStart >= MAX_ENTRY_CHARS
    ) {
      this.entryTooLarge(this.blockLine);
      return false;
    }
    return true;
  }

  private flushNewlines(): void {
    if (this.skippedNewlines === 0) return;
    const n = this.skippedNewlines;
    this.skippedNewlines = 0;
    this.keepFieldLine();
    this.lines.addLines(n);
  }

  /**
   * The line index keeps two chunks; a field's text may span more, so the line of its start is
   * taken before a new chunk comes.
   */
  private keepFieldLine(): void {
    if (this.field !== null && this.fieldLineKnown === null)
      this.fieldLineKnown = this.lineAt(this.fieldStart);
  }

  /**
   * After something unusual: the tokenizer reads up to the next entry's end tag, and again, until
   * it is known to stand between entries — its last event that very end tag, ending where its
   * text ends (so it holds no half-read token: not in a comment, CDATA or attribute), at depth
   * one with no entry, field or skipped element open, unprefixed names in the root's vocabulary.
   * The fast path then reads on from there.
   * The end tag `</url>` (or `</sitemap>`) is looked for as written; a file that never gives it
   * is read by the tokenizer to its end. True when the fast path reads on.
   */
  private catchUp(): boolean {
    const close = `</${this.scanContext.entryName}>`;
    for (;;) {
      const at = this.pending.indexOf(close);
      if (at < 0) {
        // The tail might be the start of the end tag: it waits for the next chunk.
        const give = this.pending.length - Math.min(this.pending.length, close.length - 1);
        if (give > 0) this.feedPending(give);
        return false;
      }
      this.feedPending(at + close.length);
      if (this.sink.stopped) return false;
      if (
        this.lastCloseEnd === this.fed - 1 &&
        this.depth === 1 &&
        this.skipDepth === 0 &&
        !this.inEntry &&
        this.field === null &&
        !this.inCdata &&
        !this.rootDone &&
        this.defaultNs === this.vocabulary
      ) {
        this.mode = "fast";
        this.needLength = 0;
        this.pendingLine = this.lineAt(this.fed);
        return true;
      }
    }
  }

  private feedPending(length: number): void {
    const piece = this.pending.slice(0, length);
    this.pending = this.pending.slice(length);
    this.feed(piece);
  }

  /** From here on the tokenizer reads everything. */
  private toFull(): void {
    this.mode = "full";
    const rest = this.pending;
    this.pending = "";
    if (rest !== "") this.feed(rest);
  }

  private toCatchUp(): void {
    this.mode = "catch-up";
    this.needLength = 0;
  }

  /** Gives the tokenizer all up to the end of the root's start tag; then the fast path, if it fits. */
  private readHead(): void {
    const end = headEnd(this.pending);
    if (end === null) {
      if (this.pending.length > MAX_FAST_HEAD) this.headToTokenizer();
      return;
    }
    if (end === false) {
      this.headToTokenizer();
      return;
    }
    const head = this.pending.slice(0, end);
    this.pending = this.pending.slice(end);
    this.pendingLine = 1 + countNewlines(head, 0, head.length);
    this.feed(head);
    if (this.depth === 1 && this.skipDepth === 0 && this.fits()) this.mode = "fast";
    else this.toFull();
  }

  /**
   * A head the scan does not read (text before the root, a root start tag longer than
   * MAX_FAST_HEAD): the tokenizer reads on, and once the root is open the catch-up takes over.
   */
  private headToTokenizer(): void {
    this.mode = "head-tokenizer";
    const rest = this.pending;
    this.pending = "";
    this.feed(rest);
    this.afterRootOpen();
  }

  private afterRootOpen(): void {
    if (this.sink.stopped || (this.depth === 0 && !this.rootDone)) return;
    if (this.fits()) this.toCatchUp();
    else this.mode = "full";
  }

  /** Whether the fast path can read this file's entries: sets what it looks for if so. */
  private fits(): boolean {
    const format = this.sink.format;
    if (
      this.sink.stopped ||
      this.rootDone ||
      (format !== "urlset" && format !== "sitemapindex") ||
      this.rootName.includes(":") ||
      this.defaultNs !== this.vocabulary
    )
      return false;
    this.scanContext = { ...this.scanContext, entryName: format === "urlset" ? "url" : "sitemap" };
    return true;
  }

  private readFast(): void {
    const text = this.pending;
    let pos = 0;
    let line = this.pendingLine;
    while (!this.sink.stopped) {
      const lt = text.indexOf("<", pos);
      const stop = lt < 0 ? text.length : lt;
      const newlines = countNewlines(text, pos, stop);
      this.skippedNewlines += newlines;
      line += newlines;
      pos = stop;
      if (lt < 0) break;
      if (this.needLength > 0 && text.length - lt < this.needLength) break;
      const scan = scanBlock(text, lt, this.scanContext);
      if (scan.kind === "more") {
        // Scanned again only when twice as long, so that a long block costs linear time.
        this.needLength = 2 * (text.length - lt);
        break;
      }
      if (scan.kind === "too-large") {
        this.entryTooLarge(line);
        break;
      }
      this.needLength = 0;
      if (scan.kind === "unusual") {
        this.pending = text.slice(lt);
        this.pendingLine = line;
        this.toCatchUp();
        return;
      }
      // A block the tokenizer is then given costs this scan too, and is counted again as given.
      this.markupUnits += scan.kind === "ignored" ? 1 : scan.tags;
      if (this.markupUnits > MAX_MARKUP_UNITS) {
        this.tooMuchMarkup(line);
        break;
      }
      const blockLines = countNewlines(text, lt, scan.end);
      if (scan.kind === "ignored") {
        // The tokenizer is not given it: it would keep each such piece until the next tag.
        this.skippedNewlines += blockLines;
      } else if (scan.entry === null) {
        this.feed(text.slice(lt, scan.end));
      } else {
        this.readEntry(text, lt, line, scan.entry);
        this.skippedNewlines += blockLines;
      }
      line += blockLines;
      pos = scan.end;
    }
    this.pending = pos === 0 ? text : text.slice(pos);
    this.pendingLine = line;
  }

  /** A plain entry, read by the same code the tokenizer's events drive. */
  private readEntry(text: string, from: number, line: number, fields: readonly FastField[]): void {
    const format = this.sink.format;
    if (!this.sink.begin(line, format === "sitemapindex" ? "sitemap" : "URL")) return;
    this.fastRead++;
    this.inEntry = true;
    this.draft = emptyDraft(line);
    this.fastText = text;
    this.fastFrom = from;
    this.fastLine = line;
    for (const f of fields) {
      const ns = f.prefix === "" ? this.defaultNs : (this.prefixes.get(f.prefix) ?? "?");
      const field = this.fieldFor(f.local, ns, ns === this.vocabulary || isSitemapNamespace(ns));
      if (field === null) continue;
      const cut = f.textEnd - f.textStart > MAX_FIELD_CHARS;
      this.field = field;
      this.fieldStart = f.tagStart;
      this.fieldRaw = text.slice(f.textStart, cut ? f.textStart + MAX_FIELD_CHARS : f.textEnd);
      this.fieldCut = cut;
      this.closeField();
    }
    this.closeEntry();
    this.fastText = null;
  }

  /** What a direct child of a plain entry is, by its namespace, as `onopentag` would judge it. */
  private childKind(prefix: string, local: string): ChildKind {
    if (prefix === "") return "field";
    const ns = this.prefixes.get(prefix) ?? "?";
    if (ns === this.vocabulary || isSitemapNamespace(ns)) return "other";
    if (ns === REGP_NAMESPACE) return local === "type" || local === "srcloc" ? "field" : "other";
    return "skip";
  }

  // ---- htmlparser2 callbacks ----------------------------------------------------------------

  onprocessinginstruction(name: string, data: string): void {
    if (this.sink.stopped || !this.countMarkup()) return;
    const lower = name.toLowerCase();
    if (!lower.startsWith("!")) return; // `<?xml …?>` and other processing instructions
    const line = this.lineAt(this.parser.startIndex);
    if (lower === "!doctype" && this.sink.format === null && /^!doctype\s+html\b/i.test(data)) {
      this.sink.report("not-a-sitemap", line, "this is an HTML page, not a sitemap");
      return;
    }
    this.sink.report(
      "doctype",
      line,
      `a <${name}> declaration: sitemaps have no DTD, and heed reads none (no entity is expanded); reading stopped`,
    );
  }

  oncdatastart(): void {
    this.inCdata = true;
    this.countMarkup();
  }

  oncomment(): void {
    if (!this.inCdata && !this.sink.stopped) this.countMarkup();
  }

  oncdataend(): void {
    this.inCdata = false;
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    if (this.sink.stopped) {
      // Stop the parser in the middle of the chunk it was given: what follows is not read.
      this.parser.pause();
      return;
    }
    if (!this.countMarkup()) return;
    const depth = ++this.depth;
    this.lastOpenStart = this.parser.startIndex;
    if (depth === this.entryLevel) {
      // An element where entries are (in RSS, inside the channel), an entry or not.
      this.blockDepth = depth;
      this.blockStart = this.parser.startIndex;
      this.blockLine = this.lineAt(this.parser.startIndex);
      this.blockMarkup = 0;
    }
    if (depth > MAX_XML_DEPTH) {
      this.sink.report(
        "xml-too-deep",
        this.lineAt(this.parser.startIndex),
        `more than ${MAX_XML_DEPTH} elements open at once; reading stopped (a sitemap needs four or five)`,
      );
      this.parser.pause();
      return;
    }
    if (this.skipDepth !== 0) return;
    if (this.rootDone) {
      this.skipDepth = depth;
      return;
    }
    for (const key in attribs) {
      if (key === "xmlns" || key.startsWith("xmlns:"))
        this.bind(depth, key === "xmlns" ? "" : key.slice(6), attribs[key] ?? "");
    }
    const colon = name.indexOf(":");
    const local = colon < 0 ? name : name.slice(colon + 1);
    const ns = colon < 0 ? this.defaultNs : (this.prefixes.get(name.slice(0, colon)) ?? "?");
    if (depth === 1) {
      this.rootName = name;
      this.openRoot(local, ns);
      return;
    }
    const mine = ns === this.vocabulary || isSitemapNamespace(ns);
    const format = this.sink.format;
    if (this.field !== null) {
      // Markup inside a field: its text is not the field's.
      this.skipDepth = depth;
      return;
    }
    if (!this.inEntry) {
      if (format === "rss" && depth === 2 && mine && local === "channel") return;
      if (depth === this.entryLevel && mine && local === ENTRY_NAME[format ?? "urlset"]) {
        const line = this.lineAt(this.parser.startIndex);
        if (!this.sink.begin(line, format === "sitemapindex" ? "sitemap" : "URL")) return;
        this.inEntry = true;
        this.draft = emptyDraft(line);
        return;
      }
      this.skipDepth = depth;
      return;
    }
    if (depth !== this.entryLevel + 1) {
      this.skipDepth = depth;
      return;
    }
    const field = this.fieldFor(local, ns, mine);
    if (field === null) {
      if (format === "atom" && mine && local === "link") this.atomLink(attribs);
      this.skipDepth = depth;
      return;
    }
    this.field = field;
    this.fieldDepth = depth;
    this.fieldStart = this.parser.startIndex;
    this.fieldLineKnown = null;
    this.fieldRaw = "";
    this.fieldCut = false;
  }

  ontext(data: string): void {
    if (this.field === null || this.skipDepth !== 0 || this.depth !== this.fieldDepth) return;
    if (this.fieldCut) return;
    const piece = this.inCdata ? escapeCdata(data) : data;
    if (this.fieldRaw.length + piece.length > MAX_FIELD_CHARS) {
      this.fieldCut = true;
      this.fieldRaw += piece.slice(0, MAX_FIELD_CHARS - this.fieldRaw.length);
      return;
    }
    this.fieldRaw += piece;
  }

  onclosetag(name: string, isImplied: boolean): void {
    if (this.sink.stopped || this.ending) return;
    if (!isImplied && !this.countMarkup()) return;
    this.lastCloseEnd = this.parser.endIndex;
    const depth = this.depth;
    if (depth === 0) return;
    if (depth === this.blockDepth) {
      this.blockDepth = 0;
      if (this.parser.endIndex + 1 - this.blockStart > MAX_ENTRY_CHARS) {
        this.entryTooLarge(this.blockLine);
        return;
      }
    }
    if (isImplied && this.parser.startIndex !== this.lastOpenStart) this.malformed(name);
    if (this.skipDepth !== 0) {
      if (depth === this.skipDepth) this.skipDepth = 0;
    } else if (this.field !== null && depth === this.fieldDepth) {
      this.closeField();
    } else if (this.inEntry && depth === this.entryLevel) {
      this.closeEntry();
    }
    if (depth === 1) this.rootDone = true;
    this.depth--;
    while (this.nsUndo.length > 0 && (this.nsUndo[this.nsUndo.length - 1]?.depth ?? 0) >= depth) {
      const undo = this.nsUndo.pop();
      if (undo === undefined) break;
      if (undo.prefix === "") this.defaultNs = undo.previous ?? "";
      else if (undo.previous === undefined) this.prefixes.delete(undo.prefix);
      else this.prefixes.set(undo.prefix, undo.previous);
    }
  }

  // ---- the state machine --------------------------------------------------------------------

  private openRoot(local: string, ns: string): void {
    const line = this.lineAt(this.parser.startIndex);
    if ((local === "urlset" || local === "sitemapindex") && ns !== ATOM_NAMESPACE) {
      const format = local === "urlset" ? "urlset" : "sitemapindex";
      this.sink.setFormat(format, this.compressed);
      this.entryLevel = 2;
      if (ns === "")
        this.sink.report(
          "namespace",
          line,
          `<${local}> has no namespace; sitemaps.org requires xmlns="${SITEMAP_NAMESPACE}"`,
        );
      else if (!isSitemapNamespace(ns))
        this.sink.report(
          "namespace",
          line,
          `<${local}> is in the namespace "${clip(ns)}"; sitemaps.org requires "${SITEMAP_NAMESPACE}"`,
        );
    } else if (local === "rss") {
      this.sink.setFormat("rss", this.compressed);
      this.entryLevel = 3;
      this.dateStyle = "rfc822";
    } else if (local === "feed" && (ns === ATOM_NAMESPACE || ns === ATOM_03_NAMESPACE)) {
      this.sink.setFormat("atom", this.compressed);
      this.entryLevel = 2;
    } else {
      this.sink.report(
        "not-a-sitemap",
        line,
        `the root element is <${local}>; a sitemap's is <urlset> or <sitemapindex> (or <rss>, <feed> for feeds)`,
      );
      return;
    }
    this.vocabulary = ns;
  }

  private fieldFor(local: string, ns: string, mine: boolean): Field | null {
    switch (this.sink.format) {
      case "urlset":
        if (mine) {
          switch (local) {
            case "loc":
            case "lastmod":
            case "changefreq":
            case "priority":
            case "type":
            case "srcloc":
              return local;
            default:
              return null;
          }
        }
        return ns === REGP_NAMESPACE && (local === "type" || local === "srcloc") ? local : null;
      case "sitemapindex":
        return mine && (local === "loc" || local === "lastmod") ? local : null;
      case "rss":
        if (!mine) return null;
        return local === "link" ? "loc" : local === "pubDate" ? "lastmod" : null;
      case "atom":
        if (!mine) return null;
        return local === "updated" || local === "modified" ? "lastmod" : null;
      default:
        return null;
    }
  }

  /** Atom `<link href>`: the entry's URL is its first link with no `rel` or `rel="alternate"`. */
  private atomLink(attribs: Record<string, string>): void {
    const rel = attribs.rel;
    const href = attribs.href;
    if (href === undefined || (rel !== undefined && rel !== "alternate")) return;
    if (this.draft.hasLoc) return;
    this.fieldStart = this.parser.startIndex;
    this.fieldLineKnown = null;
    this.fieldRaw = href;
    this.fieldCut = false;
    this.field = "loc";
    this.closeField();
  }

  /** The line of the field being closed; computed only when a finding needs it. */
  private fieldLine(): number {
    if (this.fastText !== null) {
      // Fields come in order: count on from the last one, so that many findings cost linear time.
      if (this.fieldStart >= this.fastFrom) {
        this.fastLine += countNewlines(this.fastText, this.fastFrom, this.fieldStart);
        this.fastFrom = this.fieldStart;
      }
      return this.fastLine;
    }
    return this.fieldLineKnown ?? this.lineAt(this.fieldStart);
  }

  private closeField(): void {
    const field = this.field;
    this.field = null;
    if (field === null) return;
    this.closing = field;
    const d = this.draft;
    const bit = FIELD_BIT[field];
    if ((d.seen & bit) !== 0) {
      this.sink.report(
        "duplicate-field",
        this.fieldLine(),
        `a second <${field}> in one entry; the first is kept`,
      );
      return;
    }
    d.seen |= bit;
    if (this.fieldCut)
      this.sink.report(
        "field-too-long",
        this.fieldLine(),
        `<${field}> is longer than ${MAX_FIELD_CHARS} characters; the rest was not read`,
      );
    const raw = this.fieldRaw;
    const text = raw.indexOf("&") < 0 ? raw : decodeXmlText(raw, this.onEntity);
    switch (field) {
      case "loc":
        d.hasLoc = true;
        d.loc = this.readLoc(text);
        return;
      case "lastmod":
        d.lastmod = this.readLastmod(text);
        return;
      case "changefreq":
        d.changefreq = this.value(checkChangefreq(text), field);
        return;
      case "priority":
        d.priority = this.value(checkPriority(text), field);
        return;
      case "type":
        d.type = this.value(checkPageType(text), field);
        return;
      case "srcloc":
        d.srcloc = this.value(checkUrl(text, "srcloc"), field)?.text ?? null;
        return;
    }
  }

  private readonly onEntity = (issue: EntityIssue, ref: string): void => {
    const field = this.closing;
    this.sink.report(
      issue,
      this.fieldLine(),
      issue === "unescaped-ampersand"
        ? `a bare "&" in <${field}> (sitemaps.org "Entity escaping": write &amp;); kept as written`
        : `${ref} is not an XML entity (only &amp; &lt; &gt; &quot; &apos; and numeric references are); kept as written`,
    );
  };

  private readLoc(text: string): string | null {
    const checked = checkUrl(text, "loc");
    if (!checked.ok) {
      this.sink.report(checked.code, this.fieldLine(), `${checked.message}; entry skipped`);
      return null;
    }
    const { url, tooLong } = checked.value;
    if (tooLong)
      this.sink.report(
        "loc-too-long",
        this.fieldLine(),
        `<loc> has ${checked.value.text.length} characters; sitemaps.org allows fewer than 2,048`,
      );
    const scope = this.sink.scope;
    // An index's sitemaps are judged when followed (src/net/sitemap-fetch.ts), by its own rule.
    if (scope !== null && this.sink.format !== "sitemapindex") {
      const why = scope.check(url);
      if (why !== null) {
        this.sink.report(
          "loc-out-of-scope",
          this.fieldLine(),
          `${clip(checked.value.text)} is ${why}; entry skipped`,
        );
        return null;
      }
    }
    return checked.value.text;
  }

  private readLastmod(text: string): string | null {
    if (this.dateStyle === "rfc822") {
      const parsed = rfc822ToW3c(text);
      if (parsed.ok) return w3cText(parsed.value);
      this.sink.report("lastmod-invalid", this.fieldLine(), `${parsed.error}; <pubDate> dropped`);
      return null;
    }
    const problem = checkW3cDatetime(text);
    if (problem === null) return text.trim();
    this.sink.report("lastmod-invalid", this.fieldLine(), `${problem}; <lastmod> dropped`);
    return null;
  }

  private value<T>(result: FieldResult<T>, field: Field): T | null {
    if (result.ok) return result.value;
    this.sink.report(result.code, this.fieldLine(), `${result.message}; <${field}> dropped`);
    return null;
  }

  private closeEntry(): void {
    this.inEntry = false;
    const d = this.draft;
    if (d.loc === null) {
      if (!d.hasLoc) {
        const what = ENTRY_NAME[this.sink.format ?? "urlset"];
        const field = this.sink.format === "rss" || this.sink.format === "atom" ? "link" : "loc";
        this.sink.report("loc-missing", d.line, `<${what}> without <${field}>; entry skipped`);
      }
      return;
    }
    if (this.sink.format === "sitemapindex") {
      this.sink.sitemap({ loc: d.loc, lastmod: d.lastmod, line: d.line });
    } else {
      this.sink.url({
        loc: d.loc,
        lastmod: d.lastmod,
        changefreq: d.changefreq,
        priority: d.priority,
        type: d.type,
        srcloc: d.srcloc,
        line: d.line,
      });
    }
  }

  private bind(depth: number, prefix: string, uri: string): void {
    const previous = prefix === "" ? this.defaultNs : this.prefixes.get(prefix);
    this.nsUndo.push({ depth, prefix, previous });
    if (prefix === "") this.defaultNs = uri;
    else this.prefixes.set(prefix, uri);
  }

  private malformed(name: string): void {
    if (this.malformedReported) return;
    this.malformedReported = true;
    this.sink.report(
      "xml-malformed",
      this.lineAt(this.parser.startIndex),
      `<${name}> is not closed before the end tag of an element around it: not well-formed XML`,
    );
  }
}

const ENTRY_NAME: Readonly<Record<string, string>> = {
  urlset: "url",
  sitemapindex: "sitemap",
  rss: "item",
  atom: "entry",
  text: "",
};

/**
 * Where the root element's start tag ends, past white space, `<?…?>` and comments before it: null
 * when the text ends first, false when something else comes first (the tokenizer reads it all).
 */
function headEnd(text: string): number | null | false {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text.charAt(i))) i++;
    if (i >= text.length) return null;
    if (text.charCodeAt(i) !== 60 /* < */) return false;
    if (i + 4 > text.length) return null;
    if (text.startsWith("<?", i)) {
      // The tokenizer ends a processing instruction at the first `?>` after its `<?`.
      const end = text.indexOf("?>", i + 2);
      if (end < 0) return null;
      i = end + 2;
    } else if (text.startsWith("<!--", i)) {
      const close = text.indexOf("-->", i + 4);
      if (close < 0) return null;
      i = close + 3;
    } else if (text.startsWith("<!", i) || text.startsWith("</", i)) {
      return false;
    } else {
      return startTagEnd(text, i);
    }
  }
}

function emptyDraft(line: number): Draft {
  return {
    line,
    loc: null,
    hasLoc: false,
    lastmod: null,
    changefreq: null,
    priority: null,
    type: null,
    srcloc: null,
    seen: 0,
  };
}

/** Whether the attribute whose `=` is at `eq` is a namespace declaration (`xmlns`, `xmlns:p`). */
function declaresNamespace(text: string, eq: number): boolean {
  let end = eq;
  while (end > 0 && /\s/.test(text[end - 1] ?? "")) end--;
  // A name longer than this is no declaration worth weighing; the walk stays bounded.
  const stop = Math.max(0, end - 64);
  let start = end;
  while (start > stop && !/[\s<>"'=/]/.test(text[start - 1] ?? "")) start--;
  return text.startsWith("xmlns", start) && (end - start === 5 || text[start + 5] === ":");
}

function isSitemapNamespace(ns: string): boolean {
  return ns === SITEMAP_NAMESPACE || LEGACY_SITEMAP_NAMESPACES.includes(ns);
}
