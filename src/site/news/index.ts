export {
  createNewsSite,
  type Handler,
  type LoggedRequest,
  type NewsSite,
  type NewsSiteOptions,
} from "./site.js";
export { type RunningNewsSite, startNewsSite, type StartNewsSiteOptions } from "./server.js";
export { ROBOTS_VARIANTS, type RobotsVariant, robotsText } from "./robots.js";
export { PAPER_TABLES, type PaperRow, type PaperTable } from "./paper-tables.js";
export { type ResourceClass, type ResourceRow, resourceRows } from "./resources.js";
