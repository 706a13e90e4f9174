/**
 * A lint finding about a file cut at its size limit, for a file read only one byte past that
 * limit (robots-source.ts readLocalFile, read-stream.ts readAll): what was read is not the
 * file's size, so the finding says the file is "over" the limit, as `heed check` and the crawl
 * log word it, instead of giving the bytes read as the size.
 */
export function sizeOver<T extends { readonly code: string; readonly message: string }>(
  findings: readonly T[],
  limit: number,
): T[] {
  return findings.map((f) =>
    f.code === "size-limit"
      ? { ...f, message: f.message.replace(/^file is \d+ bytes/, `file is over ${limit} bytes`) }
      : f,
  );
}
