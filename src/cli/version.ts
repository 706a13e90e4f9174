import { readFileSync } from "node:fs";

/** The package version, read once from package.json beside the build. */
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
