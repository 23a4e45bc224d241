/**
 * Silent node death, the honest kind: the node's processes are frozen (SIGSTOP, so no FIN, no RST, no
 * NOTIFICATION) and an nftables ruleset inside the node's namespace drops every packet in and out (so
 * its kernel answers nothing either: no TCP ACK, ARP or neighbour advertisement). On a bridged segment
 * the peer sees no carrier change; only BFD or the hold timer can notice. The ruleset lives in the lab
 * namespace only; the host's firewall is never touched.
 */
import { stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { withTempFile } from './temp-file.ts';
import type { Netns } from './namespace.ts';
import { runIdOf } from './names.ts';

/** One table name in both families, so undoing is two deletes of tables nothing else uses. */
export const silenceTable = 'lblab_silence';

/**
 * Drop policy on every hook a packet of the namespace passes: inet (IPv4 and IPv6, NDP included) for
 * input, output and forward, arp for ARP in and out; priority -400 puts the chains ahead of any other on
 * the same hook. Newlines between chains: nft refuses the ruleset on one line.
 */
export function silenceRuleset(): string {
  const chain = (name: string) =>
    [`\tchain ${name} {`, `\t\ttype filter hook ${name} priority -400; policy drop;`, '\t}'].join('\n');
  return [
    // Declaring then deleting makes the definition below start from nothing, even after a crash.
    `table inet ${silenceTable}`,
    `delete table inet ${silenceTable}`,
    `table arp ${silenceTable}`,
    `delete table arp ${silenceTable}`,
    `table inet ${silenceTable} {`,
    chain('input'),
    chain('output'),
    chain('forward'),
    '}',
    `table arp ${silenceTable} {`,
    chain('input'),
    chain('output'),
    '}',
    '',
  ].join('\n');
}

export function unsilenceRuleset(): string {
  return [`delete table inet ${silenceTable}`, `delete table arp ${silenceTable}`, ''].join('\n');
}

export interface Silenced {
  readonly ns: Netns;
  readonly pids: readonly number[];
  /** performance.now() just before the filter was set: the node fell silent by `at + filterMs`. */
  readonly at: number;
  /** How long the filter took to be in place; the processes were frozen right after. */
  readonly filterMs: number;
}

const active = new Set<Silenced>();

async function netnsInode(path: string): Promise<number> {
  return (await stat(path)).ino;
}

/** Refuses a PID that does not live in `ns`: silence() never freezes a process of the host's. */
async function checkPids(ns: Netns, pids: readonly number[]): Promise<void> {
  if (runIdOf(ns.name) === undefined) throw new Error(`${ns.name} is not a lab namespace`);
  const want = await netnsInode(ns.netnsPath());
  for (const pid of pids) {
    if (!Number.isInteger(pid) || pid <= 1) throw new Error(`silence: ${pid} is not a process id`);
    const have = await netnsInode(`/proc/${pid}/ns/net`).catch(() => undefined);
    if (have !== want) throw new Error(`silence: process ${pid} is not running in ${ns.name}`);
  }
}

function signalAll(pids: readonly number[], sig: 'SIGSTOP' | 'SIGCONT'): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch (err) {
      // A process that is already gone needs no signal; anything else (EPERM) is a real failure.
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
    }
  }
}

/**
 * Drops all traffic of `ns`, then freezes `pids` (all of them in `ns`); undo with unsilence(). The filter
 * goes first because setting it spawns nft, which can be slow: on a loaded CI machine a node frozen
 * first still answered its client about 190 ms later, by when the other speakers had found it dead and
 * taken its address over, so the client saw no fault at all. This way its clients and peers lose the
 * node at the same moment; its processes run cut off from the wire until the freeze.
 */
export async function silence(ns: Netns, pids: readonly number[]): Promise<Silenced> {
  await checkPids(ns, pids);
  const at = performance.now();
  await withTempFile('silence.nft', silenceRuleset(), (file) => ns.exec(['nft', '-f', file]));
  const filterMs = performance.now() - at;
  const s: Silenced = { ns, pids: [...pids], at, filterMs };
  active.add(s);
  try {
    signalAll(pids, 'SIGSTOP');
  } catch (err) {
    await unsilence(s);
    throw err;
  }
  return s;
}

/** Removes the filter, then wakes the processes (so they wake to a working network). */
export async function unsilence(s: Silenced): Promise<void> {
  if (!active.delete(s)) return;
  try {
    // A namespace already deleted took its ruleset with it.
    const gone = await stat(s.ns.netnsPath()).then(
      () => false,
      () => true,
    );
    if (!gone)
      await withTempFile('unsilence.nft', unsilenceRuleset(), (file) => s.ns.exec(['nft', '-f', file]));
  } finally {
    signalAll(s.pids, 'SIGCONT');
  }
}

/** Undoes every silence() still in force: for afterEach, so a failed test never leaves a node frozen. */
export async function unsilenceAll(): Promise<void> {
  const errors: unknown[] = [];
  for (const s of [...active]) await unsilence(s).catch((err: unknown) => errors.push(err));
  if (errors.length > 0) throw new AggregateError(errors, 'unsilence failed for some namespaces');
}
