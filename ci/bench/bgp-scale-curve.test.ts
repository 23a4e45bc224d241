import { describe, expect, it } from 'vitest';
import { bgpGrowth, bgpScaleTable, type BgpScalePoint } from './bgp-scale-curve.ts';

const point = (scenario: BgpScalePoint['scenario'], nodes: number, wallMs: number): BgpScalePoint => ({
  scenario,
  nodes,
  services: nodes * 5,
  nodesPerRack: 20,
  status: 'pass',
  wallMs,
  virtualMs: 5500,
  events: nodes * 1000,
  peakRssMb: nodes,
  outageMs: scenario === 'node crash' ? 370 : 1,
  lostProbes: scenario === 'node crash' ? 369 : 0,
  rackNodes: 20,
  ...(scenario === 'leaf failure' && { bfdDown: 20 }),
});

describe('bgpScaleTable', () => {
  it('adds the probes lost, the rack BFD sessions seen down and the story to the Layer-2 columns', () => {
    const lines = bgpScaleTable([point('node crash', 100, 4000), point('leaf failure', 100, 3000)]).split(
      '\n',
    );
    expect(lines[0]!.split(/\s{2,}/)).toEqual([
      'nodes',
      'services',
      'status',
      'wall s',
      'sim s',
      'events',
      'µs/event',
      'peak MB',
      'outage ms',
      'lost',
      'BFD down',
      'scenario',
    ]);
    expect(lines[2]!.trim().split(/\s{2,}/)).toEqual([
      '100',
      '500',
      'pass',
      '4.0',
      '5.5',
      '100,000',
      '40.0',
      '100',
      '370',
      '369',
      'node crash',
    ]);
    expect(lines[3]!.trim().split(/\s{2,}/)).toEqual([
      '100',
      '500',
      'pass',
      '3.0',
      '5.5',
      '100,000',
      '30.0',
      '100',
      '1',
      '0',
      '20/20',
      'leaf failure',
    ]);
  });
});

describe('bgpGrowth', () => {
  it('fits each story on its own sizes', () => {
    const k = bgpGrowth([
      point('node crash', 100, 1000),
      point('leaf failure', 100, 1000),
      point('node crash', 500, 5000),
      point('leaf failure', 500, 25_000),
    ]);
    expect(k['node crash']).toBeCloseTo(1, 6);
    expect(k['leaf failure']).toBeCloseTo(2, 6);
  });
});
