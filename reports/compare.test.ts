import { describe, expect, it } from 'vitest';
import { peerComparisons, ratio } from './compare.ts';
import { sampleRun } from './sample-result.test-support.ts';

describe('ratio', () => {
  it('formats a / b to two decimals with ×', () => {
    expect(ratio(412, 3040)).toBe('0.14×');
    expect(ratio(3, 3)).toBe('1.00×');
    expect(ratio(1234, 1000)).toBe('1.23×');
  });

  it('has no ratio against 0', () => {
    expect(ratio(5, 0)).toBeUndefined();
    expect(ratio(0, 0)).toBeUndefined();
  });
});

describe('peerComparisons', () => {
  it('pairs lblab with each peer that ran the same scenario, per key figure both have', () => {
    expect(peerComparisons(sampleRun())).toEqual([
      {
        scenario: 'l2: node crash',
        measurement: 'outageMs',
        value: 1520,
        peer: 'keepalived',
        peerValue: 3040,
        ratio: '0.50×',
      },
      {
        scenario: 'l2: node crash',
        measurement: 'lostProbes',
        value: 1520,
        peer: 'keepalived',
        peerValue: 3040,
        ratio: '0.50×',
      },
    ]);
  });
});
