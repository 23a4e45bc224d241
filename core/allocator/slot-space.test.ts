import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpAddress } from '../net/index.ts';
import { everyAddress, isBuggyIPv4, withoutBuggyIPv4 } from './slot-space.ts';

const v4 = (text: string): bigint => IpAddress.parse(text).value;

describe('isBuggyIPv4 (MetalLB ipConfusesBuggyFirmwares)', () => {
  it('is true exactly for a last octet of 0 or 255', () => {
    expect(['1.2.3.0', '1.2.3.255', '10.0.0.0'].map((t) => isBuggyIPv4(v4(t)))).toEqual([true, true, true]);
    expect(['1.2.3.1', '1.2.3.254', '1.2.0.1', '1.2.255.1'].map((t) => isBuggyIPv4(v4(t)))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('withoutBuggyIPv4 slots', () => {
  it('numbers the usable addresses of consecutive /24s without gaps', () => {
    expect(withoutBuggyIPv4.toSlot(v4('0.0.0.1'))).toBe(0n);
    expect(withoutBuggyIPv4.toSlot(v4('0.0.0.254'))).toBe(253n);
    expect(withoutBuggyIPv4.toSlot(v4('0.0.1.1'))).toBe(254n);
    expect(withoutBuggyIPv4.toSlot(v4('1.2.3.0'))).toBeUndefined();
    expect(withoutBuggyIPv4.toSlot(v4('1.2.3.255'))).toBeUndefined();
  });

  it('is a monotonic bijection between usable addresses and slots', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 0xffff_ffffn }), (value) => {
        const slot = withoutBuggyIPv4.toSlot(value);
        if (isBuggyIPv4(value)) {
          expect(slot).toBeUndefined();
        } else {
          expect(withoutBuggyIPv4.fromSlot(slot!)).toBe(value);
          if (!isBuggyIPv4(value - 1n)) expect(withoutBuggyIPv4.toSlot(value - 1n)).toBe(slot! - 1n);
        }
      }),
    );
  });

  it('spans exactly the usable addresses of a range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2000n }), fc.bigInt({ min: 0n, max: 1200n }), (first, length) => {
        const last = first + length;
        let usable = 0n;
        let lowest: bigint | undefined;
        for (let v = first; v <= last; v++) {
          if (isBuggyIPv4(v)) continue;
          usable++;
          lowest ??= v;
        }
        const span = withoutBuggyIPv4.span(first, last);
        if (usable === 0n) {
          expect(span).toBeUndefined();
        } else {
          expect(span![1] - span![0] + 1n).toBe(usable);
          expect(withoutBuggyIPv4.fromSlot(span![0])).toBe(lowest);
        }
      }),
    );
  });

  it('counts a /8 as 65536 × 254 addresses in one span', () => {
    const span = withoutBuggyIPv4.span(v4('10.0.0.0'), v4('10.255.255.255'))!;
    expect(span[1] - span[0] + 1n).toBe(65536n * 254n);
  });
});

describe('everyAddress slots', () => {
  it('are the addresses themselves', () => {
    expect(everyAddress.span(5n, 9n)).toEqual([5n, 9n]);
    expect(everyAddress.toSlot(v4('1.2.3.0'))).toBe(v4('1.2.3.0'));
  });
});
