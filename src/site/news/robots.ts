/**
 * The news site's robots.txt in the three forms of seeds/003 §5: none (Table 9), the old REP
 * file (Table 11) and the REGP file (Table 10). Pure text.
 */

export type RobotsVariant = "none" | "rep" | "regp";

export const ROBOTS_VARIANTS: readonly RobotsVariant[] = ["none", "rep", "regp"];

export interface RobotsTextOptions {
  /** The site's origin, e.g. `http://127.0.0.1:8089`: the Sitemap line names its sitemap. */
  readonly origin: string;
  /** REGP `Language` value; the paper's file says `zh-CN`, its last run `fr`. */
  readonly language?: string;
  /**
   * REGP `Visit-time` value, added to the global section as in §5's further run ("Visit-time:
   * 21:00:00 +0800-08:00:00 +0800"); none by default.
   */
  readonly visitTime?: string;
}

/** seeds/003 §5, the old REP: only which resources may be fetched. */
const REP_TEXT = `User-agent: *
Disallow: /login.do
Disallow: /reg.do
Disallow: /newsRelease.do
`;

/** The text of /robots.txt, or null for `none` (the site answers 404). */
export function robotsText(variant: RobotsVariant, options: RobotsTextOptions): string | null {
  switch (variant) {
    case "none":
      return null;
    case "rep":
      return REP_TEXT;
    case "regp":
      return regpText(options);
  }
}

/**
 * seeds/003 §5's REGP file, line for line, but for the Sitemap line: the paper's names its own
 * host (`http://10.60.149.65:8089/test1/sitemap.xml`); this site names its own absolute URL.
 */
function regpText(options: RobotsTextOptions): string {
  const lines = [
    "Robot-version: 3.0",
    "Last-modified: 19 Mar 2015 12:00:00 +0800",
    "",
    "User-agent: *",
    "Disallow: /login.do",
    "Disallow: /reg.do",
    "Disallow: /newsRelease.do",
    "Request-rate: 120/m",
    "{",
    "  Allow: /newsitem.do?",
    "  Crawl-delay: 5",
    "}",
    "{",
    "  Allow: /html/",
    "  Crawl-delay: 1",
    "}",
    "",
    `Sitemap: ${new URL("/sitemap.xml", options.origin).href}`,
    "Cookie: user=robot",
    `Language: ${options.language ?? "zh-CN"}`,
    "Encoding: gzip, deflate",
  ];
  if (options.visitTime !== undefined) lines.push(`Visit-time: ${options.visitTime}`);
  return `${lines.join("\n")}\n`;
}
