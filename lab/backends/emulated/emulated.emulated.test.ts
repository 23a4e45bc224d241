/**
 * The emulated backend end to end: the default suite on the three-node topology, with the real
 * speaker, election, membership and announcer on the simulated network, through the CLI a developer
 * runs. Figures must be those a client would see and must replay exactly from the seed.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../reports/result.ts';
import { lblabRun } from '../../cli/commands/run.test-support.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-emulated-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * The default suite at seed 42, run once (a few seconds) for every test that reads it: the gates, the
 * replay and the scenario run alone compare against the same run.
 */
let suite42: ReturnType<typeof lblabRun> | undefined;
const suite = () => (suite42 ??= lblabRun({ seed: '42' }, join(dir, 'a')));

const figures = (r: RunResult | undefined) =>
  r?.scenarios.map((s) => [s.name, s.status, s.measurements, s.timeline]);

describe('lblab run --backend emulated', () => {
  it('runs the default suite: failover well under a second, graceful handoff and restart lose nothing, gates pass', async () => {
    const { code, result, runDir } = await suite();
    expect(code).toBe(0);
    const by = new Map(result!.scenarios.map((s) => [s.name, s]));
    // The Kubernetes-only stories need a cluster (the kind tier) and say so; everything else passes.
    const notPassed = [...by.values()].filter((s) => s.status !== 'pass');
    expect(notPassed.map((s) => [s.name, s.status, s.reason])).toEqual(
      notPassed
        .filter((s) => s.name.startsWith('kubernetes: '))
        .map((s) => [s.name, 'not-applicable', 'the emulated backend lacks kubernetes']),
    );
    expect(notPassed.length).toBe(5);
    // Membership detects in 175-225 ms, then the takeover announcement re-points the client at once.
    for (const name of ['l2: node crash', 'l2: speaker hang']) {
      expect(by.get(name)!.measurements['outageMs']).toBeGreaterThan(150);
      expect(by.get(name)!.measurements['outageMs']).toBeLessThan(300);
    }
    expect(by.get('l2: graceful handoff (rolling restart)')!.measurements['lostProbes']).toBe(0);
    expect(by.get('l2: partition and heal')!.measurements['convergenceMs']).toBeLessThan(1000);
    // BGP through the emulated router: BFD (100 ms × 3) or the 3 s hold timer takes the dead node out of
    // its ECMP set; a graceful restart leaves the routes in place.
    expect(by.get('bgp: node crash with BFD')!.measurements['outageMs']).toBeLessThan(400);
    expect(by.get('bgp: node crash without BFD (hold timer 3 s)')!.measurements['outageMs']).toBeGreaterThan(
      2000,
    );
    expect(by.get('bgp: graceful restart rolling upgrade')!.measurements['lostProbes']).toBe(0);
    expect((await readdir(runDir!)).sort()).toEqual(['junit.xml', 'report.html', 'report.md', 'result.json']);
    expect(await readFile(join(runDir!, 'report.md'), 'utf8')).toContain(
      'lblab run --backend emulated --seed 42',
    );
  }, 60_000);

  it('replays exactly from the seed, and another seed gives other figures', async () => {
    const one = await suite();
    const two = await lblabRun({ seed: '42' }, join(dir, 'b'));
    const other = await lblabRun({ seed: '43' }, join(dir, 'c'));
    expect(figures(two.result)).toEqual(figures(one.result));
    expect(figures(other.result)).not.toEqual(figures(one.result));
  }, 60_000);

  it('a scenario run alone replays its figures from the suite', async () => {
    const alone = await lblabRun({ seed: '42', scenario: ['l2: speaker hang'] }, join(dir, 'alone'));
    expect(figures(alone.result)).toEqual(
      figures((await suite()).result)?.filter(([name]) => name === 'l2: speaker hang'),
    );
  }, 60_000);

  it('rejects a broken topology with its file and field path, before running anything', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'name: bad\nnodes:\n  n1: { kind: lblab-node, links: [nowhere] }\n');
    const { code, lines } = await lblabRun({ topology: bad, seed: '1' }, join(dir, 'd'));
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain(`${bad}: document 0 (Topology "bad"): nodes.n1.links[0]`);
  });

  it('rejects an unknown scenario and names the known ones', async () => {
    const { code, lines } = await lblabRun({ scenario: ['l2: meteor strike'], seed: '1' }, join(dir, 'e'));
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('unknown scenario "l2: meteor strike"; known: "l2: node crash"');
  });

  it('rejects a peer it cannot run, before running anything', async () => {
    const { code, lines } = await lblabRun({ peer: ['keepalived'], seed: '1' }, join(dir, 'f'));
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('the emulated backend cannot run peer "keepalived"; it runs no peers');
  });
});
