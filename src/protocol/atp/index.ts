export { MAX_BODY_BYTES, MAX_HEAD_BYTES, MAX_HEADER_COUNT } from "./limits.js";
export {
  ATP_VERSION,
  type AtpHeaders,
  type AtpRequest,
  type AtpResponse,
  header,
} from "./message.js";
export {
  type AtpReadErrorCode,
  type ReadLimits,
  type ReadResult,
  readRequest,
  readResponse,
  expectedLength,
  type ResponseReadOptions,
} from "./reader.js";
export { MessageBuffer } from "./message-buffer.js";
export { ATP_STATUS, type AtpStatus, REASON_PHRASE, statusClass } from "./status.js";
export {
  AGENT_ID,
  ATP_PORT,
  type AtpUrl,
  type AtpUrlReading,
  parseAtpUrl,
  readResourceUri,
} from "./url.js";
export {
  AtpWriteError,
  type RequestToWrite,
  type ResponseToWrite,
  writeRequest,
  writeResponse,
} from "./writer.js";
export {
  AGENT_FORMAT,
  type AgentPackage,
  type AgentReport,
  HEED_AGENT_CONTENT_TYPE,
  HEED_AGENT_LANGUAGE,
  HEED_AGENT_SYSTEM,
  isHeedLanguage,
  isHeedSystem,
  type Json,
  MAX_AGENT_CODE_LENGTH,
  MAX_AGENT_STATE_LENGTH,
  type PackageReading,
  readAgentPackage,
} from "./agent-package.js";
