/**
 * Answers of the action endpoint (seeds/001 §3.1.2, §3.3): HTML documents that carry one line
 * a robot looks for: `RegistrationKey: string`, `SequenceNumber=integer`, or a report (§3.3.4:
 * "an HTML document of the same data format" as the mail). heed puts the line or the report in
 * a `<pre>` element, escaped, and reads either that or a plain-text body.
 */

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

export function htmlDocument(title: string, preformatted: string): string {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body><pre>\n${escapeHtml(preformatted)}</pre></body></html>\n`;
}

/** The text a robot reads: the first `<pre>` element's, else the whole body. */
export function answerText(body: string): string {
  const m = /<pre[^>]*>\n?([\s\S]*?)<\/pre>/i.exec(body);
  return m === null ? body : unescapeHtml(m[1] ?? "");
}

export function registrationAnswer(key: string): string {
  return htmlDocument("RUP registration", `RegistrationKey: ${key}\n`);
}

export function sequenceAnswer(sequenceNumber: number): string {
  return htmlDocument("RUP sequence number", `SequenceNumber=${sequenceNumber}\n`);
}

export function readRegistrationKey(body: string): string | null {
  const m = /^\s*RegistrationKey:\s*(\S+)\s*$/m.exec(answerText(body));
  return m?.[1] ?? null;
}

export function readSequenceNumber(body: string): number | null {
  const m = /^\s*SequenceNumber\s*=\s*(\d{1,15})\s*$/m.exec(answerText(body));
  return m?.[1] === undefined ? null : Number(m[1]);
}
