/**
 * Time the hypervisor kept this machine's virtual CPUs from running ("steal", /proc/stat). A lab
 * instrument on a vCPU that was not running is late by that much whatever the lab does, so a timing
 * bar can be raised by what was stolen while it was measured, and only by that.
 */
import { readFileSync } from 'node:fs';

/** /proc/stat counts in USER_HZ, which Linux fixes at 100 per second for user space. */
const msPerTick = 10;

/** Each CPU's stolen time so far, in ms, from /proc/stat's text (its `cpuN` lines' eighth figure). */
export function stealByCpu(procStat: string): number[] {
  const stolen: number[] = [];
  for (const line of procStat.split('\n')) {
    const m = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (m === null) continue;
    const steal = Number(m[2]!.trim().split(/\s+/)[7] ?? 0);
    stolen[Number(m[1])] = steal * msPerTick;
  }
  return stolen;
}

/** A reading of every CPU's stolen time, to compare with a later one. */
export function readSteal(): number[] {
  return stealByCpu(readFileSync('/proc/stat', 'utf8'));
}

/** The most any one CPU had stolen between two readings, in ms. */
export function mostStolenMs(before: readonly number[], after: readonly number[]): number {
  return Math.max(0, ...after.map((ms, cpu) => ms - (before[cpu] ?? ms)));
}
