/**
 * What the news site holds (seeds/003 §4.1): news items, each with its comments, and the items
 * it starts with, written out of a fixed list so that every run serves the same site.
 */

export interface NewsComment {
  readonly author: string;
  readonly text: string;
  /** When it was posted, ms since the epoch. */
  readonly at: number;
}

export interface NewsItem {
  readonly id: number;
  readonly title: string;
  readonly text: string;
  /** When it was released, ms since the epoch. */
  readonly releasedAt: number;
  readonly comments: NewsComment[];
}

const TOPICS = [
  "City library opens a reading room for night owls",
  "University robotics team wins a regional contest",
  "New bus line links the river district to the station",
  "Spring flower show draws record crowds",
  "Local bakery revives a century-old recipe",
  "Council approves a bicycle lane on Main Street",
  "Science museum shows a working steam engine",
  "Harbour cleanup collects two tonnes of litter",
  "Chess club hosts a simultaneous exhibition",
  "Weather service warns of a cold week ahead",
  "Orchestra announces a free concert in the park",
  "School garden harvests its first pumpkins",
] as const;

const COMMENTS = [
  "Great news, thanks for reporting it.",
  "I was there, it was worth the trip.",
  "Does anyone know the opening hours?",
  "Finally! We have waited long enough.",
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The title of the `id`-th starting item. */
export function seedTitle(id: number): string {
  return `${TOPICS[(id - 1) % TOPICS.length]} (${id})`;
}

/**
 * The starting items 1…count, one a day up to `now` (item `count` is today's), each with one to
 * three comments, so that a snapshot has comments to show that the item page loads by Ajax.
 */
export function seedItems(count: number, now: number): NewsItem[] {
  const items: NewsItem[] = [];
  for (let id = 1; id <= count; id++) {
    const releasedAt = now - (count - id) * DAY_MS;
    const title = seedTitle(id);
    const text =
      `${title}. This is news item ${id} of the example news site of the REGP paper. ` +
      `Readers may comment on it after logging in; the comments are loaded after the text.`;
    const comments: NewsComment[] = [];
    for (let c = 0; c <= id % 3; c++) {
      comments.push({
        author: `reader${c + 1}`,
        text: COMMENTS[(id + c) % COMMENTS.length] as string,
        at: Math.min(now, releasedAt + (c + 1) * 60_000),
      });
    }
    items.push({ id, title, text, releasedAt, comments });
  }
  return items;
}
