import { describe, expect, it } from 'vitest';
import type { Topology } from '../model/topology.ts';
import type { Backend, Capability } from './backend.ts';
import { FakeLab } from './fake-lab.test-support.ts';
import { NotApplicableError } from './checks.ts';
import { repeatSeed } from './repeats.ts';
import { runSuite, scenarioSeed } from './run-suite.ts';
import { scenario } from './scenario.ts';

const topology: Topology = {
  name: 't',
  file: 't.yaml',
  segments: [],
  nodes: [],
  configFiles: [],
  services: [],
};
const quiet = { scenarioStarted() {}, step() {}, scenarioEnded() {} };

function backend(labs: FakeLab[], seeds: number[]): Backend {
  return {
    name: 'fake',
    capabilities: new Map<Capability, true | string>([
      ['l2', true],
      ['kill', true],
      ['bgp', 'no routers here'],
    ]),
    up: async (_t, o) => {
      seeds.push(o.seed);
      const lab = new FakeLab();
      labs.push(lab);
      return lab;
    },
  };
}

describe('runSuite', () => {
  it('reports pass, fail (check or gate), error and not-applicable, tearing every lab down', async () => {
    const labs: FakeLab[] = [];
    const done: string[] = [];
    const result = await runSuite({
      backend: backend(labs, []),
      topologies: async () => topology,
      defaultTopology: 't.yaml',
      seed: 1,
      runId: 'abc123',
      progress: quiet,
      scenarioDone: (s) => done.push(`${s.name}: ${s.status}`),
      scenarios: [
        scenario('passes', { needs: ['l2'] }, async (lab) => {
          lab.measure('outageMs', 10);
          lab.gate('outageMs', { below: 100 });
        }),
        scenario('gate fails', { needs: ['l2'] }, async (lab) => {
          lab.measure('outageMs', 1500);
          lab.gate('outageMs', { below: 1000 });
        }),
        scenario('check fails', {}, async (lab) => {
          await lab.eventually('never', () => false, { withinMs: 10 });
        }),
        scenario('throws', {}, async () => {
          throw new Error('backend exploded');
        }),
        scenario('needs bgp', { needs: ['l2', 'bgp', 'bfd'] }, async () => {}),
        scenario('wrong family', {}, async () => {
          throw new NotApplicableError('service web is single-stack IPv4 in this topology');
        }),
      ],
    });
    expect(result.scenarios.map((s) => [s.name, s.status, s.reason ?? ''])).toEqual([
      ['passes', 'pass', ''],
      ['gate fails', 'fail', 'gate outageMs < 1000 (was 1500) failed'],
      ['check fails', 'fail', 'never: not within 10 ms'],
      ['throws', 'error', 'backend exploded'],
      ['needs bgp', 'not-applicable', 'the fake backend lacks bgp (no routers here), bfd'],
      ['wrong family', 'not-applicable', 'service web is single-stack IPv4 in this topology'],
    ]);
    expect(done).toEqual(result.scenarios.map((s) => `${s.name}: ${s.status}`));
    expect(labs).toHaveLength(5);
    expect(labs.every((l) => l.downCalls === 1)).toBe(true);
    expect(result).toMatchObject({ schemaVersion: 1, runId: 'abc123', seed: 1, backend: 'fake' });
  });

  it('gives each scenario a seed from the run seed and its name, so a scenario run alone replays', async () => {
    const seeds: number[] = [];
    const s = (name: string) => scenario(name, {}, async () => {});
    const common = {
      topologies: async () => topology,
      defaultTopology: 't.yaml',
      seed: 42,
      runId: 'r',
      progress: quiet,
    };
    await runSuite({ ...common, backend: backend([], seeds), scenarios: [s('a'), s('b')] });
    await runSuite({ ...common, backend: backend([], seeds), scenarios: [s('b')] });
    expect(seeds[1]).toBe(seeds[2]);
    expect(seeds[0]).not.toBe(seeds[1]);
    expect(scenarioSeed(42, 'b')).toBe(seeds[1]);
  });
});

describe('runSuite with a peer', () => {
  it('runs the peer on its own lab, records its figures ungated, and skips what the peer cannot serve', async () => {
    const suts: (string | undefined)[] = [];
    const fake: Backend = {
      name: 'fake',
      capabilities: new Map<Capability, true | string>([
        ['l2', true],
        ['kill', true],
        ['bgp', true],
      ]),
      peers: new Map<string, readonly Capability[] | string>([
        ['vrrp', ['l2', 'kill']],
        ['mlb', 'its images’ registry is unreachable from here'],
      ]),
      up: async (_t, o) => {
        suts.push(o.sut);
        return new FakeLab();
      },
    };
    const crash = scenario('crash', { needs: ['l2', 'kill'] }, async (lab) => {
      lab.measure('outageMs', 1500);
      lab.gate('outageMs', { below: 1000 });
    });
    const bgp = scenario('bgp', { needs: ['bgp'] }, async () => {});
    const result = await runSuite({
      backend: fake,
      topologies: async () => topology,
      defaultTopology: 't.yaml',
      seed: 1,
      runId: 'abc123',
      progress: quiet,
      scenarios: [
        crash,
        { ...crash, sut: 'vrrp' },
        { ...bgp, sut: 'vrrp' },
        { ...crash, sut: 'other' },
        { ...crash, sut: 'mlb' },
      ],
    });
    expect(result.scenarios.map((s) => [s.sut, s.status, s.reason ?? '', s.gates.length])).toEqual([
      ['lblab', 'fail', 'gate outageMs < 1000 (was 1500) failed', 1],
      ['vrrp', 'pass', '', 0],
      ['vrrp', 'not-applicable', 'vrrp cannot serve bgp', 0],
      ['other', 'not-applicable', 'the fake backend cannot run other', 0],
      ['mlb', 'not-applicable', 'mlb cannot run here: its images’ registry is unreachable from here', 0],
    ]);
    expect(result.scenarios[1]!.measurements).toEqual({ outageMs: 1500 });
    expect(suts).toEqual(['lblab', 'vrrp']);
  });
});

describe('runSuite with --repeat', () => {
  it('runs each scenario and each peer run N times on fresh labs, seeds derived per repeat, and says so', async () => {
    const labs: FakeLab[] = [];
    const seeds: number[] = [];
    const fake = { ...backend(labs, seeds), peers: new Map([['vrrp', ['l2'] as const]]) };
    const lines: string[] = [];
    const crash = scenario('crash', { needs: ['l2'] }, async (lab) => {
      // An outage the seed decides, as a real lab's timing would vary.
      lab.measure('outageMs', Math.round(lab.random() * 1000));
      lab.gate('outageMs', { below: 2000 });
      await lab.client('c1').probe('198.18.0.192', { ratePps: 10, seconds: 1 });
    });
    const result = await runSuite({
      backend: fake,
      topologies: async () => topology,
      defaultTopology: 't.yaml',
      seed: 9,
      runId: 'r',
      progress: {
        ...quiet,
        repeatStarted: (i, n) => lines.push(`start ${i + 1}/${n}`),
        repeatEnded: (l) => lines.push(l),
      },
      scenarios: [crash, { ...crash, sut: 'vrrp' }],
      repeat: 3,
    });
    const base = scenarioSeed(9, 'crash');
    const expected = [0, 1, 2].map((i) => repeatSeed(base, i));
    expect(seeds).toEqual([...expected, ...expected]);
    expect(labs.every((l) => l.downCalls === 1)).toBe(true);
    expect(result.repeat).toBe(3);
    const [own, peer] = result.scenarios;
    expect(own!.repeats?.map((r) => r.seed)).toEqual(expected);
    expect(own!.distributions?.['outageMs']?.samples).toHaveLength(3);
    expect(own!.measurements['outageMs']).toBe(own!.distributions?.['outageMs']?.median);
    // The shown repeat's probes are kept; each repeat had its own lab and series.
    expect(own!.probes).toHaveLength(1);
    expect(own!.gates.map((g) => g.statistic)).toEqual(['max']);
    expect(peer!.repeats).toHaveLength(3);
    expect(peer!.gates).toEqual([]);
    expect(lines[0]).toBe('start 1/3');
    expect(lines[1]).toMatch(new RegExp(`^    repeat 1/3 \\(seed ${base}\\): PASS outageMs \\d+$`));
    expect(lines.filter((l) => l.startsWith('start'))).toEqual([
      'start 1/3',
      'start 2/3',
      'start 3/3',
      'start 1/3',
      'start 2/3',
      'start 3/3',
    ]);
  });

  it('runs once by default: no repeats, distributions or repeat count in the result', async () => {
    const result = await runSuite({
      backend: backend([], []),
      topologies: async () => topology,
      defaultTopology: 't.yaml',
      seed: 9,
      runId: 'r',
      progress: quiet,
      scenarios: [scenario('once', {}, async (lab) => lab.measure('outageMs', 5))],
    });
    expect(result.repeat).toBeUndefined();
    expect(Object.keys(result.scenarios[0]!).filter((k) => /repeat|distributions|probes/i.test(k))).toEqual(
      [],
    );
  });
});
