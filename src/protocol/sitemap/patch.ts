/**
 * Changing one entry of a sitemap in a stream, leaving every other byte as it was: the text goes
 * through in chunks; only the `<url>` (or an index's `<sitemap>`) whose `<loc>` matches is
 * rewritten, field by field, and the root's end tag is held back so that the caller can add a
 * new entry before it. Comments, formatting and extensions (image, news, video…) survive.
 *
 * This is how seeds/003 §4.1's news site keeps its sitemap current (Figs. 2-3): releasing a news
 * item adds an entry (`<loc>`, `<srcloc>`, `<type>data</type>`); a new comment updates that
 * entry's `<lastmod>`. Fields keep the order the sitemaps.org schema gives (`loc`, `lastmod`,
 * `changefreq`, `priority`, then extensions such as REGP's `type` and `srcloc`).
 *
 * Pure and synchronous: text in, text out; src/site/sitemap-writer.ts does the files.
 */
import { Parser } from "htmlparser2";
import { decodeXmlText, escapeCdata } from "./entities.js";
import { unwrapUrlText } from "./fields.js";
import {
  LEGACY_SITEMAP_NAMESPACES,
  MAX_XML_DEPTH,
  REGP_NAMESPACE,
  REGP_PREFIX,
  SITEMAP_NAMESPACE,
} from "./limits.js";
import { escapeXml } from "./writer.js";

export type PatchField = "lastmod" | "changefreq" | "priority" | "type" | "srcloc";

/** Standard fields in schema order; REGP's come after them. */
const ORDER: readonly (PatchField | "loc")[] = ["loc", "lastmod", "changefreq", "priority"];

export interface PatchSpec {
  /** The entry's `<loc>`, compared as written (entities decoded, trimmed). */
  readonly loc: string;
  /** Values to write, as they are to appear (already checked); null removes the field. */
  readonly set: Readonly<Partial<Record<PatchField, string | null>>>;
  /** The update writes `<type>` or `<srcloc>`: make sure heed's REGP namespace is declared. */
  readonly needsRegp: boolean;
}

export interface PatchResult {
  readonly format: "urlset" | "sitemapindex";
  /** An entry with the `loc` was found (and patched). */
  readonly found: boolean;
  /** Something in the output differs from the input. */
  readonly changed: boolean;
  /** Entries in the file. */
  readonly entries: number;
  /** The prefix bound to heed's REGP namespace in the output, or null when none is. */
  readonly regpPrefix: string | null;
  /** The root's end tag and what follows it, held back: write it after any new entry. */
  readonly tail: string;
  /** White space that starts an entry's line in this file, for a new entry written before `tail`. */
  readonly indent: string;
}

/** Thrown for a file the patcher will not edit; `code` is stable. */
export class SitemapPatchError extends Error {
  readonly code: "not-a-sitemap" | "malformed" | "doctype";
  constructor(code: SitemapPatchError["code"], message: string) {
    super(message);
    this.name = "SitemapPatchError";
    this.code = code;
  }
}

interface Span {
  /** As written, e.g. `lastmod`, `regp:type`, `type`. */
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

export class SitemapPatcher {
  private readonly parser: Parser;
  private buffer = "";
  private bufferStart = 0;
  private out = "";
  private depth = 0;
  private format: "urlset" | "sitemapindex" | null = null;
  private regpPrefix: string | null = null;
  private rootClosedAt = -1;
  private entries = 0;
  private found = false;
  private changed = false;
  private indent = "  ";
  // The entry being read.
  private entryStart = -1;
  private spans = new Map<string, Span>();
  private fieldName: string | null = null;
  private fieldKey: string | null = null;
  private fieldStart = 0;
  private locRaw = "";
  private inCdata = false;
  private skipDepth = 0;
  private error: SitemapPatchError | null = null;

  constructor(private readonly spec: PatchSpec) {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        onclosetag: (name, implied) => this.close(name, implied),
        ontext: (text) => this.text(text),
        oncdatastart: () => {
          this.inCdata = true;
        },
        oncdataend: () => {
          this.inCdata = false;
        },
        onprocessinginstruction: (name) => {
          if (name.startsWith("!") && this.error === null)
            this.error = new SitemapPatchError(
              "doctype",
              "the file has a <!DOCTYPE>; heed does not edit it",
            );
        },
      },
      { xmlMode: true, decodeEntities: false },
    );
  }

  /** Feeds text; returns the text that may be written out now. */
  write(text: string): string {
    this.buffer += text;
    this.parser.write(text);
    if (this.error !== null) throw this.error;
    const out = this.out;
    this.out = "";
    return out;
  }

  /** Ends the input; returns the rest of the text (without `tail`) and what was found. */
  finish(): { readonly text: string; readonly result: PatchResult } {
    this.parser.end();
    if (this.error !== null) throw this.error;
    if (this.format === null)
      throw new SitemapPatchError("not-a-sitemap", "the file is not an XML urlset or sitemapindex");
    if (this.rootClosedAt < 0)
      throw new SitemapPatchError(
        "malformed",
        `the file ends before </${this.format}>: it is cut short`,
      );
    const text = this.out;
    this.out = "";
    return {
      text,
      result: {
        format: this.format,
        found: this.found,
        changed: this.changed,
        entries: this.entries,
        regpPrefix: this.regpPrefix,
        tail: this.buffer,
        indent: this.indent,
      },
    };
  }

  /** Moves text up to absolute offset `to` from the buffer to the output. */
  private emitTo(to: number): void {
    const n = to - this.bufferStart;
    if (n <= 0) return;
    this.out += this.buffer.slice(0, n);
    this.buffer = this.buffer.slice(n);
    this.bufferStart = to;
  }

  private slice(from: number, to: number): string {
    return this.buffer.slice(from - this.bufferStart, to - this.bufferStart);
  }

  private open(name: string, attribs: Record<string, string>): void {
    if (this.error !== null) return;
    const depth = ++this.depth;
    if (depth > MAX_XML_DEPTH) {
      // Past this the parser's own bookkeeping grows with the square of the depth (limits.ts).
      this.error = new SitemapPatchError(
        "malformed",
        `more than ${MAX_XML_DEPTH} elements open at once; heed does not edit it`,
      );
      this.parser.pause();
      return;
    }
    if (this.skipDepth !== 0 || this.rootClosedAt >= 0) return;
    const local = name.slice(name.indexOf(":") + 1);
    if (depth === 1) {
      if (local !== "urlset" && local !== "sitemapindex") {
        this.error = new SitemapPatchError(
          "not-a-sitemap",
          `the root element is <${name}>; heed edits <urlset> and <sitemapindex> files`,
        );
        return;
      }
      this.format = local;
      this.openRoot(attribs);
      return;
    }
    if (depth === 2) {
      if (local === (this.format === "urlset" ? "url" : "sitemap")) {
        this.emitTo(this.parser.startIndex);
        const lineStart = this.out.lastIndexOf("\n") + 1;
        const lead = this.out.slice(lineStart);
        if (/^[ \t]*$/.test(lead) && lineStart > 0) this.indent = lead;
        this.entryStart = this.parser.startIndex;
        this.spans = new Map();
        this.locRaw = "";
      } else {
        this.skipDepth = depth;
      }
      return;
    }
    if (depth === 3 && this.entryStart >= 0) {
      const key = this.fieldKeyOf(name, local);
      if (key !== null) {
        this.fieldName = name;
        this.fieldKey = key;
        this.fieldStart = this.parser.startIndex;
        return;
      }
    }
    this.skipDepth = depth;
  }

  private fieldKeyOf(name: string, local: string): string | null {
    const colon = name.indexOf(":");
    if (colon >= 0) {
      const prefix = name.slice(0, colon);
      if (prefix === this.regpPrefix && (local === "type" || local === "srcloc")) return local;
      return null;
    }
    if (this.format === "sitemapindex")
      return local === "loc" || local === "lastmod" ? local : null;
    return ["loc", "lastmod", "changefreq", "priority", "type", "srcloc"].includes(local)
      ? local
      : null;
  }

  private text(text: string): void {
    if (this.fieldKey === "loc" && this.depth === 3 && this.skipDepth === 0)
      this.locRaw += this.inCdata ? escapeCdata(text) : text;
  }

  private close(_name: string, implied: boolean): void {
    const depth = this.depth--;
    if (this.skipDepth !== 0) {
      if (depth === this.skipDepth) this.skipDepth = 0;
      return;
    }
    if (this.rootClosedAt >= 0) return;
    if (depth === 3 && this.fieldKey !== null) {
      if (!this.spans.has(this.fieldKey))
        this.spans.set(this.fieldKey, {
          name: this.fieldName ?? this.fieldKey,
          start: this.fieldStart,
          end: this.parser.endIndex + 1,
        });
      this.fieldKey = null;
      this.fieldName = null;
      return;
    }
    if (depth === 2 && this.entryStart >= 0) {
      this.closeEntry(this.parser.startIndex, this.parser.endIndex + 1);
      return;
    }
    if (depth === 1) {
      if (implied) {
        this.error = new SitemapPatchError(
          "malformed",
          `the file ends before </${this.format ?? "urlset"}>: it is cut short`,
        );
        return;
      }
      this.rootClosedAt = this.parser.startIndex;
      this.emitTo(this.rootClosedAt);
    }
  }

  private openRoot(attribs: Record<string, string>): void {
    for (const [key, value] of Object.entries(attribs)) {
      if (key.startsWith("xmlns:") && value === REGP_NAMESPACE) this.regpPrefix = key.slice(6);
    }
    const ns = attribs.xmlns;
    if (ns !== undefined && ns !== SITEMAP_NAMESPACE && !LEGACY_SITEMAP_NAMESPACES.includes(ns)) {
      this.error = new SitemapPatchError(
        "not-a-sitemap",
        `the root is in the namespace "${ns}", not the sitemaps.org one`,
      );
      return;
    }
    if (this.regpPrefix !== null || !this.spec.needsRegp || this.format !== "urlset") return;
    // Declare heed's namespace on the root, under a prefix the file does not use yet.
    let prefix = REGP_PREFIX;
    for (let i = 1; attribs[`xmlns:${prefix}`] !== undefined; i++) prefix = `${REGP_PREFIX}${i}`;
    const end = this.parser.endIndex; // the `>` of the start tag
    const selfClosing = this.slice(end - 1, end) === "/";
    const at = selfClosing ? end - 1 : end;
    this.emitTo(at);
    this.out += ` xmlns:${prefix}="${REGP_NAMESPACE}"`;
    this.regpPrefix = prefix;
    this.changed = true;
  }

  private closeEntry(closeStart: number, end: number): void {
    this.entries++;
    const start = this.entryStart;
    this.entryStart = -1;
    const original = this.slice(start, end);
    const loc = unwrapUrlText(decodeXmlText(this.locRaw));
    if (this.found || loc !== this.spec.loc) {
      this.emitTo(end);
      return;
    }
    this.found = true;
    const patched = this.patchEntry(original, start, closeStart - start);
    if (patched !== original) this.changed = true;
    this.out += patched;
    this.buffer = this.buffer.slice(end - this.bufferStart);
    this.bufferStart = end;
  }

  /** The entry with the spec's fields set; `closeAt` is where its end tag starts, relative. */
  private patchEntry(text: string, base: number, closeAt: number): string {
    type Edit = { at: number; remove: number; insert: string };
    const edits: Edit[] = [];
    const multiline = /\n/.test(text);
    const locSpan = this.spans.get("loc");
    let childIndent = "";
    if (locSpan !== undefined) {
      const before = text.slice(0, locSpan.start - base);
      const lineStart = before.lastIndexOf("\n") + 1;
      const lead = before.slice(lineStart);
      if (lineStart > 0 && /^[ \t]*$/.test(lead)) childIndent = lead;
    }
    const fields: readonly PatchField[] = ["lastmod", "changefreq", "priority", "type", "srcloc"];
    for (const field of fields) {
      const value = this.spec.set[field];
      if (value === undefined) continue;
      if (this.format === "sitemapindex" && field !== "lastmod") continue;
      const span = this.spans.get(field);
      if (span !== undefined) {
        const from = span.start - base;
        const to = span.end - base;
        if (value === null) {
          // Remove the element, and its line when it stands alone on one.
          const lineStart = text.lastIndexOf("\n", from - 1) + 1;
          const alone = /^[ \t]*$/.test(text.slice(lineStart, from)) && text[to] === "\n";
          edits.push(
            alone
              ? { at: lineStart, remove: to + 1 - lineStart, insert: "" }
              : { at: from, remove: to - from, insert: "" },
          );
        } else {
          edits.push({
            at: from,
            remove: to - from,
            insert: `<${span.name}>${escapeXml(value)}</${span.name}>`,
          });
        }
        continue;
      }
      if (value === null) continue;
      const regp = field === "type" || field === "srcloc";
      const name = regp ? `${this.regpPrefix ?? REGP_PREFIX}:${field}` : field;
      const element = `<${name}>${escapeXml(value)}</${name}>`;
      // After the nearest field that comes before it in schema order; REGP's go last.
      let after: Span | undefined;
      if (!regp) {
        for (const f of ORDER) {
          if (f === field) break;
          after = this.spans.get(f) ?? after;
        }
      }
      if (after !== undefined) {
        const at = after.end - base;
        edits.push({ at, remove: 0, insert: multiline ? `\n${childIndent}${element}` : element });
      } else {
        const lineStart = text.lastIndexOf("\n", closeAt - 1) + 1;
        const ownLine = lineStart > 0 && /^[ \t]*$/.test(text.slice(lineStart, closeAt));
        edits.push(
          ownLine
            ? { at: lineStart, remove: 0, insert: `${childIndent}${element}\n` }
            : { at: closeAt, remove: 0, insert: element },
        );
      }
    }
    // Later positions first, so that earlier ones stay valid; equal positions keep call order.
    const ordered = edits.map((e, i) => ({ ...e, i })).sort((a, b) => b.at - a.at || b.i - a.i);
    let out = text;
    for (const e of ordered) out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove);
    return out;
  }
}
