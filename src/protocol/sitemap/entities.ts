/**
 * XML character references, decoded by heed rather than by the tokenizer, so that the five
 * predefined entities and numeric references are the only ones there are (no DTD, hence no
 * custom entities and nothing to expand), and so that a bare `&` can be reported where it stands.
 *
 * sitemaps.org "Entity escaping": data values must escape `&`, `'`, `"`, `>`, `<`. seeds/003
 * §3.2.12 writes `<srcloc>http://www.example.com/news/hot.asp?date=1030&id=8</srcloc>` with a bare
 * `&`; heed keeps such an `&` as written and warns, rather than losing the rest of the file.
 */

const PREDEFINED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
// Longest reference looked for: `&#x10FFFF;`, and names of that order.
const MAX_REFERENCE = 32;

export type EntityIssue = "unescaped-ampersand" | "undefined-entity";

/**
 * The text with references replaced; `onIssue` hears of each bare `&` and each reference XML
 * does not define (they are kept as written). A hand-written scan: this runs on every field.
 */
export function decodeXmlText(
  raw: string,
  onIssue?: (issue: EntityIssue, text: string) => void,
): string {
  let amp = raw.indexOf("&");
  if (amp < 0) return raw;
  let out = "";
  let copied = 0;
  while (amp >= 0) {
    const semi = raw.indexOf(";", amp + 1);
    let value: string | null = null;
    let end = amp + 1;
    if (semi > amp + 1 && semi - amp <= MAX_REFERENCE) {
      const name = raw.slice(amp + 1, semi);
      end = semi + 1;
      if (name.charCodeAt(0) === 35 /* # */) {
        const hex = name.charCodeAt(1) === 120 || name.charCodeAt(1) === 88; // x X
        const digits = name.slice(hex ? 2 : 1);
        if (digits !== "" && (hex ? /^[0-9A-Fa-f]+$/ : /^[0-9]+$/).test(digits)) {
          const code = Number.parseInt(digits, hex ? 16 : 10);
          if (isXmlChar(code)) value = String.fromCodePoint(code);
          else onIssue?.("undefined-entity", raw.slice(amp, end));
        } else {
          onIssue?.("unescaped-ampersand", "&");
          end = amp + 1;
        }
      } else {
        value = PREDEFINED[name] ?? null;
        if (value === null) {
          if (NAME.test(name)) onIssue?.("undefined-entity", raw.slice(amp, end));
          else {
            onIssue?.("unescaped-ampersand", "&");
            end = amp + 1;
          }
        }
      }
    } else {
      onIssue?.("unescaped-ampersand", "&");
    }
    if (value !== null) {
      out += raw.slice(copied, amp) + value;
      copied = end;
    }
    amp = raw.indexOf("&", end);
  }
  return copied === 0 ? raw : out + raw.slice(copied);
}

/** XML 1.0 §2.2 `Char`. */
export function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** CDATA content as it would read if written with references, so that one decoder serves both. */
export function escapeCdata(text: string): string {
  return text.indexOf("&") < 0 ? text : text.replace(/&/g, "&amp;");
}
