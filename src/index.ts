export * from "./protocol/robots/index.js";
export * from "./protocol/sitemap/index.js";
export {
  discoverSitemaps,
  type FollowOptions,
  gunzipChunks,
  type OpenedSitemap,
  openSitemap,
  type ReadSitemapOptions,
  readSitemap,
  readSitemaps,
  type SiteSitemaps,
  type SitemapFetchOptions,
  type SourcedSitemapEvent,
} from "./net/sitemap-fetch.js";
export {
  type UpdateSitemapOptions,
  type UpdateSitemapResult,
  updateSitemap,
  type WriteSitemapsOptions,
  type WriteSitemapsResult,
  type WrittenSitemap,
  SitemapWriteError,
  writeSitemaps,
} from "./site/sitemap-writer.js";
export {
  createNewsSite,
  type ExperimentOptions,
  type ExperimentResult,
  type ExperimentRun,
  type LoggedRequest as NewsSiteRequest,
  type NewsSite,
  type NewsSiteOptions,
  PAPER_TABLES,
  type ResourceClass,
  type ResourceRow,
  type RobotsVariant,
  robotsText,
  runNewsExperiment,
  startNewsSite,
  type StartNewsSiteOptions,
} from "./site/news/index.js";
