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
  BAD_URL_CODE,
  type GuardedRequestOptions,
  GuardedRequestError,
  type GuardedResponse,
  guardedRequest,
  MAX_REDIRECTS,
} from "./net/guarded-request.js";
export { BLOCKED_ADDRESS_CODE, BlockedAddressError, isPrivateHost } from "./net/address-guard.js";
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
  type LoggedRequest as NewsSiteRequest,
  type NewsSite,
  type NewsSiteOptions,
  PAPER_TABLES,
  type ResourceClass,
  type ResourceRow,
  type RobotsVariant,
  robotsText,
  startNewsSite,
  type StartNewsSiteOptions,
} from "./site/news/index.js";
// The paper's experiment drives the crawler against the news site: it sits above both.
export {
  type ExperimentOptions,
  type ExperimentResult,
  type ExperimentRun,
  type RowResult,
  type RunName,
  RUN_NAMES,
  runNewsExperiment,
} from "./cli/news-experiment.js";
export {
  type ColumnSpec,
  type DataTxt,
  type DataTxtForm,
  type DatasetEntry,
  type DatasetSpec,
  type DraftRecord,
  type DraftRule,
  detectForm,
  lintDataTxt,
  looksLikeData,
  MAX_COLUMNS,
  MAX_DATA_TXT_BYTES,
  MAX_ENTRIES,
  MAX_FILES_PER_ENTRY,
  MAX_YAML_DEPTH,
  type Offer,
  type OfferedDataset,
  offeredTo,
  readDataTxt,
  resolveDatasetPath,
  writeDataTxt,
} from "./protocol/datasets/index.js";
export {
  type Discovery,
  discoverDatasets,
  type SiteCatalog,
  type SiteDataset,
} from "./crawler/datasets/discover.js";
export { type DownloadResult, downloadFile } from "./crawler/datasets/download.js";
export { buildCatalog } from "./site/datasets/build.js";
// The Remote Update Protocol (seeds/001): its texts under one name (`rup.parseReport` …), and
// the site's server and the robot's actions and inbox.
export * as rup from "./protocol/rup/index.js";
export { type SiteServer, type SiteServerOptions, startSiteServer } from "./site/site-server.js";
export { createStaticHandler, type StaticOptions } from "./site/static-files.js";
export { RupSite, type RupSiteOptions, type TickResult } from "./site/rup/rup-site.js";
export {
  type MailTransport,
  parseSmtpUrl,
  type ReportMail,
  smtpTransport,
} from "./site/rup/mailer.js";
export {
  index as rupIndex,
  modify as rupModify,
  register as rupRegister,
  sequence as rupSequence,
  unregister as rupUnregister,
  type RobotContext,
} from "./crawler/rup/robot.js";
export { openRobotState } from "./crawler/rup/open-robot-state.js";
export {
  type ReceivedReport,
  type RobotState,
  type SiteRegistration,
  SqliteRobotState,
} from "./crawler/rup/robot-state.js";
export { type Inbox, type InboxEvent, type InboxOptions, startInbox } from "./crawler/rup/inbox.js";
export { type IntakeResult, takeReport } from "./crawler/rup/report-intake.js";
export { fetchRupInfo, RupClientError } from "./crawler/rup/rup-client.js";
export * from "./protocol/atp/index.js";
export {
  type AgentDispatchErrorCode,
  AgentDispatchError,
  type AgentIndex,
  type DispatchOptions,
  dispatchAgent,
  MAX_AGENT_MOVES,
} from "./crawler/agents/dispatch.js";
export {
  DEFAULT_AGENT_MAX_PAGES,
  INDEXING_AGENT_PATH,
  INDEXING_AGENT_SOURCE,
} from "./protocol/atp/indexing-agent.js";
export { type AtpClientOptions, AtpClientError, atpRequest } from "./net/atp-client.js";
export {
  AgentHost,
  type AgentHostLimits,
  type AgentHostOptions,
  DEFAULT_HOST_LIMITS,
} from "./site/agent-host/host.js";
export { startUiServer, type UiServer, type UiServerOptions } from "./web/server.js";
// The polite crawler as a library (docs/crawler.md), and the stores a crawl keeps its state in.
export * from "./crawler/api/index.js";
export {
  type CrawlStore,
  DEFAULT_REDIS_PREFIX,
  type ItemLog,
  MAX_ITEM_CHARS,
  openStore,
  type RedisStoreOptions,
  StoreError,
  type StoreErrorCode,
} from "./store/index.js";
export * as webBotAuth from "./protocol/web-bot-auth/index.js";
export { BAD_KEY_CODE, BotKey, BotKeyError, jwkThumbprint, verifyWithJwk } from "./net/bot-key.js";
export {
  createRequestSigner,
  type RequestSigner,
  type RequestSignerOptions,
  signingDispatcher,
} from "./net/request-signer.js";
export {
  type DirectoryAnswer,
  type DirectoryFetchOptions,
  fetchKeyDirectory,
} from "./net/key-directory-fetch.js";
export {
  type BotVerdict,
  BotVerifier,
  type BotVerifierOptions,
  incomingRequest,
  type VerifiedBot,
} from "./site/bot-verifier.js";
export { type BotAuth, type BotAuthOptions, botVerdictOf, createBotAuth } from "./site/bot-auth.js";
