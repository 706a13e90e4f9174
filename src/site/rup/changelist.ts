/**
 * The modification log as a ResourceSync change list (ANSI/NISO Z39.99-2017: a sitemap
 * `<urlset>` with `rs:md` elements), an extra for robots that read that format rather than
 * RUP's reports: `/.well-known/resourcesync` (the source description) names
 * `/resourcesync/capabilitylist.xml`, which names `/resourcesync/changelist.xml`: every change of
 * the last MaxQuerySpan, oldest first, New as `created`, Change as `updated`, Delete as
 * `deleted`, without paths the site's robots.txt forbids the asking robot.
 */
import { type Change, escapeHtml, formatDate } from "../../protocol/rup/index.js";

/** sitemaps.org: a sitemap lists at most 50,000 URLs; a longer log gives its newest entries. */
export const MAX_CHANGELIST_ENTRIES = 50_000;

export const RESOURCESYNC_PATHS = {
  description: "/.well-known/resourcesync",
  capabilities: "/resourcesync/capabilitylist.xml",
  changes: "/resourcesync/changelist.xml",
} as const;

const OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">\n';
const CLOSE = "</urlset>\n";
const CHANGE: Record<Change["kind"], string> = {
  New: "created",
  Change: "updated",
  Delete: "deleted",
};

const url = (path: string, base: string): string => escapeHtml(new URL(path, base).href);

export function sourceDescription(base: string): string {
  return `${OPEN}  <rs:md capability="description"/>\n  <url><loc>${url(RESOURCESYNC_PATHS.capabilities, base)}</loc><rs:md capability="capabilitylist"/></url>\n${CLOSE}`;
}

export function capabilityList(base: string): string {
  return `${OPEN}  <rs:ln rel="up" href="${url(RESOURCESYNC_PATHS.description, base)}"/>\n  <rs:md capability="capabilitylist"/>\n  <url><loc>${url(RESOURCESYNC_PATHS.changes, base)}</loc><rs:md capability="changelist"/></url>\n${CLOSE}`;
}

/** The change list from `from` to `until` (ms), of changes in log order. */
export function changeList(
  changes: readonly Change[],
  base: string,
  from: number,
  until: number,
): string {
  const kept = changes.slice(-MAX_CHANGELIST_ENTRIES);
  // Cut to the newest entries: the list then starts at its oldest, not at `from`.
  const start = kept.length < changes.length ? (kept[0]?.at ?? from) : from;
  const items = kept.map(
    (c) =>
      `  <url><loc>${url(c.path, base)}</loc><rs:md change="${CHANGE[c.kind]}" datetime="${formatDate(c.at)}"/></url>\n`,
  );
  return `${OPEN}  <rs:ln rel="up" href="${url(RESOURCESYNC_PATHS.capabilities, base)}"/>\n  <rs:md capability="changelist" from="${formatDate(start)}" until="${formatDate(until)}"/>\n${items.join("")}${CLOSE}`;
}
