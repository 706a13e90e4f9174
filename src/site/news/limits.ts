/**
 * Limits of the news site (seeds/003 §4.1), each with the reason for its size. The site keeps
 * its news, users and sessions in memory and rewrites a snapshot and the sitemap on every
 * change, so every count is bounded.
 */

/** Characters of a news title: a headline, not an article. */
export const MAX_TITLE_CHARS = 200;
/** Characters of a news text: a long article fits; a snapshot stays a small page. */
export const MAX_TEXT_CHARS = 20_000;
/** Characters of one comment: a paragraph or a few. */
export const MAX_COMMENT_CHARS = 2_000;
/** Comments one item keeps: its snapshot, which holds them all, stays under about 2 MB. */
export const MAX_COMMENTS_PER_ITEM = 1_000;
/**
 * News items the site holds: startup releases each one (a snapshot and a sitemap edit), and the
 * sitemap stays one file, far below the protocol's 50,000 URLs.
 */
export const MAX_ITEMS = 10_000;
/** Registered users kept in memory. */
export const MAX_USERS = 10_000;
/** Sessions kept in memory; past this the oldest is dropped (its user logs in again). */
export const MAX_SESSIONS = 10_000;
/** A user name: letters, digits and `_`, short enough to print beside a comment. */
export const MAX_USER_CHARS = 32;
/** A password's length bounds the hashing work one request may ask for. */
export const MAX_PASSWORD_CHARS = 200;
export const MIN_PASSWORD_CHARS = 6;
/**
 * Bytes of a form body: the largest form (a release of MAX_TEXT_CHARS characters, up to 3 UTF-8
 * bytes each, each byte percent-encoded as 3 characters, i.e. 180,000 bytes) with room for the
 * other fields.
 */
export const MAX_FORM_BYTES = 256 * 1024;
/** Fields of a form body: the largest form has four. */
export const MAX_FORM_FIELDS = 20;
/** Characters of a search query. */
export const MAX_QUERY_CHARS = 200;
/** Search results shown on one page: the search page is a list, not an export. */
export const MAX_SEARCH_RESULTS = 100;
/** Latest news linked from `/` and `/news.do` (seeds/003 §5: "three links to the three latest news pages"). */
export const LATEST_NEWS = 3;
