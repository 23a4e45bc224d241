import { afterEach, describe, expect, it, vi } from 'vitest';
import { standIns, type StandIns } from '../../backends/kind/kind-standins.test-support.ts';
import { forgetRun, readRun, recordRun } from '../../backends/netns/run-registry.ts';
import { kindRunExists, sweepKindRuns } from './lab-kind.ts';

// Run ids of this test only (the registry is the machine's), removed afterwards.
const live = `e${process.pid.toString(16)}a`;
const dead = `e${process.pid.toString(16)}d`;

let tools: StandIns | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await tools?.remove();
  tools = undefined;
  await forgetRun(live);
  await forgetRun(dead);
});

async function withKind(): Promise<StandIns> {
  tools = await standIns({
    kind: [
      { when: 'version', stdout: 'kind v0.32.0 go1.24.2 linux/amd64' },
      // Someone else's clusters ("kind", "lblab-dev-box") sit beside the lab's.
      { when: 'get clusters', stdout: `kind\nlblab-${live}\nlblab-${dead}\nlblab-dev-box\n` },
    ],
    docker: [
      { when: 'version*', stdout: '28.0.4' },
      { when: 'network ls*', stdout: 'f00d\n' },
    ],
  });
  vi.stubEnv('LBLAB_KIND', tools.kind);
  vi.stubEnv('LBLAB_DOCKER', tools.docker);
  return tools;
}

const sink = (lines: string[]) => ({
  stdout: (l: string) => lines.push(l),
  stderr: (l: string) => lines.push(l),
});
const deletions = async (t: StandIns) =>
  (await t.calls())
    .filter((c) => c.args[0] === 'delete' || c.args[1] === 'rm')
    .map((c) => [c.tool, ...c.args]);

describe('lblab lab clean and down, kind labs (stand-in kind and docker)', () => {
  it('--dead-only removes the cluster and network of a run whose runner is gone, not a live one nor anyone else’s', async () => {
    const t = await withKind();
    await recordRun(live); // owned by this (live) process
    const lines: string[] = [];
    const swept = await sweepKindRuns(sink(lines), 'clean', { onlyDeadRuns: true });
    expect(swept).toEqual({ clusters: [`lblab-${dead}`], networks: [`lblab-kind-${dead}`] });
    expect(await deletions(t)).toEqual([
      ['kind', 'delete', 'cluster', '--name', `lblab-${dead}`],
      ['docker', 'network', 'rm', `lblab-kind-${dead}`],
    ]);
    expect(lines).toEqual([`removed kind cluster lblab-${dead}`, `removed network lblab-kind-${dead}`]);
    expect(await readRun(live)).toBeDefined();
  });

  it('a plain clean removes every lab cluster, live ones too, and forgets their runs', async () => {
    const t = await withKind();
    await recordRun(live);
    const swept = await sweepKindRuns(sink([]), 'clean', {});
    expect(swept?.clusters).toEqual([`lblab-${live}`, `lblab-${dead}`]);
    expect((await deletions(t)).filter((c) => c[0] === 'kind').map((c) => c.at(-1))).toEqual([
      `lblab-${live}`,
      `lblab-${dead}`,
    ]);
    expect(await readRun(live)).toBeUndefined();
  });

  it('down removes exactly the named run, and finds whether kind has it', async () => {
    const t = await withKind();
    expect(await kindRunExists(live)).toBe(true);
    expect(await kindRunExists('0a0a0a')).toBe(false);
    await sweepKindRuns(sink([]), 'down', { runId: live });
    expect(await deletions(t)).toEqual([
      ['kind', 'delete', 'cluster', '--name', `lblab-${live}`],
      ['docker', 'network', 'rm', `lblab-kind-${live}`],
    ]);
  });

  it('without kind says no kind lab was looked for, and removes nothing', async () => {
    vi.stubEnv('LBLAB_KIND', '/nonexistent/kind');
    const lines: string[] = [];
    expect(await sweepKindRuns(sink(lines), 'clean', {})).toBeUndefined();
    expect(lines).toEqual(['lblab lab clean: no kind or Docker here, so no kind lab was looked for']);
    expect(await kindRunExists(live)).toBe(false);
  });
});
