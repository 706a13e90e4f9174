/**
 * Types for robots-parser 3.0.1 as an ES module sees it. The package ships an `index.d.ts`
 * written as if it had a default export, but it is CommonJS (`module.exports = function`), so
 * under `"module": "NodeNext"` its default import is the function itself. This ambient
 * declaration takes precedence over the package's own.
 */
declare module "robots-parser" {
  interface Robot {
    isAllowed(url: string, ua?: string): boolean | undefined;
    isDisallowed(url: string, ua?: string): boolean | undefined;
    getMatchingLineNumber(url: string, ua?: string): number;
    getCrawlDelay(ua?: string): number | undefined;
    getSitemaps(): string[];
    getPreferredHost(): string | null;
  }
  function robotsParser(url: string, contents: string): Robot;
  export = robotsParser;
}
