/**
 * A real small filesystem for tests of a full disk: a tmpfs of a few hundred KiB mounted on a
 * directory. Mounting needs root (CAP_SYS_ADMIN); where it is refused, `mountSmallDisk` says
 * why and the test is skipped with that reason.
 */
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface SmallDisk {
  readonly dir: string;
  /** Gives it room: `kib` KiB in all (mount -o remount,size=…, allowed while files are open). */
  grow(kib: number): Promise<void>;
  unmount(): Promise<void>;
}

/** Mounts a tmpfs of `kib` KiB on `dir`; a string (why not) when this machine refuses. */
export async function mountSmallDisk(dir: string, kib: number): Promise<SmallDisk | string> {
  await mkdir(dir, { recursive: true });
  try {
    await run("mount", ["-t", "tmpfs", "-o", `size=${kib}k,mode=0755`, "tmpfs", dir]);
  } catch (error) {
    return `cannot mount a tmpfs here (root is needed): ${(error as Error).message.split("\n")[0]}`;
  }
  let mounted = true;
  return {
    dir,
    grow: async (size: number) => {
      await run("mount", ["-o", `remount,size=${size}k`, dir]);
    },
    unmount: async () => {
      if (!mounted) return;
      mounted = false;
      await run("umount", ["-l", dir]);
    },
  };
}
