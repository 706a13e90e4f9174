/**
 * REGP files written to use what the real corpus never does (seeds/003 §3.2): IP groups in
 * IPv4 and IPv6, overlapping and odd; visit windows across midnight and Time-forbidden spans;
 * request rates; language, encoding and charset requirements; cookies, mirrors, hosts, index
 * pages and change frequencies; nested brace blocks narrowed by robot, IP and path; patterns
 * with every wildcard form; bad values. With the robots that ask them: addresses inside and
 * outside the ranges, moments inside and outside the windows, and what each robot supports.
 *
 * compare-readings asks them of both builds, so that a change to how REGP answers is held to
 * the old answers on the questions the real files cannot ask. Seeded: the same files every run.
 */
import type { Robot } from "../src/protocol/robots/index.js";

export interface RegpFile {
  readonly name: string;
  readonly text: string;
  readonly paths: readonly string[];
  readonly robots: readonly Robot[];
}

const AGENTS = ["*", "bot", "googlebot", "slurp", "", "Bot-X", "nova"];
const IPS = [
  "*",
  "10.0.0.1",
  "10.0.0.*",
  "10.*.*.*",
  "10.0.0.0/8",
  "10.0.0.0-10.0.0.9",
  "192.168.1.128/25",
  "2001:db8::/32",
  "::1",
  "[2001:db8::1]",
  "::ffff:10.0.0.0/104",
  "300.1.1.1",
  "222.69..**",
];
const PATHS = [
  "/",
  "*",
  "/private",
  "/Private/",
  "/a*b",
  "/*.pdf$",
  "/*?",
  "/x$",
  "$",
  "/**",
  "/news/*/hot",
  "/%7Euser",
  "/~user",
  "/caf%C3%A9",
  "/café",
  "http://www.example.com/news/",
  "no-slash",
  "/a b",
  "/q?x=1",
  "/#frag",
];
const SETTINGS = [
  "Crawl-delay: 2",
  "Crawl-delay: .5",
  "Crawl-delay: soon",
  "Ip-delay: 3",
  "Request-rate: 1/10s",
  "Request-rate: 500/h",
  "Request-rate: 0.5/s",
  "Ip-rate: 10/30m",
  "Ip-rate: 5",
  "Visit-time: 22:00-06:00 UT",
  "Visit-time: 0100-0500",
  "Visit-time: 21:00:00 +0800-08:00:00 +0800",
  "Visit-time: whenever",
  "Time-forbidden: 01:00-02:00 UT",
  "Time-forbidden: 1 Jan 2020 00:00:00 UT-1 Jan 2020 05:59:59 UT",
  "Language: zh-cn, zh",
  "Language: en;q=0.5, fr",
  "Encoding: gzip;q=0, deflate",
  "Charset: gb2312, utf-8",
  "Cookie: user=robot",
  "Cookie: =",
  "Mirror-site: mirror.example.com",
  "Host: www.example.com",
  "Host: [2001:db8::1]",
  "Sitemap: http://www.example.com/sitemap.xml",
  "Index-page: /news/",
  "Index-page: /guide/*.html",
  "Change-daily: /news/*/hot",
  "Change-never: /archive/$",
  "Change-hourly: no-slash",
  "X-Extension: value",
];
const ASKED_PATHS = [
  "/",
  "/private/a",
  "/PRIVATE",
  "/a-b",
  "/ab",
  "/doc.pdf",
  "/doc.pdf?x",
  "/x",
  "/news/1/hot",
  "/news/",
  "/guide/a.html",
  "/archive/",
  "/~user",
  "/%7euser/x",
  "/caf%c3%a9",
  "/q?x=1",
  "/a%20b",
  "/#frag",
  "/robots.txt",
];
const ROBOT_IPS = [
  undefined,
  "10.0.0.5",
  "10.200.0.1",
  "192.168.1.200",
  "2001:db8::7",
  "::1",
  "8.8.8.8",
];
// Moments: across midnight UT, inside 01:00-02:00 UT, inside 2020's forbidden span, midday.
const MOMENTS = [
  undefined,
  Date.UTC(2024, 0, 1, 23, 30),
  Date.UTC(2024, 0, 1, 1, 30),
  Date.UTC(2020, 0, 1, 3, 0),
  Date.UTC(2024, 5, 3, 12, 0),
  Date.UTC(2024, 5, 3, 21, 59, 59, 999),
];
const LANGUAGES = [undefined, [], ["zh"], ["fr", "en"], ["de"]];
const ENCODINGS = [undefined, ["gzip"], ["deflate"]];
const CHARSETS = [undefined, ["utf_8"], ["latin1"]];

/** `count` REGP files (at most a few thousand are worth asking), the same for the same seed. */
export function regpFiles(count: number, seed = 0x29e9): RegpFile[] {
  let state = seed >>> 0;
  const next = (): number => {
    // mulberry32: small, seeded, good enough to pick from lists.
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const some = <T>(list: readonly T[], most: number): T[] =>
    Array.from({ length: int(most + 1) }, () => pick(list));

  const target = (indent: string, withPaths: boolean): string[] => [
    ...some(AGENTS, 2).map((a) => `${indent}User-agent: ${a}`),
    ...some(IPS, 3).map((ip) => `${indent}Ip-${next() < 0.5 ? "allow" : "disallow"}: ${ip}`),
    ...(withPaths ? some(PATHS, 2).map((p) => `${indent}${rule()}: ${p}`) : []),
  ];
  const rule = (): string => (next() < 0.5 ? "Allow" : "Disallow");
  const block = (depth: number): string[] => {
    const indent = "  ".repeat(depth);
    const inner = depth < 3 && next() < 0.3 ? block(depth + 1) : [];
    return [
      `${indent.slice(2)}{`,
      ...target(indent, true),
      ...some(SETTINGS, 3).map((s) => `${indent}${s}`),
      ...inner,
      `${indent.slice(2)}}`,
    ];
  };
  const content = (): string[] => [
    ...some(PATHS, 5).map((p) => `${rule()}: ${p}`),
    ...some(SETTINGS, 4),
    ...(next() < 0.4 ? block(1) : []),
    ...(next() < 0.15 ? block(1) : []),
  ];

  return Array.from({ length: count }, (_, n) => {
    const lines = ["Robot-version: 3.0"];
    if (next() < 0.3)
      lines.push(pick(["Last-modified: 30 Oct 2014 04:31:17 UT", "Last-modified: yesterday"]));
    const sequences = int(4);
    for (let s = 0; s < sequences; s++) {
      lines.push("");
      const t = target("", false);
      lines.push(...(t.length === 0 ? ["User-agent: *"] : t), ...content());
    }
    if (next() < 0.6) lines.push("", ...content());
    const robots: Robot[] = Array.from({ length: 6 }, () => {
      const ip = pick(ROBOT_IPS);
      const at = pick(MOMENTS);
      const languages = pick(LANGUAGES);
      const encodings = pick(ENCODINGS);
      const charsets = pick(CHARSETS);
      return {
        agent: pick(["Bot/1.0", "Googlebot", "Slurp", "nova-crawler", "other"]),
        ...(ip === undefined ? {} : { ip }),
        ...(at === undefined ? {} : { at }),
        ...(languages === undefined ? {} : { languages }),
        ...(encodings === undefined ? {} : { encodings }),
        ...(charsets === undefined ? {} : { charsets }),
      };
    });
    return { name: `regp-${n}`, text: `${lines.join("\n")}\n`, paths: ASKED_PATHS, robots };
  });
}
