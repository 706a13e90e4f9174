/** Resolves on SIGINT or SIGTERM (or when `signal` aborts): how a server command waits to end. */
export function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
    if (signal?.aborted === true) done();
    else signal?.addEventListener("abort", done);
  });
}
