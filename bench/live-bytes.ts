/**
 * The heap a bench's results keep: JavaScript heap and array buffers in use after full
 * collections, NaN when the process was not started with `node --expose-gc`.
 */
const collect = (globalThis as { gc?: () => void }).gc;

/** True when {@link liveBytes} can measure (the process runs with --expose-gc). */
export const heapMeasured = collect !== undefined;

export function liveBytes(): number {
  if (collect === undefined) return Number.NaN;
  // Three rounds: objects with finalizers or weak references go on the later ones.
  for (let k = 0; k < 3; k++) collect();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
