/**
 * seeds/003 §5's Tables 9, 10 and 11, as printed: for each class of resource, whether the
 * paper's crawler fetched it and the crawl delay it observed.
 */
import type { ResourceClass } from "./resources.js";
import type { RobotsVariant } from "./robots.js";

/** A row of the paper's tables: fetched or not, and the crawl delay it reports. */
export interface PaperRow {
  readonly resource: ResourceClass;
  readonly fetched: boolean;
  readonly crawlDelaySeconds: number;
}

export interface PaperTable {
  readonly table: string;
  readonly rows: readonly PaperRow[];
}

const row = (resource: ResourceClass, fetched: boolean, crawlDelaySeconds: number): PaperRow => ({
  resource,
  fetched,
  crawlDelaySeconds,
});

/** seeds/003 §5, Tables 9, 10 and 11, as printed. */
export const PAPER_TABLES: Readonly<Record<RobotsVariant, PaperTable>> = {
  none: {
    table: "Table 9",
    rows: [
      row("home page", true, 0),
      row("useless pages", true, 0),
      row("latest news", true, 0),
      row("old news", false, 0),
    ],
  },
  regp: {
    table: "Table 10",
    rows: [
      row("home page", true, 0.5),
      row("useless pages", false, 0),
      row("latest news", true, 1.0),
      row("old news", true, 1.0),
    ],
  },
  rep: {
    table: "Table 11",
    rows: [
      row("home page", true, 0),
      row("useless pages", false, 0),
      row("latest news", true, 0),
      row("old news", false, 0),
    ],
  },
};
