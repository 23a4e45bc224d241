import { describe, expect, it } from 'vitest';
import { mostStolenMs, readSteal, stealByCpu } from './cpu-steal.ts';

const stat = (steal0: number, steal1: number) =>
  [
    `cpu  1638951 30885 349689 2313884 32637 0 20145 ${steal0 + steal1} 0 0`,
    `cpu0 843795 15164 165480 1153179 6940 0 9212 ${steal0} 0 0`,
    `cpu1 795156 15721 184208 1160705 25697 0 10933 ${steal1} 0 0`,
    'intr 123 0 9',
    'ctxt 456',
  ].join('\n');

describe('stolen CPU time', () => {
  it("reads each CPU's steal from /proc/stat in ms, not the all-CPU line", () => {
    expect(stealByCpu(stat(1084, 1119))).toEqual([10_840, 11_190]);
  });

  it('takes the CPU that lost the most between two readings', () => {
    expect(mostStolenMs(stealByCpu(stat(1084, 1119)), stealByCpu(stat(1085, 1130)))).toBe(110);
    expect(mostStolenMs(stealByCpu(stat(5, 5)), stealByCpu(stat(5, 5)))).toBe(0);
  });

  it('reads this machine, every CPU, never going back', () => {
    const before = readSteal();
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
    expect(mostStolenMs(before, readSteal())).toBeGreaterThanOrEqual(0);
  });
});
