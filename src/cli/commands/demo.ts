import type { Io } from "../io.js";

/** The REGP news-site experiment; until it lands, say so and succeed. */
export async function runDemo(options: { readonly json: boolean }, io: Io): Promise<number> {
  const message =
    "the news-site experiment of seeds/003 §5 is coming; try `heed check` and `heed lint` meanwhile";
  io.stdout.write(
    options.json ? `${JSON.stringify({ runs: [], note: message })}\n` : `heed demo: ${message}\n`,
  );
  return 0;
}
