export { type FormChoice, detectForm } from "./detect.js";
export { type DataTxtLintReport, formName, lintDataTxt } from "./lint.js";
export {
  MAX_COLUMNS,
  MAX_DATA_TXT_BYTES,
  MAX_DRAFT_LINES,
  MAX_ENTRIES,
  MAX_ENTRY_VALUES,
  MAX_FILES_PER_ENTRY,
  MAX_UNSPLIT_VALUES,
  MAX_YAML_DEPTH,
  MAX_YAML_VALUES,
} from "./limits.js";
export { type Offer, type OfferedDataset, offeredTo } from "./offer.js";
export { type ReadDataTxtOptions, readDataTxt } from "./read.js";
export { type Resolved, resolveDatasetPath, UNKNOWN_SITE } from "./resolve.js";
export type {
  ColumnSpec,
  DataTxt,
  DataTxtForm,
  DatasetEntry,
  Diagnostic,
  DraftRecord,
  DraftRule,
  Severity,
} from "./types.js";
export {
  type DatasetSpec,
  type WriteOptions,
  writeDataTxt,
  writeDatasetMapping,
} from "./writer.js";
export { type DataHint, looksLikeData } from "./looks-like-data.js";
export { isManifestPath } from "./yaml-form.js";
