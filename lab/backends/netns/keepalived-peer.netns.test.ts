/**
 * lblab side by side with keepalived (VRRPv3) on the real kernel, through `lblab run --peer keepalived`:
 * the node-crash scenario runs once with `lblab speaker` on the nodes and once with keepalived, the
 * report compares the two with the ratio lblab/keepalived, only lblab is gated, and nothing of the run
 * (namespace, keepalived process, work dir) is left. Figures are printed for the release notes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ratio } from '../../../reports/compare.ts';
import type { RunResult } from '../../../reports/result.ts';
import { run } from '../../cli/commands/run.ts';
import { sutRoot } from '../../sut/work-dir.ts';
import { labNamespaces, runIdOf } from './index.ts';
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
    out = await mkdtemp(join(tmpdir(), 'lblab-netns-peer-'));
    const before = keepalivedPids();
    const workDirsBefore = await readdir(sutRoot).catch(() => [] as string[]);
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await run(
      {
        backend: 'netns',
        topology: 'topologies/l2-three-nodes.yaml',
        gates: 'reports/gates.yaml',
        out,
        seed: '1',
        scenario: ['l2: node crash'],
        peer: ['keepalived'],
      },
      { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) },
    );
    const runId = /^lblab run ([0-9a-f]+):/.exec(stdout[0] ?? '')?.[1];
    expect(runId, [...stdout, ...stderr].join('\n')).toBeDefined();
    const dir = join(out, runId!);
    const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as RunResult;
    const by = (sut: string) => result.scenarios.find((s) => s.sut === sut)!;
    for (const s of result.scenarios)
      console.log(
        `netns ${s.name} [${s.sut}]: ${s.status}${s.reason ? ` (${s.reason})` : ''}; ` +
          Object.entries(s.measurements)
            .map(([k, v]) => `${k} ${Math.round(v * 10) / 10}`)
            .join(', '),
      );

    expect(result.scenarios.map((s) => [s.name, s.sut])).toEqual([
      ['l2: node crash', 'lblab'],
      ['l2: node crash', 'keepalived'],
    ]);
    const lblab = by('lblab');
    const peer = by('keepalived');
    for (const s of [lblab, peer])
      expect({ sut: s.sut, status: s.status, reason: s.reason }).toEqual({
        sut: s.sut,
        status: 'pass',
        reason: undefined,
      });
    // Both really failed over: an outage was measured and another node carries the traffic afterwards.
    expect(peer.measurements['outageMs']).toBeGreaterThan(0);
    expect(lblab.measurements['outageMs']).toBeGreaterThan(0);
    expect(
      peer.timeline.some((e) => e.kind === 'lifecycle' && /keepalived exited \(SIGKILL\)/.test(e.message)),
    ).toBe(true);
    expect(lblab.gates.length).toBeGreaterThan(0);
    expect(peer.gates).toEqual([]);
    expect(code, [...stdout, ...stderr].join('\n')).toBe(0);

    const report = await readFile(join(dir, 'report.md'), 'utf8');
    const expected = ratio(lblab.measurements['outageMs']!, peer.measurements['outageMs']!)!;
    console.log(`netns l2: node crash outageMs lblab/keepalived: ${expected}`);
    expect(report).toContain('## Compared with peers');
    const row = report.split('\n').find((l) => l.includes('outageMs') && l.includes('keepalived'));
    expect(row, report).toContain(expected);

    expect((await labNamespaces()).filter((ns) => runIdOf(ns) === runId)).toEqual([]);
    expect(keepalivedPids()).toEqual(before);
    expect(
      (await readdir(sutRoot).catch(() => [] as string[])).filter((d) => !workDirsBefore.includes(d)),
    ).toEqual([]);
  }, 90_000);
});
