/**
 * A real filesystem that turns read-only under open files, for tests of a store that fails
 * mid-crawl: an ext4 image on a loop device, mounted `errors=remount-ro`. `fail()` reports an
 * error through ext4's own `trigger_fs_error` (sysfs), as a failing disk would: the kernel
 * aborts the journal and remounts read-only at once, open files and all (a plain
 * `mount -o remount,ro` is refused while a file is open for writing). `recover()` checks the
 * image and mounts it again writable. Needs root; where refused, the reason, for a skip.
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface FailingDisk {
  readonly dir: string;
  /** The filesystem goes read-only now, as after a disk error. */
  fail(): Promise<void>;
  /** Checked (e2fsck) and mounted again writable, its files as the journal kept them. */
  recover(): Promise<void>;
  unmount(): Promise<void>;
}

/** An ext4 of `mib` MiB on `dir` (its image beside it); a string (why not) where refused. */
export async function mountFailingDisk(dir: string, mib: number): Promise<FailingDisk | string> {
  await mkdir(dir, { recursive: true });
  const image = `${dir}.img`;
  let loop = "";
  const mount = () => run("mount", ["-o", "errors=remount-ro", loop, dir]);
  try {
    await run("truncate", ["-s", `${mib}M`, image]);
    await run("mkfs.ext4", ["-q", image]);
    loop = (await run("losetup", ["-f", "--show", image])).stdout.trim();
    // A loop device left read-only by an earlier user would mount read-only.
    await run("blockdev", ["--setrw", loop]);
    await mount();
  } catch (error) {
    if (loop !== "") await run("losetup", ["-d", loop]).catch(() => undefined);
    return `cannot mount an ext4 on a loop device here (root is needed): ${(error as Error).message.split("\n")[0]}`;
  }
  const trigger = `/sys/fs/ext4/${basename(loop)}/trigger_fs_error`;
  let mounted = true;
  const unmount = async () => {
    if (!mounted) return;
    mounted = false;
    await run("umount", [dir]).catch(() => run("umount", ["-l", dir]));
  };
  return {
    dir,
    fail: () => writeFile(trigger, "heed test: the store's disk fails\n"),
    recover: async () => {
      await unmount();
      // 1: errors were found and mended; anything above is a failure of the check itself.
      await run("e2fsck", ["-fy", image]).catch((error: { code?: number }) => {
        if (error.code !== 1) throw error;
      });
      await mount();
      mounted = true;
    },
    unmount: async () => {
      await unmount();
      await run("losetup", ["-d", loop]).catch(() => undefined);
    },
  };
}
