/** The package version (net/version.ts), as the commands name it. */
export { VERSION } from "../net/version.js";
