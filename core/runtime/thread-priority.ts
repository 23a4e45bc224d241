import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the scheduling priority of the calling thread only (Linux: setpriority on the thread's id, which
 * /proc/thread-self names), for background work that must not crowd out what runs beside it on a busy
 * machine. Returns false, changing nothing, where that cannot be done.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(tid)) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
