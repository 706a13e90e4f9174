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
export * from "./protocol/atp/index.js";
export {
  type AgentDispatchErrorCode,
  AgentDispatchError,
  type AgentIndex,
  type DispatchOptions,
  dispatchAgent,
  MAX_AGENT_MOVES,
} from "./agents/dispatch.js";
export {
  DEFAULT_AGENT_MAX_PAGES,
  INDEXING_AGENT_PATH,
  INDEXING_AGENT_SOURCE,
} from "./agents/indexing-agent.js";
export { type AtpClientOptions, AtpClientError, atpRequest } from "./net/atp-client.js";
export {
  AgentHost,
  type AgentHostLimits,
  type AgentHostOptions,
  DEFAULT_HOST_LIMITS,
} from "./site/agent-host/host.js";
