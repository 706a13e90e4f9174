export {
  type AgentResolution,
  MAX_AGENT_SERVER_RECORDS,
  MobileAgentServers,
  serviceOf,
  parseMobileAgentServers,
} from "./servers.js";
export {
  ATP_DEFAULT_PORT,
  type AgentTarget,
  isMobileAgentKey,
  MOBILE_AGENT_SERVER_KEY,
  type MobileAgentRecord,
  readSimplifiedUrl,
  type SimplifiedUrl,
  type SimplifiedUrlReading,
} from "./record.js";
