/**
 * `HEED_TEST_CLOCK_SKEW_MS`, for tests only: shifts this process's wall clock (`Date.now`) by
 * that many ms, as a machine whose clock is off reads it, so that a test can run two crawler
 * processes whose clocks differ on one machine. Ignored unless set; read here and nowhere else.
 * A crawl judges gaps, reservations and heartbeats by the store's clock, so a skewed process
 * still keeps every site's pace (docs/crawl.md, "One clock: the store's").
 */
export const CLOCK_SKEW_VARIABLE = "HEED_TEST_CLOCK_SKEW_MS";

/** Applies the skew the environment asks for; returns it (0 when unset). */
export function applyTestClockSkew(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[CLOCK_SKEW_VARIABLE];
  if (text === undefined || text.trim() === "") return 0;
  const skew = Number(text);
  if (!Number.isFinite(skew)) {
    process.stderr.write(`heed: ${CLOCK_SKEW_VARIABLE}: expected ms, got "${text}"; ignored\n`);
    return 0;
  }
  const machine = Date.now;
  Date.now = () => machine() + skew;
  return skew;
}
