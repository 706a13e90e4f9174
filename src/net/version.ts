import { readFileSync } from "node:fs";

/**
 * The package version, read once from package.json beside the build: what User-Agent, Server and
 * WARC headers name. Here, low in the layers, so that every layer may name it.
 */
export const VERSION: string = (() => {
  for (const path of ["../../../package.json", "../../package.json"]) {
    try {
      const json = JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (json.name === "heed" && typeof json.version === "string") return json.version;
    } catch {
      // try the next layout
    }
  }
  return "0.0.0";
})();
