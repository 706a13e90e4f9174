/**
 * Text for a terminal. A robots.txt rule, a URL or a file name can carry control characters;
 * printed as they are, ESC and its kind move the cursor, retitle the window or hide the rest of
 * the line. C0 controls other than tab, DEL and the C1 controls are shown as `\xHH` instead.
 * JSON output needs none of this: JSON escapes them itself.
 */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

export function printable(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** {@link printable} for text of several lines: each line's controls shown, its line ends kept. */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}
