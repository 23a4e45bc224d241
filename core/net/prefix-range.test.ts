import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IpAddress } from './address.ts';
import { Prefix } from './prefix.ts';
import { AddressRange } from './range.ts';

describe('Prefix', () => {
  it('masks host bits like Go net.ParseCIDR unless strict', () => {
    expect(Prefix.parse('198.18.3.7/16').toString()).toBe('198.18.0.0/16');
    expect(() => Prefix.parse('198.18.3.7/16', { strict: true })).toThrowError(
      'host bits are set (the network is 198.18.0.0/16)',
    );
  });

  it('knows its size, ends and members for both families and any length', () => {
    const p = Prefix.parse('2001:db8::/32');
    expect(p.size).toBe(1n << 96n);
    expect(p.last.toString()).toBe('2001:db8:ffff:ffff:ffff:ffff:ffff:ffff');
    expect(p.contains(IpAddress.parse('2001:db8:1::1'))).toBe(true);
    expect(p.contains(IpAddress.parse('2001:db9::'))).toBe(false);
    expect(p.contains(IpAddress.parse('198.18.0.1'))).toBe(false);
    expect(Prefix.parse('0.0.0.0/0').size).toBe(1n << 32n);
    expect(Prefix.parse('198.18.0.1/32').toRange().size).toBe(1n);
  });

  it.each([
    ['198.18.0.0', 'a prefix needs "/length"'],
    ['198.18.0.0/33', 'prefix length 33 is above 32 for IPv4'],
    ['2001:db8::/129', 'prefix length 129 is above 128 for IPv6'],
    ['198.18.0.0/x', 'prefix length "x" is not a number'],
    ['198.18.0.0/', 'prefix length "" is not a number'],
  ])('refuses %j', (text, reason) => {
    expect(() => Prefix.parse(text)).toThrowError(reason);
  });
});

describe('AddressRange', () => {
  it('reads CIDRs and ranges as IPAddressPool addresses are written', () => {
    expect(AddressRange.parse('198.18.0.0/30').toString()).toBe('198.18.0.0-198.18.0.3');
    expect(AddressRange.parse('198.18.0.10 - 198.18.0.20').size).toBe(11n);
    expect(AddressRange.parse('2001:db8::1-2001:db8::ff').size).toBe(255n);
  });

  it.each([
    ['198.18.0.20-198.18.0.10', 'start 198.18.0.20 is after end 198.18.0.10'],
    ['198.18.0.1-2001:db8::1', 'the two ends are of different families'],
    ['198.18.0.1', 'expected a CIDR ("a/n") or a range ("first-last")'],
    ['198.18.0.1-198.18.0.2-198.18.0.3', 'expected a CIDR'],
  ])('refuses %j', (text, reason) => {
    expect(() => AddressRange.parse(text)).toThrowError(reason);
  });

  it('detects overlap and containment, never across families', () => {
    const a = AddressRange.parse('198.18.0.0/24');
    expect(a.overlaps(AddressRange.parse('198.18.0.255-198.18.1.5'))).toBe(true);
    expect(a.overlaps(AddressRange.parse('198.18.1.0/24'))).toBe(false);
    expect(a.containsRange(AddressRange.parse('198.18.0.10-198.18.0.20'))).toBe(true);
    expect(a.containsRange(AddressRange.parse('198.18.0.10-198.18.1.20'))).toBe(false);
    expect(AddressRange.parse('::/0').overlaps(a)).toBe(false);
  });

  it('summarises a range into the fewest exact CIDRs', () => {
    expect(AddressRange.parse('198.18.0.1-198.18.0.10').toPrefixes().map(String)).toEqual([
      '198.18.0.1/32',
      '198.18.0.2/31',
      '198.18.0.4/30',
      '198.18.0.8/31',
      '198.18.0.10/32',
    ]);
    expect(AddressRange.parse('0.0.0.0-255.255.255.255').toPrefixes().map(String)).toEqual(['0.0.0.0/0']);
    expect(AddressRange.parse('2001:db8::/64').toPrefixes().map(String)).toEqual(['2001:db8::/64']);
  });

  it('summary covers exactly the range with aligned, disjoint, ordered prefixes (any range, both families)', () => {
    const arb = fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
        fc.bigInt({ min: 0n, max: 1n << 70n }),
      )
      .map(([v4, start, span]) => {
        const max = v4 ? (1n << 32n) - 1n : (1n << 128n) - 1n;
        const first = v4 ? start & max : start;
        const last = first + span > max ? max : first + span;
        return AddressRange.of(IpAddress.of(v4 ? 4 : 6, first), IpAddress.of(v4 ? 4 : 6, last));
      });
    fc.assert(
      fc.property(arb, (r) => {
        const ps = r.toPrefixes();
        expect(ps[0]!.first.equals(r.first)).toBe(true);
        expect(ps.at(-1)!.last.equals(r.last)).toBe(true);
        for (let i = 1; i < ps.length; i++) expect(ps[i]!.first.value).toBe(ps[i - 1]!.last.value + 1n);
        // Fewest: no two neighbours could merge into one aligned block.
        for (let i = 1; i < ps.length; i++) {
          const [a, b] = [ps[i - 1]!, ps[i]!];
          const mergeable =
            a.length === b.length &&
            a.length > 0 &&
            Prefix.of(a.first, a.length - 1).equals(Prefix.of(b.first, b.length - 1));
          expect(mergeable).toBe(false);
        }
      }),
    );
  });
});
