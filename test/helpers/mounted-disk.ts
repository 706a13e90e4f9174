/**
 * A test on a disk mounted for it (a small tmpfs, a loop device that fails): `mount` gives the
 * disk, or says why it cannot be mounted here (not root), and then the test is skipped saying
 * so. Either way the disk, the test's site and its temporary directory are let go at the end.
 */
import type { TestContext } from "node:test";

export interface OnDiskOptions<D> {
  readonly t: TestContext;
  readonly temp: { cleanup(): Promise<void> };
  readonly site: { close(): Promise<void> };
  readonly mount: () => Promise<D | string>;
}

export async function onMountedDisk<D extends { unmount(): Promise<void> }>(
  options: OnDiskOptions<D>,
  body: (disk: D) => Promise<void>,
): Promise<void> {
  const { t, temp, site } = options;
  let disk: D | string | null = null;
  try {
    disk = await options.mount();
    if (typeof disk === "string") t.skip(disk);
    else await body(disk);
  } finally {
    if (disk !== null && typeof disk !== "string") await disk.unmount();
    await site.close();
    await temp.cleanup();
  }
}
