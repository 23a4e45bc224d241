import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IpAddress } from './address.ts';
import { AddressParseError } from './errors.ts';

describe('IpAddress.parse', () => {
  it.each([
    ['198.18.0.1', 4, 0xc6120001n],
    ['0.0.0.0', 4, 0n],
    ['255.255.255.255', 4, 0xffffffffn],
    ['2001:db8::1', 6, 0x20010db8000000000000000000000001n],
    ['::', 6, 0n],
    ['::ffff:198.18.0.1', 6, 0xffffc6120001n],
    ['2001:DB8:0:0:0:0:0:1', 6, 0x20010db8000000000000000000000001n],
  ])('reads %s', (text, family, value) => {
    const a = IpAddress.parse(text);
    expect(a.family).toBe(family);
    expect(a.value).toBe(value);
  });

  it.each([
    ['198.18.0', 'has 4 dotted parts, found 3'],
    ['198.18.0.256', 'part 4 (256) is above 255'],
    ['198.18.00.1', 'part 3 has a leading zero'],
    ['198.18.x.1', 'part 3 ("x") is not a number'],
    ['2001:db8::1::2', '"::" may appear only once'],
    ['2001:db8:1:2:3:4:5', 'has 8 groups, found 7'],
    ['2001:db8:1:2:3:4:5:6:7', 'has 8 groups, found 9'],
    ['2001:db8::12345', 'group "12345" is not 1 to 4 hex digits'],
    ['fe80::1%eth0', 'zone indexes are not allowed'],
    ['1:2:3:4:5:6:7::8', '"::" must stand for at least one group'],
    ['', 'has 4 dotted parts'],
  ])('refuses %j precisely', (text, reason) => {
    expect(() => IpAddress.parse(text)).toThrowError(AddressParseError);
    expect(() => IpAddress.parse(text)).toThrowError(reason);
  });

  it('formats IPv6 per RFC 5952: longest zero run shortened, first of equal runs, single zero kept', () => {
    expect(IpAddress.parse('2001:0db8:0000:0000:0001:0000:0000:0001').toString()).toBe('2001:db8::1:0:0:1');
    expect(IpAddress.parse('2001:db8:0:1:1:1:1:1').toString()).toBe('2001:db8:0:1:1:1:1:1');
    expect(IpAddress.parse('::').toString()).toBe('::');
    expect(IpAddress.parse('::1').toString()).toBe('::1');
    expect(IpAddress.parse('2001:db8::').toString()).toBe('2001:db8::');
  });

  it('round-trips any address through text and bytes', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), (v4, raw) => {
        const a = v4 ? IpAddress.of(4, raw & 0xffffffffn) : IpAddress.of(6, raw);
        expect(IpAddress.parse(a.toString()).equals(a)).toBe(true);
        expect(IpAddress.fromBytes(a.toBytes()).equals(a)).toBe(true);
      }),
    );
  });

  it('refuses arithmetic that leaves the address space', () => {
    expect(() => IpAddress.parse('255.255.255.255').add(1n)).toThrowError(RangeError);
    expect(IpAddress.parse('198.18.0.255').add(1n).toString()).toBe('198.18.1.0');
  });
});
