import { afterEach, describe, expect, it } from 'vitest';
import { forgetRun, readRun, recordRun } from '../../backends/netns/run-registry.ts';
import { keepLab, type LabToKeep } from './kept-lab.ts';

// A run id of this test only (the registry is the machine's), removed afterwards.
const runId = `e${process.pid.toString(16)}k`;
afterEach(() => forgetRun(runId));

/** A lab that only records whether it was taken down; `registered` as a backend's up() does it. */
function fakeLab(registered = true) {
  const lab = { downs: 0, down: async () => void lab.downs++ };
  const build = async () => {
    if (registered) await recordRun(runId);
    return lab;
  };
  return { lab, build };
}

const described: LabToKeep = {
  manifest: { hosts: [{ name: 'n1', addresses: ['198.18.0.11/24'] }] },
  pids: [4242],
  warnings: ['lblab lab up: not every service had an announcer within 15 s'],
  label: 'lab',
  example: 'ip netns exec lblab-x-<host> ping ...',
};

async function up(json: boolean, lab: ReturnType<typeof fakeLab>, describe = async () => described) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = { stdout: (l: string) => stdout.push(l), stderr: (l: string) => stderr.push(l) };
  const code = await keepLab({ runId, backend: 'netns', json }, out, lab.build, describe);
  return { code, stdout, stderr };
}

describe('lblab lab up, a lab that keeps running', () => {
  it('marks the run kept with its processes and prints the manifest as YAML, then how to reach and remove it', async () => {
    const lab = fakeLab();
    const { code, stdout, stderr } = await up(false, lab);
    expect(code).toBe(0);
    expect(stdout).toEqual([
      [
        `runId: ${runId}`,
        'backend: netns',
        'hosts:',
        '  - name: n1',
        '    addresses:',
        '      - 198.18.0.11/24',
      ].join('\n'),
    ]);
    expect(stderr).toEqual([
      'lblab lab up: not every service had an announcer within 15 s',
      `lblab lab up: lab ${runId} keeps running (e.g. ip netns exec lblab-x-<host> ping ...); ` +
        `remove it with: lblab lab down --run-id ${runId}`,
    ]);
    expect((await readRun(runId))?.kept?.pids).toEqual([4242]);
    expect(lab.lab.downs).toBe(0);
  });

  it('prints the same manifest as indented JSON with --json', async () => {
    const { stdout } = await up(true, fakeLab());
    expect(stdout).toEqual([
      JSON.stringify({ runId, backend: 'netns', hosts: described.manifest['hosts'] }, null, 2),
    ]);
  });

  it('tears the lab down and exits 2 with the reason when it cannot be described, printing no manifest', async () => {
    const lab = fakeLab();
    const { code, stdout, stderr } = await up(false, lab, () =>
      Promise.reject(new Error('node n1 did not start')),
    );
    expect([code, stdout, stderr]).toEqual([2, [], ['lblab lab up: node n1 did not start']]);
    expect(lab.lab.downs).toBe(1);
    expect((await readRun(runId))?.kept).toBeUndefined();
  });

  it('tears the lab down when its run cannot be marked kept (not registered)', async () => {
    const lab = fakeLab(false);
    const { code, stdout, stderr } = await up(false, lab);
    expect([code, stdout, stderr]).toEqual([2, [], [`lblab lab up: lab run ${runId} is not registered`]]);
    expect(lab.lab.downs).toBe(1);
  });
});
