/**
 * Limits on what a sitemap may cost to read and what one file may hold. Each is a named constant
 * with its reason; readers and writers take them as defaults that options may change.
 */

/** sitemaps.org: "Each Sitemap file … must have no more than 50,000 URLs" (an index: sitemaps). */
export const MAX_SITEMAP_URLS = 50_000;

/** sitemaps.org: "… and must be no larger than 50MB (52,428,800 bytes)", uncompressed. */
export const MAX_SITEMAP_BYTES = 52_428_800;

/**
 * Gzip bombs: reading stops when the uncompressed size exceeds this many times the compressed
 * size read so far. Real sitemaps compress 5 to 40 times (repetitive markup, similar URLs); a
 * bomb compresses about a thousand times.
 */
export const MAX_COMPRESSION_RATIO = 100;

/** The ratio is judged only past this many uncompressed bytes: a small file costs little whatever its ratio. */
export const COMPRESSION_RATIO_FLOOR_BYTES = 4 * 1024 * 1024;

/** sitemaps.org `<loc>`: "This value must be less than 2,048 characters." */
export const MAX_LOC_LENGTH = 2047;

/**
 * Text kept of one field (`<loc>`, `<lastmod>`, …) or one line of a text sitemap; the rest is
 * dropped and reported, so that one unclosed element cannot fill memory.
 */
export const MAX_FIELD_CHARS = 16 * 1024;

/**
 * Elements open at once in an XML sitemap or feed. A sitemap needs four (`urlset`, `url`,
 * `image:image`, `image:loc`), Google News five, an Atom entry with XHTML content a few more;
 * past this, reading stops with `xml-too-deep`. The bound is what keeps reading linear: the
 * tokenizer's parser keeps its open elements with `Array#unshift`, so each element opened costs
 * as many moves as are open, and `<x>` 300,000 times then `</x>` 300,000 times took a minute.
 */
export const MAX_XML_DEPTH = 64;

/**
 * Characters one element at the top level of a sitemap (an entry, or anything else beside the
 * entries) may span. A `<loc>` is under 2,048 characters (sitemaps.org); Google's image extension
 * allows 1,000 images an entry, a few hundred characters each with caption and title, and video
 * and news entries are a few KB. Past this, reading stops with `entry-too-large`: an entry this
 * large is not a sitemap entry but markup meant to cost its reader time (12 entries of 4 MB of
 * `<x/>` cost seconds of CPU to tokenize).
 */
export const MAX_ENTRY_CHARS = 512 * 1024;

/**
 * Markup (start and end tags, comments, CDATA sections, processing instructions) inside one
 * top-level element: 1,000 images of four or five elements each (two tags an element), with room
 * to spare. Past it, `entry-too-large`, so that an entry of many tiny tags is bounded too.
 */
export const MAX_ENTRY_TAGS = 16_384;

/**
 * Markup one XML file may hold, counted as its `<` characters: each costs the fast path's scan
 * about 0.15 µs and the general tokenizer about twice that, so a `<` the tokenizer reads counts
 * {@link TOKENIZED_MARKUP_WEIGHT} times, and so does each `=` it reads (an attribute costs it about
 * what a tag does); an entry the scan finds unusual and hands to the tokenizer counts both. A 49 MB
 * sitemap of 50,000 entries, each with three images and a news element, holds 2 million `<`:
 * 2 million units read by the fast path, 4 million by the tokenizer alone (a feed, an odd root);
 * 50 MB of `<x/>` holds 12 million, two to four seconds of CPU. Past it, reading stops with
 * `too-much-markup`, keeping the entries before, so that any file within the size limit reads in
 * about half a second. The price: a file near 50 MB whose every entry is unusual (CDATA in each,
 * say) and heavy with extensions stops before its end.
 */
export const MAX_MARKUP_UNITS = 4_500_000;

/** What one `<` read by the general tokenizer counts against {@link MAX_MARKUP_UNITS}. */
export const TOKENIZED_MARKUP_WEIGHT = 2;

/**
 * What a namespace declaration (`xmlns="…"`, `xmlns:p="…"`) read by the tokenizer counts on top
 * of its `=`: it opens a scope the reader keeps and closes, several tags' worth of work. 50 MB of
 * `<p:x xmlns:p='u'/>` cost about 0.7 s of CPU counted as a plain attribute; so weighed, reading
 * stops at under half of that.
 */
export const NAMESPACE_MARKUP_WEIGHT = 8;

/** Diagnostics reported per file; past it one `too-many-diagnostics` says the rest were dropped. */
export const MAX_DIAGNOSTICS = 1000;

/**
 * How deep indexes are followed: a robots.txt may name an index (depth 0) whose sitemaps are at
 * depth 1. sitemaps.org has no nested indexes; one more level is followed, with a warning.
 */
export const MAX_INDEX_DEPTH = 2;

/** Sitemap files read in one run when following indexes: one full index, and the file that named it. */
export const MAX_SITEMAPS_FOLLOWED = MAX_SITEMAP_URLS + 1;

/** The sitemaps.org 0.9 namespace, and the older Google one still seen in the wild. */
export const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
export const LEGACY_SITEMAP_NAMESPACES: readonly string[] = [
  "http://www.google.com/schemas/sitemap/0.9",
  "http://www.google.com/schemas/sitemap/0.84",
  "https://www.sitemaps.org/schemas/sitemap/0.9",
];

/**
 * heed's namespace for REGP's `<type>` and `<srcloc>` (seeds/003 §3.2.12). sitemaps.org
 * "Extending the Sitemaps protocol": extensions go in a namespace of their own, so that readers
 * that do not know them skip them (the sitemaps.org schema allows any element of another
 * namespace). `.invalid` is reserved (RFC 6761 §6.4), so no one else can ever own this URI, and
 * it never resolves; it names, it does not locate. heed reads the two elements both in this
 * namespace and unprefixed, as the paper writes them.
 */
export const REGP_NAMESPACE = "https://heed.invalid/ns/regp/1.0";

/** The prefix heed writes for {@link REGP_NAMESPACE}. */
export const REGP_PREFIX = "regp";

export const ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";
export const ATOM_03_NAMESPACE = "http://purl.org/atom/ns#";
