// Go's time.ParseDuration, case by case from Go's own parseDurationTests (time/time_test.go).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nsToMs, parseGoDuration } from './durations.ts';

const s = 1_000_000_000n;

describe('parseGoDuration', () => {
  it.each([
    ['0', 0n],
    ['5s', 5n * s],
    ['30s', 30n * s],
    ['1478s', 1478n * s],
    ['-5s', -5n * s],
    ['+5s', 5n * s],
    ['-0', 0n],
    ['+0', 0n],
    ['5.0s', 5n * s],
    ['5.6s', 5n * s + 600_000_000n],
    ['5.s', 5n * s],
    ['.5s', 500_000_000n],
    ['1.0s', s],
    ['1.00s', s],
    ['1.004s', s + 4_000_000n],
    ['100.00100s', 100n * s + 1_000_000n],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n],
    ['12μs', 12_000n],
    ['13ms', 13_000_000n],
    ['14s', 14n * s],
    ['15m', 15n * 60n * s],
    ['16h', 16n * 3600n * s],
    ['3h30m', (3n * 3600n + 30n * 60n) * s],
    ['10.5s4m', 4n * 60n * s + 10n * s + 500_000_000n],
    ['1h1m1s1ms1us1ns', 3661n * s + 1_001_001n],
    ['9m0s', 540n * s],
    ['0.3333333333333333333h', 20n * 60n * s],
    ['0.100000000000000000000h', 6n * 60n * s],
    ['9007199254.740993ms', 9007199254740993n],
  ])('%s', (text, ns) => {
    expect(parseGoDuration(text)).toEqual({ ok: true, ns });
  });

  it.each(['', '3', '-', 's', '.', '-.', '.s', '+.s', '1d', '3000000h', '1 s', '1S'])(
    '%j is refused',
    (text) => {
      expect(parseGoDuration(text).ok).toBe(false);
    },
  );

  it('whole seconds round-trip through any unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => {
        const ms = parseGoDuration(`${n}ms`);
        const us = parseGoDuration(`${n * 1000}us`);
        return ms.ok && us.ok && ms.ns === us.ns && nsToMs(ms.ns) === n;
      }),
    );
  });

  it('nsToMs keeps sub-millisecond fractions', () => {
    expect(nsToMs(1_500_000n)).toBe(1.5);
  });
});
