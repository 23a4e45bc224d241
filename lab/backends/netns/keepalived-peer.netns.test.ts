/**
 * lblab side by side with keepalived (VRRPv3) on the real kernel, through `lblab run --peer keepalived`:
 * the node-crash scenario runs once with `lblab speaker` on the nodes and once with keepalived, the
 * report compares the two with the ratio lblab/keepalived, only lblab is gated, and nothing of the run
 * (namespace, keepalived process, work dir) is left. Figures are printed for the release notes.
 */
import { execFileSync } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { sutRoot } from '../../sut/work-dir.ts';
import { labNamespaces, runIdOf } from './index.ts';
import { expectComparedOutage, runSideBySide } from './netns-run.test-support.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['nft', 'tcpdump', 'keepalived']);

/**
 * PIDs of live keepalived processes on this machine (a zombie is dead already: init reaps it when it
 * gets to it); the test compares before and after, it ends none.
 */
function keepalivedPids(): string[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-C', 'keepalived', '-o', 'pid=,stat=']).toString();
  } catch {
    // ps exits 1 when no process matches.
  }
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, stat]) => pid && !stat?.startsWith('Z'))
    .map(([pid]) => pid!);
}

describe.skipIf(mode === 'skip')('lblab run --backend netns --peer keepalived', () => {
  let out: string | undefined;
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('runs node crash for lblab and keepalived, reports the ratio, gates lblab only', async () => {
    const before = keepalivedPids();
    const workDirsBefore = await readdir(sutRoot).catch(() => [] as string[]);
    const r = await runSideBySide('l2: node crash', 'keepalived');
    out = r.out;
    expectComparedOutage(r);
    // keepalived really died: the crash was its SIGKILL, not a leave.
    expect(
      r.peer.timeline.some((e) => e.kind === 'lifecycle' && /keepalived exited \(SIGKILL\)/.test(e.message)),
    ).toBe(true);

    expect((await labNamespaces()).filter((ns) => runIdOf(ns) === r.runId)).toEqual([]);
    expect(keepalivedPids()).toEqual(before);
    expect(
      (await readdir(sutRoot).catch(() => [] as string[])).filter((d) => !workDirsBefore.includes(d)),
    ).toEqual([]);
  }, 90_000);
});
