/**
 * The process's helper threads set to a lower scheduling priority than the thread that runs
 * the command. Node starts four V8 helpers (the optimizing compiler, the collector's helpers)
 * whatever the machine has, and libuv's pool; on two cores, in a batch's first half-second,
 * when the compiler has most to do, they took the core the batch itself runs on: `check
 * --batch` over the bench's 127,550 queries ran 4% faster with them at nice 5, and no faster
 * at nice 19. At 5 a helper still gets a quarter of a core against any other program's thread
 * at 0, so a busy machine slows the compiler down but does not starve it.
 *
 * Linux only, where a thread's priority is set by its id (the main thread's is the process
 * id). A thread made later inherits its maker's priority: `--jobs` workers, made by the main
 * thread, keep it. Elsewhere, and on any error, nothing changes.
 */
import { readdirSync, readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

const HELPER_NICE = 5;

export function lowerHelperThreads(): void {
  if (process.platform !== "linux") return;
  let tasks: string[];
  try {
    // The ids /proc gives are those of its process namespace; when that is not the process's
    // own (`unshare --pid` without a /proc of its own), an id read there may be another
    // program's here, and setPriority would lower it. /proc/self names the process by the id
    // it has here only when the two are one.
    if (readlinkSync("/proc/self") !== String(process.pid)) return;
    tasks = readdirSync("/proc/self/task");
  } catch {
    return;
  }
  for (const task of tasks) {
    const tid = Number(task);
    if (!Number.isInteger(tid) || tid === process.pid) continue;
    try {
      // Never raised: a process started with `nice` keeps at least its own.
      setPriority(tid, Math.max(getPriority(tid), HELPER_NICE));
    } catch {
      // A thread that ended meanwhile.
    }
  }
}
