import { chown, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SutSpecError } from './errors.ts';
import { removeFrrScratch } from './frr-scratch.ts';

/** Every router's files live under here, one fresh directory per router; nothing goes to /etc or /run. */
export const sutRoot = join(tmpdir(), 'lblab', 'sut');

/** Records which process made a work dir, so a later run can tell a leftover from a dir in use. */
const ownerFile = 'owner.json';

/** A dir with no owner file may be in the middle of being created; only an old one is a leftover. */
const unownedGraceMs = 10 * 60_000;

export function checkRouterName(name: string): string {
  if (!/^[a-z0-9][a-z0-9-]{0,30}$/.test(name))
    throw new SutSpecError(
      `router name ${JSON.stringify(name)} must be 1-31 lower-case letters, digits, "-"`,
    );
  return name;
}

/**
 * A new private work directory for one router. `owner` hands it to the daemon's user (FRR drops to
 * user frr and must create its sockets and pid files there). Leftovers of dead runs are swept first.
 */
export async function createWorkDir(name: string, owner?: { uid: number; gid: number }): Promise<string> {
  await mkdir(sutRoot, { recursive: true, mode: 0o755 });
  await sweepWorkDirs();
  const dir = await mkdtemp(join(sutRoot, `${checkRouterName(name)}-`));
  await writeFile(join(dir, ownerFile), `${JSON.stringify({ pid: process.pid })}\n`);
  if (owner) await chown(dir, owner.uid, owner.gid);
  return dir;
}

export async function removeWorkDir(dir: string, root = sutRoot): Promise<void> {
  // Refuses anything outside the lab's own root, so a bad path can never remove more than a work dir.
  if (!dir.startsWith(`${root}/`)) throw new SutSpecError(`${dir} is not a lab work directory`);
  await rm(dir, { recursive: true, force: true });
}

/**
 * Whether `pid` runs. A zombie does not: a killed detached daemon (`lab up`) waits for init to reap it,
 * and its work dir must not outlive it for that.
 */
async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z /s.test(stat);
}

/**
 * Removes the work dirs of processes that are gone: a runner that crashed, or one that let
 * NetnsLab.destroy() kill its daemons without stopping its routers. A dir whose owner still runs is
 * never touched. FRR's scratch dirs of daemons that died with such a dir go too.
 */
export async function sweepWorkDirs(root = sutRoot): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await readdir(root).catch(() => [] as string[])) {
    const dir = join(root, entry);
    const owner = await readFile(join(dir, ownerFile), 'utf8').then(
      (t) => (JSON.parse(t) as { pid: number }).pid,
      () => undefined,
    );
    if (owner !== undefined && (await alive(owner))) continue;
    if (owner === undefined) {
      const age = await stat(dir).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age < unownedGraceMs) continue;
    }
    // Pid files name the daemons; one still running (or a reused pid) keeps the dir: err on keeping.
    const daemons: [string, number][] = [];
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      const name = /^([a-z]+)\.pid$/.exec(f)?.[1];
      const pid = name ? Number((await readFile(join(dir, f), 'utf8').catch(() => '')).trim()) : 0;
      if (name && pid > 0) daemons.push([name, pid]);
    }
    if ((await Promise.all(daemons.map(([, pid]) => alive(pid)))).some(Boolean)) continue;
    for (const [name, pid] of daemons)
      if (['zebra', 'bgpd', 'bfdd'].includes(name)) await removeFrrScratch(name, pid);
    await removeWorkDir(dir, root);
    removed.push(dir);
  }
  return removed;
}

/** The last `lines` lines of every log (*.log, *.out) in the work dir, each under its file name. */
export async function logTail(dir: string, lines = 20): Promise<string> {
  const files = (await readdir(dir).catch(() => [] as string[]))
    .filter((f) => f.endsWith('.log') || f.endsWith('.out'))
    .sort();
  const parts: string[] = [];
  for (const f of files) {
    const text = await readFile(join(dir, f), 'utf8').catch(() => '');
    const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
    if (tail) parts.push(`--- ${f} (last ${lines} lines) ---\n${tail}`);
  }
  return parts.length > 0 ? parts.join('\n') : `(no logs in ${dir})`;
}
