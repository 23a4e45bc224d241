import { describe, expect, it } from 'vitest';
import type { Topology } from '../model/topology.ts';
import type { Backend, Capability } from './backend.ts';
import { FakeLab } from './fake-lab.test-support.ts';
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
    const result = await runSuite({
      backend: backend(labs, []),
      topologies: async () => topology,
      defaultTopology: 't.yaml',
      seed: 1,
      runId: 'abc123',
      progress: quiet,
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
      ],
    });
    expect(result.scenarios.map((s) => [s.name, s.status, s.reason ?? ''])).toEqual([
      ['passes', 'pass', ''],
      ['gate fails', 'fail', 'gate outageMs < 1000 (was 1500) failed'],
      ['check fails', 'fail', 'never: not within 10 ms'],
      ['throws', 'error', 'backend exploded'],
      ['needs bgp', 'not-applicable', 'the fake backend lacks bgp (no routers here), bfd'],
    ]);
    expect(labs).toHaveLength(4);
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
      peers: new Map([['vrrp', ['l2', 'kill'] as const]]),
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
      scenarios: [crash, { ...crash, sut: 'vrrp' }, { ...bgp, sut: 'vrrp' }, { ...crash, sut: 'other' }],
    });
    expect(result.scenarios.map((s) => [s.sut, s.status, s.reason ?? '', s.gates.length])).toEqual([
      ['lblab', 'fail', 'gate outageMs < 1000 (was 1500) failed', 1],
      ['vrrp', 'pass', '', 0],
      ['vrrp', 'not-applicable', 'vrrp cannot serve bgp', 0],
      ['other', 'not-applicable', 'the fake backend cannot run other', 0],
    ]);
    expect(result.scenarios[1]!.measurements).toEqual({ outageMs: 1500 });
    expect(suts).toEqual(['lblab', 'vrrp']);
  });
});
