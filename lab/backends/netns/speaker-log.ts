/**
 * What a lab reads from `lblab speaker`'s output lines: the event each line is, and the service addresses
 * its announcer answers for (from a pipe as lines arrive, or afterwards from a detached lab's logs).
 */
import { readFile } from 'node:fs/promises';
import type { DetachedProgram } from './lab-programs.ts';

/** "<ISO time> <node> <kind>: <message>", as `lblab speaker` logs; anything else is lifecycle. */
export function speakerLine(line: string): { kind: string; message: string } {
  const m = /^\S+ \S+ (\w+): (.*)$/.exec(line);
  return m ? { kind: m[1]!, message: m[2]! } : { kind: 'lifecycle', message: line };
}

export interface LoggedStall {
  ms: number;
  waitedMs: number;
}

/**
 * A main-loop stall a speaker logged ("main event loop blocked for 169 ms (ran 40 ms, GC 25 ms, waited
 * 120 ms for a CPU)", core/runtime/loop-stalls.ts): how late, and how much of it the main thread waited for
 * a CPU (0 where the speaker could not tell).
 */
export function loopStall(line: string): LoggedStall | undefined {
  const m = /main event loop blocked for (\d+) ms/.exec(line);
  if (!m) return undefined;
  return { ms: Number(m[1]), waitedMs: Number(/waited (\d+) ms for a CPU/.exec(line)?.[1] ?? 0) };
}

/** Follows the announcer's took-over / released lines into the set of addresses a speaker answers for. */
export function trackOwnership(
  owned: Set<string>,
  { kind, message }: { kind: string; message: string },
): void {
  const announced = kind === 'announcer' ? /^(took-over|released) (\S+) on /.exec(message) : null;
  if (announced?.[1] === 'took-over') owned.add(announced[2]!);
  if (announced?.[1] === 'released') owned.delete(announced[2]!);
}

/** Follows a speaker's membership lines ("n2: unknown → alive (…)") into the set of peers it holds alive. */
export function trackMembership(
  alive: Set<string>,
  { kind, message }: { kind: string; message: string },
): void {
  const change = kind === 'membership' ? /^(\S+): \w+ → (\w+) \(/.exec(message) : null;
  if (change?.[2] === 'alive') alive.add(change[1]!);
  else if (change) alive.delete(change[1]!);
}

/** A detached lab's announcers, from its speakers' logs (no pipe carries their lines to this process). */
export async function announcersFromLogs(
  programs: readonly DetachedProgram[],
  address: string,
): Promise<string[]> {
  const owners: string[] = [];
  for (const p of programs.filter((d) => d.program === 'speaker')) {
    const owned = new Set<string>();
    const text = await readFile(p.log, 'utf8').catch(() => '');
    for (const line of text.split('\n')) trackOwnership(owned, speakerLine(line));
    if (owned.has(address)) owners.push(p.host);
  }
  return owners;
}
