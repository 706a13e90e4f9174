/**
 * A deterministic corpus of robots.txt files for benchmarks: no network, no downloaded data.
 * Every file is built in memory from a seeded PRNG, in the shapes real sites serve (CMS
 * defaults, e-commerce facet lists, long bot lists, news sites with many sitemaps) and with
 * the dirt real files carry (HTML error pages, BOMs, Latin-1 bytes, CR line ends, misspelt
 * keys, lines without colons, rules before any User-agent, very long lines …).
 *
 * The same seed gives the same bytes and the same queries on every machine and Node version:
 * only integer arithmetic and string building are used, never `Math.random` or the clock.
 */

// ---------------------------------------------------------------------------------------------
// PRNG

/** sfc32, seeded through splitmix32: small, fast, and good enough for test data. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** In [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)] as T;
  }

  /** Log-uniform integer in [lo, hi]: as many small values as large ones per decade. */
  logInt(lo: number, hi: number): number {
    return Math.round(Math.exp(Math.log(lo) + this.float() * (Math.log(hi) - Math.log(lo))));
  }

  /** k distinct items, in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.float() * (copy.length - i));
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, n);
  }

  /** A fresh generator derived from this one, so that one file's length does not shift the next. */
  fork(): Rng {
    return new Rng(this.u32());
  }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary (generic words; no site's file is reproduced)

const SEGMENTS = [
  "blog",
  "news",
  "products",
  "product",
  "category",
  "catalog",
  "shop",
  "store",
  "search",
  "account",
  "cart",
  "checkout",
  "login",
  "register",
  "admin",
  "api",
  "static",
  "assets",
  "images",
  "media",
  "uploads",
  "files",
  "docs",
  "help",
  "support",
  "about",
  "contact",
  "press",
  "careers",
  "events",
  "tags",
  "tag",
  "author",
  "archive",
  "feed",
  "print",
  "downloads",
  "private",
  "tmp",
  "cgi-bin",
  "includes",
  "scripts",
  "css",
  "js",
  "de",
  "fr",
  "en",
  "es",
  "it",
  "nl",
  "en-us",
  "en-gb",
  "m",
  "amp",
  "v1",
  "v2",
  "forum",
  "thread",
  "user",
  "profile",
  "compare",
  "wishlist",
  "reviews",
  "brands",
  "sale",
  "collections",
  "pages",
  "p",
  "c",
  "out",
  "go",
  "redirect",
  "share",
  "embed",
  "preview",
  "draft",
] as const;

const WORDS = [
  "red",
  "blue",
  "green",
  "summer",
  "winter",
  "shoes",
  "dress",
  "laptop",
  "phone",
  "garden",
  "kitchen",
  "chair",
  "lamp",
  "coffee",
  "guide",
  "review",
  "best",
  "cheap",
  "new",
  "how-to",
  "top-10",
  "sneakers",
  "jacket",
  "table",
  "sofa",
  "camera",
  "lens",
  "book",
  "novel",
  "toy",
  "puzzle",
  "bike",
  "helmet",
  "tent",
  "drill",
  "paint",
  "rug",
  "mirror",
  "watch",
  "ring",
  "socks",
  "kettle",
  "blender",
  "monitor",
  "keyboard",
  "cable",
  "charger",
  "pillow",
  "towel",
  "candle",
] as const;

const PARAMS = [
  "sort",
  "order",
  "dir",
  "page",
  "limit",
  "filter",
  "color",
  "colour",
  "size",
  "brand",
  "price",
  "price_min",
  "price_max",
  "q",
  "query",
  "s",
  "ref",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "sessionid",
  "sid",
  "PHPSESSID",
  "fbclid",
  "gclid",
  "view",
  "mode",
  "lang",
  "currency",
  "availability",
  "rating",
  "material",
  "width",
  "format",
  "print",
  "replytocom",
  "add-to-cart",
  "variant",
  "tab",
  "output",
  "callback",
] as const;

/** Non-ASCII path segments; the first ones are also Latin-1. */
const LATIN1_SEGMENTS = [
  "café",
  "über-uns",
  "größe",
  "niño",
  "façade",
  "réduction",
  "straße",
  "søk",
  "naïve",
  "crème-brûlée",
  "ürünler",
  "señal",
] as const;
const NON_ASCII_SEGMENTS = [
  ...LATIN1_SEGMENTS,
  "日本語",
  "検索",
  "カテゴリー",
  "поиск",
  "каталог",
  "κατάλογος",
  "搜索",
  "商品",
  "مدونة",
  "חיפוש",
  "tìm-kiếm",
  "🛒",
] as const;

/** Search engines and other crawlers sites usually let in. */
const WELCOME_BOTS = [
  "Googlebot",
  "bingbot",
  "Slurp",
  "DuckDuckBot",
  "Baiduspider",
  "YandexBot",
  "Yandex",
  "Applebot",
  "Googlebot-Image",
  "Googlebot-News",
  "Mediapartners-Google",
  "AdsBot-Google",
  "msnbot",
  "Sogou web spider",
  "Exabot",
  "SeznamBot",
  "facebookexternalhit",
  "Twitterbot",
  "LinkedInBot",
  "Pinterestbot",
  "Qwantify",
  "Yeti",
  "coccocbot-web",
  "PetalBot",
] as const;

/** Crawlers sites often shut out: SEO tools, AI crawlers, site copiers. */
const BLOCKED_BOTS = [
  "AhrefsBot",
  "SemrushBot",
  "MJ12bot",
  "DotBot",
  "BLEXBot",
  "MegaIndex.ru",
  "rogerbot",
  "DataForSeoBot",
  "serpstatbot",
  "SEOkicks",
  "Screaming Frog SEO Spider",
  "linkdexbot",
  "Barkrowler",
  "GPTBot",
  "ChatGPT-User",
  "CCBot",
  "ClaudeBot",
  "anthropic-ai",
  "Bytespider",
  "Amazonbot",
  "PerplexityBot",
  "Google-Extended",
  "omgilibot",
  "Diffbot",
  "ImagesiftBot",
  "cohere-ai",
  "Timpibot",
  "ia_archiver",
  "archive.org_bot",
  "HTTrack",
  "WebCopier",
  "WebZIP",
  "TeleportPro",
  "Wget",
  "larbin",
  "ZyBorg",
  "grub-client",
  "k2spider",
  "NPBot",
  "WebReaper",
  "Offline Explorer",
  "SiteSnagger",
  "EmailCollector",
  "EmailSiphon",
  "WebStripper",
  "Zealbot",
  "MSIECrawler",
  "Xenu",
  "libwww-perl",
  "psbot",
  "Sosospider",
  "YisouSpider",
  "360Spider",
  "Mail.RU_Bot",
  "Nutch",
  "heritrix",
  "proximic",
  "UbiCrawler",
  "Download Ninja",
  "sitecheck.internetseer.com",
] as const;

/** Agents every file is asked about, besides one the file names and one nobody names. */
export const COMMON_AGENTS = ["Googlebot", "bingbot"] as const;
export const UNKNOWN_AGENT = "NovaCrawler/1.4";

// ---------------------------------------------------------------------------------------------
// Writing lines in the many styles real files use

type Key = "user-agent" | "allow" | "disallow" | "sitemap" | "crawl-delay";

/** How one file writes its lines. Chosen per file, so a file is consistently messy. */
interface Style {
  keyCase: "canonical" | "lower" | "upper" | "title";
  /** What follows the colon. */
  gap: string;
  /** Probability that a key line carries a trailing comment. */
  inlineComments: number;
  /** Probability that a key is misspelt. */
  misspell: number;
  /** Probability that a rule or User-agent line has no colon. */
  noColon: number;
  /** Leading whitespace on rule lines. */
  indent: string;
  /** Whitespace before the colon. */
  preColon: string;
}

const KEY_FORMS: Record<Key, Record<Style["keyCase"], string>> = {
  "user-agent": {
    canonical: "User-agent",
    lower: "user-agent",
    upper: "USER-AGENT",
    title: "User-Agent",
  },
  allow: { canonical: "Allow", lower: "allow", upper: "ALLOW", title: "Allow" },
  disallow: { canonical: "Disallow", lower: "disallow", upper: "DISALLOW", title: "Disallow" },
  sitemap: { canonical: "Sitemap", lower: "sitemap", upper: "SITEMAP", title: "SiteMap" },
  "crawl-delay": {
    canonical: "Crawl-delay",
    lower: "crawl-delay",
    upper: "CRAWL-DELAY",
    title: "Crawl-Delay",
  },
};

/** Misspellings seen in the wild; heed knows some of them, robots-parser none. */
const MISSPELLINGS: Partial<Record<Key, readonly string[]>> = {
  "user-agent": ["User agent", "Useragent", "User_agent", "User-agents", "Use-agent"],
  disallow: ["Dissallow", "Disalow", "Dissalow", "Disallaw", "Disalllow", "Disallows"],
  allow: ["Allows", "Alow"],
  sitemap: ["Site-map", "Site map", "Sitemaps"],
  "crawl-delay": ["Crawl delay", "Crawldelay", "Crawl_delay"],
};

const INLINE_COMMENTS = [
  "# keep out",
  "#private",
  "# added by the SEO plugin",
  "# do not remove",
  "# temporary, see ticket",
  "# faceted navigation",
  "# duplicate content",
  "#  staging only",
  "# thin pages",
  "# requested by legal",
];

/** Builds the lines of one file and records what it names, for the queries. */
class Doc {
  readonly lines: string[] = [];
  /** Path values of Allow and Disallow lines, as written. */
  readonly patterns: string[] = [];
  /** User-agent values, as written. */
  readonly agents: string[] = [];
  /** Approximate size in bytes so far (UTF-16 units + line ends). */
  size = 0;
  misspelt = false;
  missingColon = false;

  constructor(
    readonly rng: Rng,
    readonly style: Style,
  ) {}

  raw(line: string): void {
    this.lines.push(line);
    this.size += line.length + 1;
  }

  blank(): void {
    this.raw("");
  }

  comment(text: string): void {
    this.raw(text === "" ? "#" : this.rng.chance(0.1) ? `#${text}` : `# ${text}`);
  }

  field(key: Key, value: string): void {
    const { rng, style } = this;
    let name = KEY_FORMS[key][style.keyCase];
    const wrong = MISSPELLINGS[key];
    if (wrong !== undefined && style.misspell > 0 && rng.chance(style.misspell)) {
      name = rng.pick(wrong);
      this.misspelt = true;
    }
    let sep = `${style.preColon}:${style.gap}`;
    if (
      style.noColon > 0 &&
      key !== "sitemap" &&
      value !== "" &&
      rng.chance(style.noColon) &&
      !name.includes(" ")
    ) {
      sep = " ";
      this.missingColon = true;
    }
    const indent = key === "user-agent" ? "" : style.indent;
    let line = `${indent}${name}${sep}${value}`;
    if (style.inlineComments > 0 && rng.chance(style.inlineComments)) {
      line += `${rng.pick([" ", "  ", "\t"])}${rng.pick(INLINE_COMMENTS)}`;
    }
    this.raw(line);
  }

  ua(name: string): void {
    this.agents.push(name);
    this.field("user-agent", name);
  }

  disallow(path: string): void {
    if (path !== "") this.patterns.push(path);
    this.field("disallow", path);
  }

  allow(path: string): void {
    if (path !== "") this.patterns.push(path);
    this.field("allow", path);
  }

  sitemap(url: string): void {
    this.field("sitemap", url);
  }

  crawlDelay(seconds: string): void {
    this.field("crawl-delay", seconds);
  }
}

function cleanStyle(): Style {
  return {
    keyCase: "canonical",
    gap: " ",
    inlineComments: 0,
    misspell: 0,
    noColon: 0,
    indent: "",
    preColon: "",
  };
}

function randomStyle(rng: Rng): Style {
  const style = cleanStyle();
  style.keyCase = rng.chance(0.7)
    ? "canonical"
    : rng.pick(["lower", "upper", "title"] as const satisfies readonly Style["keyCase"][]);
  style.gap = rng.chance(0.85) ? " " : rng.pick(["", "  ", "\t", " \t"]);
  if (rng.chance(0.25)) style.inlineComments = rng.pick([0.02, 0.1, 0.3]);
  if (rng.chance(0.08)) style.misspell = rng.pick([0.02, 0.1, 0.4]);
  if (rng.chance(0.06)) style.noColon = rng.pick([0.02, 0.1, 0.3]);
  if (rng.chance(0.05)) style.indent = rng.pick(["  ", "\t", "    "]);
  if (rng.chance(0.03)) style.preColon = " ";
  return style;
}

// ---------------------------------------------------------------------------------------------
// Building blocks

function slug(rng: Rng): string {
  const n = rng.int(1, 4);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(rng.pick(WORDS));
  if (rng.chance(0.3)) parts.push(String(rng.int(1, 99999)));
  return parts.join("-");
}

function dir(rng: Rng, depth = rng.int(1, 3)): string {
  let out = "";
  for (let i = 0; i < depth; i++) out += `/${rng.chance(0.7) ? rng.pick(SEGMENTS) : slug(rng)}`;
  return out;
}

function queryString(rng: Rng): string {
  const n = rng.int(1, 3);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(`${rng.pick(PARAMS)}=${rng.chance(0.5) ? rng.pick(WORDS) : rng.int(0, 500)}`);
  }
  return parts.join("&");
}

/** Percent-encodes non-ASCII as UTF-8, hex case as asked. */
function encodeNonAscii(text: string, lowerHex: boolean): string {
  const encoded = encodeURI(text);
  return lowerHex ? encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) : encoded;
}

function nonAsciiSegment(rng: Rng, latin1Only: boolean): string {
  return rng.pick(latin1Only ? LATIN1_SEGMENTS : NON_ASCII_SEGMENTS);
}

/** A random rule path of the kind sites write, wildcards and all. */
function rulePath(rng: Rng, wildcards: boolean): string {
  const r = rng.int(0, 99);
  if (!wildcards || r < 35) {
    const d = dir(rng);
    return rng.chance(0.6) ? `${d}/` : d;
  }
  if (r < 50) return `/*?*${rng.pick(PARAMS)}=`;
  if (r < 58) return `/*&${rng.pick(PARAMS)}=`;
  if (r < 66) return `${dir(rng, 1)}/*${rng.pick([".pdf", ".json", ".xml", ".php", ".asp"])}$`;
  if (r < 74) return `/*.${rng.pick(["pdf", "doc", "xls", "zip", "json", "php", "cgi"])}$`;
  if (r < 82) return `${dir(rng, rng.int(1, 2))}/*/${rng.pick(SEGMENTS)}/`;
  if (r < 88) return `${dir(rng)}?${rng.pick(PARAMS)}=*`;
  if (r < 94) return `/*/${rng.pick(SEGMENTS)}*`;
  return `${dir(rng)}$`;
}

function sitemapUrl(rng: Rng, origin: string): string {
  const name = rng.pick([
    "sitemap.xml",
    "sitemap_index.xml",
    "sitemap-index.xml",
    `sitemaps/${rng.pick(SEGMENTS)}.xml`,
    `sitemap-${rng.pick(SEGMENTS)}-${rng.int(1, 40)}.xml.gz`,
    `news-sitemap.xml`,
    `${rng.pick(["en", "de", "fr"])}/sitemap.xml`,
  ]);
  return `${origin}/${name}`;
}

// ---------------------------------------------------------------------------------------------
// File shapes

type Kind =
  | "minimal"
  | "blanket"
  | "wordpress"
  | "drupal"
  | "mediawiki"
  | "ecommerce"
  | "huge"
  | "many-bots"
  | "news"
  | "hand-written"
  | "html";

interface Built {
  doc: Doc;
  /** Extra traits the shape adds. */
  traits: string[];
  /** Non-ASCII text that must stay Latin-1 when the file is written in Latin-1. */
  latin1Safe: boolean;
}

function minimal(rng: Rng, origin: string): Built {
  const doc = new Doc(rng, rng.chance(0.5) ? cleanStyle() : randomStyle(rng));
  if (rng.chance(0.3)) doc.comment(rng.pick(["robots.txt", `robots.txt for ${origin}`, ""]));
  doc.ua("*");
  doc.disallow(rng.chance(0.7) ? "" : rng.pick(["/cgi-bin/", "/tmp/", "/admin/", "/private/"]));
  if (rng.chance(0.5)) {
    doc.blank();
    doc.sitemap(sitemapUrl(rng, origin));
  }
  return { doc, traits: [], latin1Safe: true };
}

function blanket(rng: Rng, origin: string): Built {
  const doc = new Doc(rng, randomStyle(rng));
  if (rng.chance(0.5)) doc.comment(rng.pick(["staging server: no crawling", "closed site"]));
  if (rng.chance(0.3)) {
    doc.ua("Googlebot");
    doc.allow("/");
    doc.blank();
  }
  doc.ua("*");
  doc.disallow("/");
  if (rng.chance(0.3)) doc.sitemap(sitemapUrl(rng, origin));
  return { doc, traits: [], latin1Safe: true };
}

function wordpress(rng: Rng, origin: string): Built {
  const doc = new Doc(rng, randomStyle(rng));
  const seo = rng.chance(0.4);
  if (seo) {
    doc.comment(`START ${rng.pick(["SEO PLUGIN", "SITEMAP GENERATOR", "CACHE PLUGIN"])} BLOCK`);
    doc.comment("---------------------------");
  }
  doc.ua("*");
  doc.disallow("/wp-admin/");
  doc.allow("/wp-admin/admin-ajax.php");
  const extras = [
    "/wp-includes/",
    "/wp-content/plugins/",
    "/wp-content/cache/",
    "/wp-content/themes/*/inc/",
    "/wp-login.php",
    "/xmlrpc.php",
    "/readme.html",
    "/license.txt",
    "/?s=",
    "/search/",
    "/*?replytocom=",
    "/trackback/",
    "/*/trackback/",
    "/feed/",
    "/*/feed/",
    "/comments/feed/",
    "/tag/*/page/",
    "/author/",
    "/*?p=",
    "/*?add-to-cart=*",
    "/cart/",
    "/checkout/",
    "/my-account/",
    "/*.php$",
    "/wp-json/",
    "/?attachment_id=",
  ];
  for (const path of rng.sample(extras, rng.int(0, 14))) doc.disallow(path);
  if (rng.chance(0.3)) doc.allow("/wp-content/uploads/");
  if (rng.chance(0.3)) doc.allow("/wp-includes/*.js");
  if (rng.chance(0.25)) {
    doc.blank();
    for (const bot of rng.sample(BLOCKED_BOTS, rng.int(1, 6))) doc.ua(bot);
    doc.disallow("/");
  }
  if (seo) {
    doc.blank();
    doc.comment("---------------------------");
    doc.comment("END BLOCK");
  }
  doc.blank();
  for (let i = rng.int(1, 3); i > 0; i--) {
    doc.sitemap(
      rng.chance(0.5) ? `${origin}/wp-sitemap.xml` : `${origin}/sitemap_index.xml?part=${i}`,
    );
  }
  return { doc, traits: [], latin1Safe: true };
}

function drupal(rng: Rng, origin: string): Built {
  const doc = new Doc(rng, randomStyle(rng));
  const intro = [
    "robots.txt",
    "",
    "Tells polite crawlers which parts of this site hold nothing worth indexing,",
    "which saves the server work and keeps clutter out of search results.",
    "Rogue crawlers ignore this file; it is a request, not access control.",
    "",
    "Rules are matched by prefix. See the protocol description online.",
  ];
  for (const line of intro) doc.comment(line);
  doc.blank();
  doc.ua("*");
  doc.comment("CSS, JS, images");
  for (const ext of ["css", "js", "gif", "jpg", "jpeg", "png", "svg"]) {
    doc.allow(`/${rng.pick(["core", "misc", "modules", "profiles", "themes"])}/*.${ext}$`);
    if (rng.chance(0.5)) doc.allow(`/${rng.pick(["core", "misc"])}/*.${ext}?`);
  }
  doc.comment("Folders");
  for (const folder of ["/core/", "/profiles/", "/includes/", "/misc/", "/scripts/", "/vendor/"]) {
    if (rng.chance(0.8)) doc.disallow(folder);
  }
  doc.comment("Files");
  for (const file of [
    "/README.md",
    "/CHANGELOG.txt",
    "/INSTALL.txt",
    "/web.config",
    "/update.php",
    "/install.php",
    "/cron.php",
    "/xmlrpc.php",
  ]) {
    if (rng.chance(0.7)) doc.disallow(file);
  }
  const paths = [
    "/admin/",
    "/comment/reply/",
    "/filter/tips",
    "/node/add/",
    "/search/",
    "/user/register",
    "/user/password",
    "/user/login",
    "/user/logout",
    "/media/oembed",
    "/*/media/oembed",
    "/taxonomy/term/*/feed",
  ];
  doc.comment("Paths (clean URLs)");
  for (const path of paths) doc.disallow(path);
  doc.comment("Paths (no clean URLs)");
  for (const path of paths) {
    doc.disallow(path.startsWith("/*") ? path : `/index.php${path}`);
    if (rng.chance(0.5)) doc.disallow(`/?q=${path.slice(1)}`);
  }
  if (rng.chance(0.4)) {
    // Multilingual sites repeat the list per language prefix.
    for (const lang of rng.sample(["de", "fr", "es", "it", "nl", "pt-br", "ja"], rng.int(1, 5))) {
      for (const path of paths) doc.disallow(`/${lang}${path}`);
    }
  }
  if (rng.chance(0.5)) doc.crawlDelay(rng.pick(["10", "5", "1", "0.5"]));
  if (rng.chance(0.5)) doc.sitemap(sitemapUrl(rng, origin));
  return { doc, traits: [], latin1Safe: true };
}

const WIKI_SPECIAL = [
  "Special:",
  "Spezial:",
  "Spécial:",
  "Especial:",
  "Speciale:",
  "Speciaal:",
  "Specjalna:",
  "Служебная:",
  "特別:",
  "特殊:",
  "Özel:",
  "Ειδικό:",
];

const BLOCK_REASONS = [
  "ignores the crawl rate and fetches thousands of pages a minute",
  "copies whole sites for offline reading; not welcome here",
  "harvests addresses",
  "advertising crawler that sends no visitors",
  "misbehaving, reported by the operations team",
  "recursive downloader; please do not mirror the wiki",
  "we were told it does not honour Crawl-delay",
  "",
];

function mediawiki(rng: Rng, origin: string): Built {
  const doc = new Doc(rng, randomStyle(rng));
  doc.comment("Please read the terms of use before crawling this wiki.");
  doc.comment("Heavy crawlers should use the dumps instead of the live pages.");
  doc.blank();
  for (const bot of rng.sample(BLOCKED_BOTS, rng.int(10, BLOCKED_BOTS.length))) {
    const reason = rng.pick(BLOCK_REASONS);
    if (reason !== "") doc.comment(reason);
    doc.ua(bot);
    doc.disallow("/");
    doc.blank();
  }
  doc.ua("*");
  doc.allow("/w/api.php?action=mobileview&");
  doc.allow("/w/load.php?");
  doc.allow("/api/rest_v1/?doc");
  doc.disallow("/w/");
  doc.disallow("/api/");
  doc.disallow("/trap/");
  const lowerHex = rng.chance(0.3);
  for (const special of WIKI_SPECIAL) {
    doc.disallow(`/wiki/${special}`);
    if (/[^\x20-\x7e]/.test(special)) doc.disallow(`/wiki/${encodeNonAscii(special, lowerHex)}`);
    doc.disallow(`/wiki/${special.replace(":", "%3A")}`);
  }
  // Project pages kept out of search results, one line each.
  const pages = rng.logInt(50, 900);
  for (let i = 0; i < pages; i++) {
    const ns = rng.pick(["Project:", "Wikipedia:", "Project_talk:", "User:", "Talk:"]);
    const title = `${rng.pick(WORDS)}_${rng.pick(WORDS)}`.replace(/^./, (c) => c.toUpperCase());
    const page = rng.pick([
      "Articles_for_deletion",
      "Requests_for_comment",
      "Copyright_problems",
      "Long-term_abuse",
      "Sockpuppet_investigations",
      "Arbitration",
    ]);
    const path = `/wiki/${ns}${page}/${title}`;
    doc.disallow(rng.chance(0.8) ? path : path.replace(":", "%3A"));
  }
  doc.blank();
  if (rng.chance(0.5)) doc.sitemap(`${origin}/sitemap-wiki-index.xml`);
  doc.comment("Thank you for reading. Questions go to the site operators.");
  return { doc, traits: [], latin1Safe: false };
}

function facetBlock(doc: Doc, rng: Rng, targetBytes: number, nonAscii: boolean): void {
  while (doc.size < targetBytes) {
    const r = rng.int(0, 99);
    if (r < 30) {
      doc.disallow(`/*?*${rng.pick(PARAMS)}=${rng.chance(0.3) ? rng.pick(WORDS) : ""}`);
    } else if (r < 40) {
      doc.disallow(`/*&${rng.pick(PARAMS)}=*&${rng.pick(PARAMS)}=`);
    } else if (r < 55) {
      doc.disallow(
        `/${rng.pick(["catalog", "c", "category", "shop"])}/${slug(rng)}/*${rng.pick(["filter", "f", "facet"])}*`,
      );
    } else if (r < 70) {
      doc.disallow(`/p/${slug(rng)}-${rng.int(100000, 9999999)}${rng.chance(0.5) ? "$" : ""}`);
    } else if (r < 78) {
      doc.disallow(`/search?${queryString(rng)}*`);
    } else if (r < 84) {
      doc.disallow(`/*.${rng.pick(["json", "xml", "csv", "pdf"])}$`);
    } else if (r < 90) {
      doc.allow(`/${rng.pick(["catalog", "c", "category"])}/${slug(rng)}/$`);
    } else if (r < 94 && nonAscii) {
      doc.disallow(`/${nonAsciiSegment(rng, false)}/${slug(rng)}*`);
    } else if (r < 97) {
      doc.comment(`${rng.pick(["facets", "sorting", "old campaign", "seasonal"])} ${slug(rng)}`);
    } else {
      doc.disallow(rulePath(rng, true));
    }
  }
}

function ecommerce(rng: Rng, origin: string, targetBytes: number, nonAscii: boolean): Built {
  const doc = new Doc(rng, randomStyle(rng));
  doc.comment(`robots.txt for ${origin}`);
  doc.comment(`generated ${2018 + rng.int(0, 6)}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`);
  doc.blank();
  // Separate groups for the big engines, each with its own copy of part of the list.
  const engines = rng.chance(0.6) ? rng.sample(["Googlebot", "bingbot", "YandexBot"], 2) : [];
  const share = targetBytes / (engines.length + 1);
  for (const engine of engines) {
    doc.ua(engine);
    if (engine !== "Googlebot" && rng.chance(0.5)) doc.crawlDelay(String(rng.int(1, 10)));
    for (const path of ["/checkout/", "/cart", "/account/", "/api/", "/*?sessionid="]) {
      doc.disallow(path);
    }
    facetBlock(doc, rng, doc.size + share * rng.float(), nonAscii);
    doc.blank();
  }
  doc.ua("*");
  for (const path of ["/checkout/", "/cart", "/account/", "/api/", "/wishlist/", "/compare/"]) {
    doc.disallow(path);
  }
  facetBlock(doc, rng, targetBytes, nonAscii);
  doc.blank();
  for (let i = rng.int(1, 12); i > 0; i--) doc.sitemap(sitemapUrl(rng, origin));
  return { doc, traits: [], latin1Safe: false };
}

/** Larger than the parse limit, with a group after it that a conforming parser never sees. */
function huge(rng: Rng, origin: string, targetBytes: number): Built {
  const built = ecommerce(rng, origin, targetBytes, rng.chance(0.5));
  const { doc } = built;
  doc.blank();
  doc.comment("appended later by the marketing team");
  doc.ua(rng.pick(["Googlebot", "bingbot"]));
  doc.disallow("/landing/");
  doc.disallow("/");
  return { ...built, traits: ["over-limit"] };
}

function manyBots(rng: Rng, origin: string): Built {
  const doc = new Doc(rng, randomStyle(rng));
  if (rng.chance(0.7)) {
    doc.comment("We welcome search engines. Aggressive and AI crawlers are listed below.");
    doc.blank();
  }
  for (const bot of rng.sample(WELCOME_BOTS, rng.int(2, 10))) {
    doc.ua(bot);
    for (let i = rng.int(0, 8); i > 0; i--) doc.disallow(rulePath(rng, true));
    if (rng.chance(0.2)) doc.crawlDelay(rng.pick(["1", "2", "5", "10", "0.5"]));
    doc.blank();
  }
  const blocked = rng.sample(BLOCKED_BOTS, rng.int(12, BLOCKED_BOTS.length));
  const together = rng.chance(0.5);
  for (let i = 0; i < blocked.length; i++) {
    if (!together && rng.chance(0.3)) doc.comment(rng.pick(BLOCK_REASONS) || "blocked");
    doc.ua(blocked[i] as string);
    if (!together || i === blocked.length - 1) {
      doc.disallow("/");
      if (!together) doc.blank();
    }
  }
  doc.blank();
  doc.ua("*");
  for (let i = rng.int(0, 40); i > 0; i--) {
    if (rng.chance(0.15)) doc.allow(rulePath(rng, true));
    else doc.disallow(rulePath(rng, true));
  }
  if (rng.chance(0.4)) doc.crawlDelay(rng.pick(["1", "3", "10", "30"]));
  doc.blank();
  doc.sitemap(sitemapUrl(rng, origin));
  return { doc, traits: [], latin1Safe: true };
}

function news(rng: Rng, origin: string): Built {
  const doc = new Doc(rng, randomStyle(rng));
  const sections = rng.sample(SEGMENTS, rng.int(5, 30));
  for (const bot of rng.sample(BLOCKED_BOTS.slice(13, 28), rng.int(0, 12))) {
    doc.ua(bot);
    doc.disallow("/");
    doc.blank();
  }
  if (rng.chance(0.5)) {
    doc.ua("Googlebot-News");
    doc.allow("/");
    doc.disallow("/opinion/drafts/");
    doc.blank();
  }
  doc.ua("*");
  for (const path of [
    "/search",
    "/api/",
    "/*?utm_",
    "/*&utm_",
    "/amp/*?",
    "/preview/",
    "/print/",
    "/*/comments/",
    "/newsletter/confirm",
    "/account/",
  ]) {
    if (rng.chance(0.7)) doc.disallow(path);
  }
  doc.allow("/api/public/");
  for (const section of sections) {
    if (rng.chance(0.4)) doc.disallow(`/${section}/*?page=`);
    if (rng.chance(0.2)) doc.disallow(`/${section}/live/*/updates$`);
  }
  if (rng.chance(0.3)) doc.crawlDelay(rng.pick(["1", "2", "5"]));
  doc.blank();
  // Sitemaps per section and per year.
  for (const section of sections) doc.sitemap(`${origin}/sitemaps/${section}.xml`);
  for (let year = 2024; year > 2024 - rng.int(3, 25); year--) {
    for (let month = 1; month <= 12; month++) {
      doc.sitemap(`${origin}/sitemaps/archive-${year}-${month < 10 ? "0" : ""}${month}.xml`);
    }
  }
  doc.sitemap(`${origin}/news-sitemap.xml`);
  return { doc, traits: [], latin1Safe: true };
}

/** The hand-edited kind: other keys, odd spacing, rules before any User-agent. */
function handWritten(rng: Rng, origin: string): Built {
  const style = randomStyle(rng);
  style.misspell = Math.max(style.misspell, rng.pick([0, 0.05, 0.2]));
  style.noColon = Math.max(style.noColon, rng.pick([0, 0.05, 0.15]));
  style.inlineComments = Math.max(style.inlineComments, 0.2);
  const doc = new Doc(rng, style);
  if (rng.chance(0.6)) {
    // Rules before any User-agent line: ignored by both libraries.
    doc.disallow(rng.pick(["/cgi-bin/", "/tmp/", "/old/"]));
    doc.disallow(rulePath(rng, false));
  }
  doc.raw(`Host: ${origin.replace(/^https?:\/\//, "")}`);
  for (let g = rng.int(1, 4); g > 0; g--) {
    if (rng.chance(0.5)) doc.blank();
    const bots = g === 1 ? ["*"] : rng.sample([...WELCOME_BOTS, ...BLOCKED_BOTS], rng.int(1, 3));
    for (const bot of bots) doc.ua(bot);
    for (let i = rng.int(1, 25); i > 0; i--) {
      const r = rng.int(0, 99);
      if (r < 60) doc.disallow(rulePath(rng, rng.chance(0.6)));
      else if (r < 70) doc.allow(rulePath(rng, true));
      else if (r < 75) doc.raw(`Clean-param: ${rng.pick(PARAMS)}&${rng.pick(PARAMS)} /`);
      else if (r < 78) doc.raw(`Request-rate: 1/${rng.int(1, 60)}s`);
      else if (r < 80) doc.raw(`Visit-time: 0${rng.int(0, 6)}00-0${rng.int(7, 9)}45`);
      else if (r < 82) doc.raw(`Noindex: ${dir(rng)}/`);
      else if (r < 85) doc.comment(`${rng.pick(["TODO", "FIXME", "NB"])}: ${slug(rng)}`);
      else if (r < 88) doc.raw(`${rng.pick(["Disallow", "Allow"])} = ${dir(rng)}`);
      else if (r < 90)
        doc.raw(`${dir(rng)}/`); // a bare path, no key at all
      else if (r < 93) doc.crawlDelay(rng.pick(["5", "10", "1.5", "abc", "-1", "2s"]));
      else if (r < 95)
        doc.disallow(`${dir(rng)} ${rng.pick(WORDS)}`); // a space inside
      else if (r < 97) doc.disallow(rng.pick(["*", "*.gif$", "/*", "$", "/$"]));
      else doc.raw(`\t${rng.pick(["Disallow", "Allow"])}:\t${dir(rng)}/\t`);
    }
  }
  if (rng.chance(0.5)) doc.sitemap(rng.pick([sitemapUrl(rng, origin), "/sitemap.xml"]));
  return { doc, traits: [], latin1Safe: true };
}

const CSS_RULES = [
  "body { margin: 0; padding: 0; font-family: Arial, Helvetica, sans-serif; }",
  "a:hover { color: #c00; text-decoration: underline; }",
  ".error-code { font-size: 72px; color: #999; }",
  "@media (max-width: 600px) { .wrap { width: 100%; } }",
  "h1 { font-weight: 300; }",
  "  .footer a:visited { color: inherit; }",
];

/** An HTML page served as robots.txt: a soft 404, a login wall or an app shell. */
function html(rng: Rng, origin: string): Built {
  const doc = new Doc(rng, cleanStyle());
  const shape = rng.pick(["404", "login", "spa", "homepage"] as const);
  doc.raw("<!DOCTYPE html>");
  doc.raw(`<html lang="${rng.pick(["en", "de", "fr"])}">`);
  doc.raw("<head>");
  doc.raw('<meta charset="utf-8">');
  doc.raw('<meta name="viewport" content="width=device-width, initial-scale=1">');
  doc.raw(`<title>${shape === "404" ? "404 Not Found" : `Welcome | ${origin}`}</title>`);
  doc.raw("<style>");
  for (let i = rng.int(3, 40); i > 0; i--) doc.raw(rng.pick(CSS_RULES));
  doc.raw("</style>");
  if (shape === "spa" || rng.chance(0.3)) {
    // One long minified line of script, as bundlers write it.
    const target = rng.logInt(2000, shape === "spa" ? 200_000 : 20_000);
    let script = "window.__STATE__={";
    while (script.length < target) {
      script += `"${rng.pick(WORDS)}${rng.int(0, 999)}":{"url":"${dir(rng)}","n":${rng.int(0, 1e6)}},`;
    }
    doc.raw(`<script>${script}};</script>`);
  }
  doc.raw("</head>");
  doc.raw("<body>");
  if (shape === "404") {
    doc.raw('<div class="wrap"><h1 class="error-code">404</h1>');
    doc.raw("<p>Error: the page you asked for is not here.</p>");
    doc.raw(`<p>Try the <a href="${origin}/">home page</a> or search: </p>`);
  } else if (shape === "login") {
    doc.raw('<form method="post" action="/login"><label>User: <input name="u"></label>');
    doc.raw('<label>Password: <input type="password" name="p"></label></form>');
  } else {
    for (let i = rng.int(5, 200); i > 0; i--) {
      doc.raw(`  <li><a href="${dir(rng)}/">${slug(rng)}</a></li>`);
    }
  }
  doc.raw('<div id="root"></div>');
  doc.raw("</body>");
  doc.raw("</html>");
  return { doc, traits: ["html"], latin1Safe: true };
}

// ---------------------------------------------------------------------------------------------
// Dirt added after the shape, and writing bytes

type LineEnd = "lf" | "crlf" | "cr" | "mixed";

function joinLines(
  lines: readonly string[],
  end: LineEnd,
  rng: Rng,
  finalNewline: boolean,
): string {
  if (end === "mixed") {
    let out = "";
    for (let i = 0; i < lines.length; i++) {
      out += lines[i];
      if (i < lines.length - 1 || finalNewline) out += rng.pick(["\n", "\r\n", "\r"]);
    }
    return out;
  }
  const sep = end === "lf" ? "\n" : end === "crlf" ? "\r\n" : "\r";
  return lines.join(sep) + (finalNewline ? sep : "");
}

const utf8 = new TextEncoder();

function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c < 256 ? c : 0x3f;
  }
  return out;
}

function withBom(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(bytes, 3);
  return out;
}

/** Adds non-ASCII rules and comments; Latin-1 only when the file will be written in Latin-1. */
function addNonAscii(doc: Doc, rng: Rng, latin1Only: boolean): void {
  const at = rng.int(Math.min(doc.lines.length, 1), doc.lines.length);
  const added: string[] = [];
  const extra = new Doc(rng, doc.style);
  extra.comment(
    latin1Only
      ? rng.pick(["Fichier généré, ne pas éditer", "Geändert für die Übersetzung", "año nuevo"])
      : rng.pick(["サイトマップ", "Не индексировать поиск", "Fichier généré", "検索結果は除外"]),
  );
  for (let i = rng.int(1, 8); i > 0; i--) {
    const seg = nonAsciiSegment(rng, latin1Only);
    const path = `/${seg}/${rng.chance(0.5) ? `${slug(rng)}/` : ""}`;
    if (!latin1Only && rng.chance(0.4)) extra.disallow(encodeNonAscii(path, rng.chance(0.3)));
    else extra.disallow(path);
  }
  added.push(...extra.lines);
  doc.patterns.push(...extra.patterns);
  // Only meaningful inside a group: splice after the first User-agent line if there is one.
  const firstUa = doc.lines.findIndex((l) => /^user[-_ ]?agent/i.test(l.trim()));
  const where = firstUa >= 0 ? firstUa + 1 : at;
  doc.lines.splice(where, 0, ...added);
  doc.size += added.reduce((n, l) => n + l.length + 1, 0);
}

function addLongLine(doc: Doc, rng: Rng): void {
  const length = rng.pick([3000, 9000, 17_000, 40_000]);
  const r = rng.int(0, 2);
  let line: string;
  if (r === 0) {
    let path = "";
    while (path.length < length) path += `/${slug(rng)}`;
    line = `Disallow: ${path}`;
    doc.patterns.push(path);
  } else if (r === 1) {
    let text = "#";
    while (text.length < length) text += ` ${rng.pick(WORDS)}`;
    line = text;
  } else {
    let path = "/search?";
    while (path.length < length) path += `${queryString(rng)}&`;
    line = `Disallow: ${path}*`;
    doc.patterns.push(`${path}*`);
  }
  const firstUa = doc.lines.findIndex((l) => /^user[-_ ]?agent/i.test(l.trim()));
  doc.lines.splice(firstUa >= 0 ? firstUa + 1 : doc.lines.length, 0, line);
  doc.size += line.length + 1;
}

function sprinkleComments(doc: Doc, rng: Rng): void {
  const out: string[] = [];
  for (const line of doc.lines) {
    if (rng.chance(0.15))
      out.push(rng.pick(["#", "# ----", `# ${slug(rng)}`, "   # indented note"]));
    out.push(line);
  }
  doc.lines.splice(0, doc.lines.length, ...out);
}

// ---------------------------------------------------------------------------------------------
// Queries

export interface Query {
  readonly agent: string;
  readonly url: string;
}

const MAX_QUERY_PATH = 4096;

function fill(rng: Rng): string {
  const r = rng.int(0, 9);
  if (r < 2) return "";
  if (r < 5) return slug(rng);
  if (r < 7) return `${rng.pick(SEGMENTS)}/${slug(rng)}`;
  if (r < 9) return `x?${queryString(rng)}`;
  return `${rng.pick(WORDS)}.html`;
}

/** A path the pattern is likely to match, or nearly match. */
function instantiate(rng: Rng, pattern: string): string {
  let body = pattern;
  const anchored = body.endsWith("$");
  if (anchored) body = body.slice(0, -1);
  body = body.replace(/\*/g, () => fill(rng));
  if (!body.startsWith("/")) body = `/${body}`;
  if (anchored) {
    if (rng.chance(0.3)) body += rng.pick(["x", "/", "?a=1", ".bak"]);
  } else if (rng.chance(0.5)) {
    body += rng.pick([slug(rng), `/${slug(rng)}`, `?${queryString(rng)}`, ".html"]);
  }
  if (rng.chance(0.05)) body += "#top";
  // A space or a raw `#` in a pattern would change the URL's meaning; write it as a client would.
  body = body.replace(/ /g, "%20");
  return body.length > MAX_QUERY_PATH ? body.slice(0, MAX_QUERY_PATH) : body;
}

function randomPath(rng: Rng): string {
  const r = rng.int(0, 99);
  if (r < 8) return "/";
  if (r < 16) return rng.pick(["/index.html", "/favicon.ico", "/about", "/contact/", "/feed/"]);
  if (r < 45) return `${dir(rng)}/${slug(rng)}${rng.pick(["", "/", ".html", ".php", ".pdf"])}`;
  if (r < 70) return `${dir(rng)}?${queryString(rng)}`;
  if (r < 80) return `/p/${slug(rng)}-${rng.int(100000, 9999999)}`;
  if (r < 88) return `/${nonAsciiSegment(rng, false)}/${slug(rng)}`;
  if (r < 94) return `/${encodeNonAscii(nonAsciiSegment(rng, false), rng.chance(0.5))}/`;
  return `${dir(rng)}/%7E${rng.pick(WORDS)}/a%2fb?x=%41`;
}

function makeQueries(rng: Rng, origin: string, doc: Doc): Query[] {
  const named = doc.agents.filter((a) => a.trim() !== "*" && a.trim() !== "");
  const own = named.length > 0 ? rng.pick(named).trim() : "Googlebot-Image";
  const agents = [...COMMON_AGENTS, own, UNKNOWN_AGENT];
  const patterns = doc.patterns.filter((p) => p.startsWith("/") || p.startsWith("*"));
  const queries: Query[] = [];
  for (let n = rng.int(20, 50); n > 0; n--) {
    const path =
      patterns.length > 0 && rng.chance(0.6)
        ? instantiate(rng, rng.pick(patterns))
        : randomPath(rng);
    queries.push({ agent: rng.pick(agents), url: origin + path });
  }
  return queries;
}

// ---------------------------------------------------------------------------------------------
// The corpus

export interface CorpusFile {
  readonly name: string;
  /** Its generated shape, or "real" for a file served by a real site (bench/real-corpus.ts). */
  readonly kind: Kind | "real";
  /** What the file would be served from; robots-parser needs it to accept URLs. */
  readonly origin: string;
  readonly robotsUrl: string;
  readonly bytes: Uint8Array;
  /** Dirt and oddities in the file: `crlf`, `bom`, `latin1`, `misspelt` … */
  readonly traits: readonly string[];
  readonly queries: readonly Query[];
}

/** How many files of each shape; about 320 in all. */
const PLAN: readonly [Kind, number][] = [
  ["minimal", 18],
  ["blanket", 10],
  ["wordpress", 60],
  ["drupal", 30],
  ["mediawiki", 20],
  ["ecommerce", 40],
  ["huge", 6],
  ["many-bots", 45],
  ["news", 30],
  ["hand-written", 45],
  ["html", 16],
];

export const DEFAULT_SEED = 0x20250917;

export function buildCorpus(seed = DEFAULT_SEED): CorpusFile[] {
  const root = new Rng(seed);
  const files: CorpusFile[] = [];
  for (const [kind, count] of PLAN) {
    for (let i = 0; i < count; i++) {
      const rng = root.fork();
      const origin = `https://${rng.chance(0.7) ? "www." : ""}${kind}-${i}.example`;
      const built = buildShape(kind, rng, origin);
      files.push(finish(kind, `${kind}-${i}`, origin, built, rng));
    }
  }
  return files;
}

function buildShape(kind: Kind, rng: Rng, origin: string): Built {
  switch (kind) {
    case "minimal":
      return minimal(rng, origin);
    case "blanket":
      return blanket(rng, origin);
    case "wordpress":
      return wordpress(rng, origin);
    case "drupal":
      return drupal(rng, origin);
    case "mediawiki":
      return mediawiki(rng, origin);
    case "ecommerce":
      return ecommerce(rng, origin, rng.logInt(8_000, 480_000), rng.chance(0.3));
    case "huge":
      return huge(rng, origin, rng.int(520 * 1024, 1_400_000));
    case "many-bots":
      return manyBots(rng, origin);
    case "news":
      return news(rng, origin);
    case "hand-written":
      return handWritten(rng, origin);
    case "html":
      return html(rng, origin);
  }
}

function finish(kind: Kind, name: string, origin: string, built: Built, rng: Rng): CorpusFile {
  const { doc } = built;
  const traits = [...built.traits];
  const isHtml = kind === "html";
  const latin1 = built.latin1Safe && !isHtml && rng.chance(0.06);
  if (latin1 || (!isHtml && rng.chance(0.15))) {
    addNonAscii(doc, rng, latin1);
    traits.push("non-ascii");
  }
  if (!isHtml && rng.chance(0.04)) {
    addLongLine(doc, rng);
    traits.push("long-line");
  }
  if (!isHtml && rng.chance(0.12)) {
    sprinkleComments(doc, rng);
    traits.push("comments");
  }
  if (doc.misspelt) traits.push("misspelt");
  if (doc.missingColon) traits.push("no-colon");
  const r = rng.int(0, 99);
  const end: LineEnd = r < 68 ? "lf" : r < 92 ? "crlf" : r < 96 ? "cr" : "mixed";
  if (end !== "lf") traits.push(end);
  const text = joinLines(doc.lines, end, rng, rng.chance(0.8));
  let bytes = latin1 ? latin1Bytes(text) : utf8.encode(text);
  if (latin1) traits.push("latin1");
  if (rng.chance(0.08)) {
    bytes = withBom(bytes);
    traits.push("bom");
  }
  const queries = makeQueries(rng, origin, doc);
  return { name, kind, origin, robotsUrl: `${origin}/robots.txt`, bytes, traits, queries };
}

// ---------------------------------------------------------------------------------------------
// A test case that is hard on pattern matchers

export interface AdversarialCase {
  readonly name: string;
  readonly robotsTxt: string;
  readonly url: string;
}

export function adversarialCases(): AdversarialCase[] {
  const origin = "https://adversary.example";
  const as10k = "a".repeat(10_000);
  const stars = (n: number): string => `/${"*a".repeat(n)}*b`;
  const rng = new Rng(7);
  const manyRules: string[] = [];
  for (let i = 0; i < 2000; i++) {
    let word = "";
    for (let j = 0; j < 8; j++) word += String.fromCharCode(0x61 + rng.int(1, 25));
    manyRules.push(`Disallow: /*${word}*`);
  }
  const one = (pattern: string): string => `User-agent: *\nDisallow: ${pattern}\n`;
  return [
    {
      name: "/*a*a*a*a*a*a*a*a*a*b vs 10 kB of a",
      robotsTxt: one(stars(9)),
      url: `${origin}/${as10k}`,
    },
    {
      name: "/*aaaaaaaaaaaaab vs 10 kB of a",
      robotsTxt: one("/*aaaaaaaaaaaaab"),
      url: `${origin}/${as10k}`,
    },
    { name: "/ + 100 × '*a' + *b vs 10 kB", robotsTxt: one(stars(100)), url: `${origin}/${as10k}` },
    {
      name: "/ + 2000 × '*a' + $ vs 10 kB",
      robotsTxt: one(`/${"*a".repeat(2000)}$`),
      url: `${origin}/${as10k}b`,
    },
    { name: "/*a$ vs 10 kB of a then b", robotsTxt: one("/*a$"), url: `${origin}/${as10k}b` },
    {
      name: "2000 rules /*xxxxxxxx* vs 10 kB",
      robotsTxt: `User-agent: *\n${manyRules.join("\n")}\n`,
      url: `${origin}/${as10k}`,
    },
  ];
}
