/** The Remote Update Protocol's texts (seeds/001), pure: text in, values out. */
export * from "./actions.js";
export * from "./answers.js";
export type { RupDiagnostic } from "./diagnostic.js";
export { emailProblem } from "./email.js";
export * from "./latency.js";
export * from "./limits.js";
export * from "./patterns.js";
export * from "./report.js";
export * from "./rupinfo.js";
export * from "./signature.js";
