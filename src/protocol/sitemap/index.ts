export { SITEMAP_CODES } from "./diagnostics.js";
export { type DiscoveredSitemaps, type SitemapLocation, sitemapsFromRobots } from "./discovery.js";
export { decodeXmlText } from "./entities.js";
export {
  COMPRESSION_RATIO_FLOOR_BYTES,
  MAX_COMPRESSION_RATIO,
  MAX_ENTRY_CHARS,
  MAX_ENTRY_TAGS,
  MAX_INDEX_DEPTH,
  MAX_LOC_LENGTH,
  MAX_MARKUP_UNITS,
  MAX_SITEMAP_BYTES,
  MAX_SITEMAP_URLS,
  MAX_SITEMAPS_FOLLOWED,
  MAX_XML_DEPTH,
  REGP_NAMESPACE,
  REGP_PREFIX,
  SITEMAP_NAMESPACE,
} from "./limits.js";
export {
  isGzip,
  type ParseSitemapOptions,
  parseSitemap,
  parseSitemapBatches,
  parseSitemapText,
  readLimits,
  type SitemapContents,
  type SitemapLimits,
  SitemapParser,
} from "./reader.js";
export { type ScopeOptions, type SitemapScope, sitemapScope } from "./scope.js";
export {
  CHANGE_FREQS,
  type ChangeFreq,
  PAGE_TYPES,
  type PageType,
  type SitemapCode,
  type SitemapDiagnostic,
  type SitemapEvent,
  type SitemapFormat,
  type SitemapRef,
  type SitemapSeverity,
  type SitemapSummary,
  type SitemapUrl,
} from "./types.js";
export {
  type DatetimePrecision,
  formatW3cDatetime,
  isW3cDatetime,
  parseW3cDatetime,
  rfc822ToW3c,
  type W3cDatetime,
  w3cText,
} from "./w3c-datetime.js";
export {
  checkUrlInput,
  escapeXml,
  fieldElement,
  formatPriority,
  type InputCheck,
  renderSitemapIndex,
  renderUrlset,
  SITEMAPINDEX_CLOSE,
  SitemapInputError,
  type SitemapRefInput,
  type SitemapUrlInput,
  type SitemapUrlRecord,
  sitemapElement,
  sitemapIndexOpen,
  URLSET_CLOSE,
  type UrlsetOptions,
  urlElement,
  urlsetOpen,
  XML_DECLARATION,
} from "./writer.js";
export {
  type PatchField,
  type PatchResult,
  type PatchSpec,
  SitemapPatcher,
  SitemapPatchError,
} from "./patch.js";
