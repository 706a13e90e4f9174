export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A sleep that can be called off, so that a finished or stopped crawl does not linger on its
 * timer. Calling it off ends the wait at once: a waiter on `done` goes on (and sees the stop),
 * rather than waiting on a timer that will never fire.
 */
export function cancellableSleep(ms: number): { done: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let wake = (): void => {};
  const done = new Promise<void>((resolve) => {
    wake = resolve;
    timer = setTimeout(resolve, ms);
  });
  return {
    done,
    cancel: () => {
      clearTimeout(timer);
      wake();
    },
  };
}

/**
 * Waits `ms`, or less when `signal` aborts first (then it resolves at once, and the waiter sees
 * the stop): a long wait a crawl's stop must cut short.
 */
export async function sleepUnlessStopped(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  const nap = cancellableSleep(ms);
  const stop = (): void => nap.cancel();
  signal.addEventListener("abort", stop, { once: true });
  try {
    await nap.done;
  } finally {
    signal.removeEventListener("abort", stop);
  }
}
