import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureTime, isoTime, timeNs } from './timestamp.ts';

describe('capture timestamps', () => {
  it('converts decimal resolutions to nanoseconds without rounding', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.integer({ min: 0, max: 9 }),
        (units, exponent) => {
          expect(timeNs(captureTime(units, { base: 10, exponent }))).toBe(
            units * 10n ** BigInt(9 - exponent),
          );
        },
      ),
    );
  });

  it('writes binary resolutions as the exact decimal and truncates only below a nanosecond', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 63n }),
        fc.integer({ min: 1, max: 40 }),
        (units, exponent) => {
          const t = captureTime(units, { base: 2, exponent });
          expect(timeNs(t)).toBe((units * 1_000_000_000n) / 2n ** BigInt(exponent));
          // seconds + fraction / 10^digits is exactly units / 2^exponent.
          expect((t.seconds * 10n ** BigInt(t.digits) + t.fraction) * 2n ** BigInt(exponent)).toBe(
            units * 10n ** BigInt(t.digits),
          );
        },
      ),
    );
  });

  it('prints ISO 8601 with the resolution’s digits and adds if_tsoffset seconds', () => {
    expect(isoTime(captureTime(1_795_234_353_123_456n, { base: 10, exponent: 6 }))).toBe(
      '2026-11-21T04:12:33.123456Z',
    );
    expect(isoTime(captureTime(5n, { base: 10, exponent: 9 }, 1_795_234_353n))).toBe(
      '2026-11-21T04:12:33.000000005Z',
    );
    expect(isoTime(captureTime(1_795_234_353n, { base: 10, exponent: 0 }))).toBe('2026-11-21T04:12:33Z');
    expect(isoTime(captureTime(1n, { base: 2, exponent: 1 }))).toBe('1970-01-01T00:00:00.5Z');
    // Beyond any calendar date (if_tsresol 0 with a 64-bit count): epoch seconds, still exact.
    expect(isoTime(captureTime(2n ** 64n - 1n, { base: 10, exponent: 0 }))).toBe('18446744073709551615');
    expect(isoTime(captureTime(8_639_999_999_999n, { base: 10, exponent: 0 }))).toBe(
      '+275760-09-12T23:59:59Z',
    );
  });
});
