import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sh } from './command.ts';
import { NetnsLab } from './lab.ts';
import { labNamespaces, sweepLeftovers } from './sweep.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['ping']);

describe.skipIf(mode === 'skip')('netns lab primitives (real kernel)', () => {
  let lab: NetnsLab;
  let hostLinks: string;
  beforeAll(async () => {
    hostLinks = await sh(['ip', '-br', 'link']);
    lab = await NetnsLab.create();
  });
  afterAll(async () => {
    await lab?.destroy();
  });

  it('joins hosts on a bridged segment so they reach each other, without touching the host namespace', async () => {
    const seg = await lab.segment('lan');
    const a = await lab.host('a');
    const b = await lab.host('b');
    await lab.attach(a, 'eth0', seg);
    await lab.attach(b, 'eth0', seg);
    await a.addAddress('eth0', '198.18.0.1/24');
    await b.addAddress('eth0', '198.18.0.2/24');
    await a.addAddress('eth0', '2001:db8::1/64');
    await b.addAddress('eth0', '2001:db8::2/64');
    await a.exec(['ping', '-c', '1', '-W', '2', '198.18.0.2']);
    await a.exec(['ping', '-c', '1', '-W', '2', '2001:db8::2']);
    expect(await a.mac('eth0')).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    expect(await sh(['ip', '-br', 'link'])).toBe(hostLinks);
    expect((await labNamespaces()).filter((n) => n.includes(lab.runId)).sort()).toEqual(
      [`lblab-${lab.runId}-a`, `lblab-${lab.runId}-b`, `lblab-${lab.runId}-sw-lan`].sort(),
    );
  });

  it('ends the processes it started and removes every namespace of the run', async () => {
    const p = await lab.host('p');
    const child = p.spawn(['sleep', '300']);
    await new Promise((r) => child.once('spawn', r));
    await lab.destroy();
    expect(child.signalCode).toBe('SIGKILL');
    expect((await labNamespaces()).filter((n) => n.includes(lab.runId))).toEqual([]);
    lab = await NetnsLab.create();
  });

  it('reaps what a runner killed with SIGKILL left behind, but not a live run', async () => {
    // A runner that builds a namespace with a process in it, then dies without cleaning up.
    const script = `
      import { NetnsLab } from './lab/backends/netns/lab.ts';
      const lab = await NetnsLab.create();
      const h = await lab.host('orphan');
      h.spawn(['sleep', '300'], { detached: true, stdio: 'ignore' }).unref();
      console.log(lab.runId);
      setInterval(() => {}, 1000);
    `;
    const runner = spawn('node', ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(),
    });
    const orphanRun = await new Promise<string>((resolve, reject) => {
      runner.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      runner.once('exit', (code) => reject(new Error(`runner exited ${code}`)));
    });
    expect(await labNamespaces()).toContain(`lblab-${orphanRun}-orphan`);
    expect((await sweepLeftovers({ onlyDeadRuns: true })).namespaces).not.toContain(
      `lblab-${orphanRun}-orphan`,
    );
    runner.kill('SIGKILL');
    await new Promise((r) => runner.once('exit', r));
    const swept = await sweepLeftovers({ onlyDeadRuns: true });
    expect(swept.namespaces).toEqual([`lblab-${orphanRun}-orphan`]);
    expect(swept.processes.length).toBeGreaterThan(0);
    expect(await labNamespaces()).not.toContain(`lblab-${orphanRun}-orphan`);
  }, 30_000);
});
