import { describe, expect, it } from 'vitest';
import { growthExponent, scaleTable, targetVerdict, type ScalePoint } from './scale-curve.ts';

const point = (nodes: number, wallMs: number): ScalePoint => ({
  nodes,
  services: nodes * 5,
  status: 'pass',
  wallMs,
  virtualMs: 4500,
  events: nodes * 1000,
  peakRssMb: nodes,
  outageMs: 200,
});

describe('growthExponent', () => {
  it('is 1 for wall time in proportion to nodes and 2 for its square, whatever the constant', () => {
    expect(growthExponent([point(100, 700), point(500, 3500), point(2000, 14_000)])).toBeCloseTo(1, 6);
    expect(growthExponent([point(100, 3), point(1000, 300)])).toBeCloseTo(2, 6);
  });

  it('has nothing to say about a single size', () => {
    expect(growthExponent([point(100, 700), point(100, 800)])).toBeUndefined();
  });
});

describe('scaleTable', () => {
  it('prints one row per size with wall seconds, events, µs per event, memory and the outage', () => {
    const lines = scaleTable([point(100, 1500), { ...point(2000, 9000), outageMs: undefined }]).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]!.split(/\s+/).filter(Boolean)).toEqual([
      '100',
      '500',
      'pass',
      '1.5',
      '4.5',
      '100,000',
      '15.0',
      '100',
      '200',
    ]);
    expect(lines[3]!.trim().split(/\s+/)).toEqual([
      '2000',
      '10000',
      'pass',
      '9.0',
      '4.5',
      '2,000,000',
      '4.5',
      '2000',
    ]);
  });
});

describe('targetVerdict', () => {
  it('judges the 2000-node point by wall time, memory and status, and says what it measured', () => {
    const fast = { ...point(2000, 9500), peakRssMb: 900 };
    expect(targetVerdict([point(100, 700), fast])).toEqual({
      met: true,
      line: 'target at 2000 nodes x 10000 services: under 10 s wall and 1024 MB: met (9.5 s, 900 MB)',
    });
    expect(targetVerdict([{ ...fast, wallMs: 103_400 }])?.met).toBe(false);
    expect(targetVerdict([{ ...fast, peakRssMb: 2357 }])?.line).toMatch(/NOT met \(9\.5 s, 2357 MB\)$/);
    expect(targetVerdict([{ ...fast, status: 'fail' }])?.met).toBe(false);
  });

  it('has no verdict for a curve without that point', () => {
    expect(targetVerdict([point(100, 700), { ...point(2000, 9000), services: 4000 }])).toBeUndefined();
  });
});
