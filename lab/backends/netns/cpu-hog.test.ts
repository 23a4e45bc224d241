import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuHogArgv } from './cpu-hog.ts';

describe('cpu hog command', () => {
  it('spins Node until its own deadline, pinned with taskset when a CPU is given', () => {
    const argv = cpuHogArgv({ seconds: 0.2 }, 'node');
    expect(argv.slice(0, 2)).toEqual(['node', '-e']);
    expect(cpuHogArgv({ seconds: 0.2, cpu: 1 }, 'node').slice(0, 4)).toEqual(['taskset', '-c', '1', 'node']);
    // The spinner bounds itself: run without any wrapper, it ends at its deadline.
    const t0 = Date.now();
    execFileSync(process.execPath, cpuHogArgv({ seconds: 0.2 }).slice(1), { timeout: 5000 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
  });

  it.each([[0], [-1], [601], [Number.NaN], [Infinity]])(
    'refuses %s s: every hog has a bounded life',
    (seconds) => {
      expect(() => cpuHogArgv({ seconds })).toThrow(/at most 600/);
    },
  );

  it('refuses a CPU that is not a CPU number', () => {
    expect(() => cpuHogArgv({ seconds: 1, cpu: -1 })).toThrow(/CPU number/);
    expect(() => cpuHogArgv({ seconds: 1, cpu: 0.5 })).toThrow(/CPU number/);
  });
});
