import { describe, expect, it } from 'vitest';
import { impairs, netemArgs } from './impairment.ts';

describe('netemArgs', () => {
  it('spells delay with jitter, loss and rate as tc netem takes them', () => {
    expect(netemArgs({ delayMs: 20, jitterMs: 5, lossPct: 1.5, rateMbps: 100 })).toEqual([
      'delay',
      '20ms',
      '5ms',
      'loss',
      '1.5%',
      'rate',
      '100mbit',
    ]);
    expect(netemArgs({ delayMs: 0, jitterMs: 0, lossPct: 10 })).toEqual(['loss', '10%']);
  });

  it('counts the model default (all zero, no rate) as no impairment', () => {
    expect(impairs({ delayMs: 0, jitterMs: 0, lossPct: 0 })).toBe(false);
    expect(impairs({ delayMs: 0, jitterMs: 0, lossPct: 0, rateMbps: 10 })).toBe(true);
  });
});
