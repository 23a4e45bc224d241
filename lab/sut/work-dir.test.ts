import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SutSpecError } from './errors.ts';
import { logTail, removeWorkDir, sweepWorkDirs } from './work-dir.ts';

describe('work dirs', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'lblab-sut-root-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const dir = async (name: string, files: Record<string, string>) => {
    const d = join(root, name);
    await mkdir(d);
    for (const [f, text] of Object.entries(files)) await writeFile(join(d, f), text);
    return d;
  };

  it('sweeps only the dirs of owners that are gone and whose daemons are gone', async () => {
    const deadPid = spawnSync('true').pid; // a process that has already exited
    const owner = (pid: number) => JSON.stringify({ pid });
    await dir('mine', { 'owner.json': owner(process.pid) });
    await dir('crashed', { 'owner.json': owner(deadPid), 'bgpd.pid': String(deadPid) });
    await dir('daemon-still-up', { 'owner.json': owner(deadPid), 'bird.pid': String(process.pid) });
    await dir('being-created', {});
    const old = await dir('old-unowned', {});
    const longAgo = new Date(Date.now() - 3600_000);
    await utimes(old, longAgo, longAgo);

    const removed = await sweepWorkDirs(root);
    expect(removed.map((d) => d.slice(root.length + 1)).sort()).toEqual(['crashed', 'old-unowned']);
    expect((await readdir(root)).sort()).toEqual(['being-created', 'daemon-still-up', 'mine']);
  });

  it('never removes anything outside the lab root', async () => {
    await expect(removeWorkDir('/etc', root)).rejects.toThrow(SutSpecError);
    await expect(removeWorkDir(`${root}-other/x`, root)).rejects.toThrow(SutSpecError);
  });

  it('shows the tail of every log in the dir under its name', async () => {
    const d = await dir('r', {
      'bgpd.log': Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n'),
      'bird.out': 'ready\n',
      'frr.conf': 'not a log',
    });
    const tail = await logTail(d, 2);
    expect(tail).toBe(
      '--- bgpd.log (last 2 lines) ---\nline 28\nline 29\n--- bird.out (last 2 lines) ---\nready',
    );
  });
});
