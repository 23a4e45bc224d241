/** Pools far too large to enumerate: everything must cost in proportion to what is allocated. */
import { describe, expect, it } from 'vitest';
import { Allocator } from './allocator.ts';
import { claimant, ips, pool, texts } from './test-fixtures.ts';

const v6 = (s: string) => claimant(s, { families: { want: 6, primary: 6 } });

describe('huge IPv6 pools', () => {
  it('a /64 counts 2^64 addresses and hands out its lowest ones', () => {
    const alloc = new Allocator([pool('big', ['2001:db8::/64'])]);
    const got = ['a', 'b', 'c'].map((s) => {
      const r = alloc.allocate(v6(s));
      return r.ok ? texts(r.ips)[0] : undefined;
    });
    expect(got).toEqual(['2001:db8::', '2001:db8::1', '2001:db8::2']);
    expect(alloc.stats('big')).toEqual({
      capacityIPv4: 0n,
      capacityIPv6: 1n << 64n,
      assignedIPv4: 0n,
      assignedIPv6: 3n,
      availableIPv4: 0n,
      availableIPv6: (1n << 64n) - 3n,
    });
  });

  it('a /48 takes specific addresses anywhere, and the lowest free one stays right', () => {
    const alloc = new Allocator([pool('p48', ['2001:db8:42::/48'])]);
    expect(alloc.assign(v6('far'), ips('2001:db8:42:ffff:ffff:ffff:ffff:ffff')).ok).toBe(true);
    expect(alloc.assign(v6('mid'), ips('2001:db8:42:8000::')).ok).toBe(true);
    expect(alloc.assign(v6('low'), ips('2001:db8:42::')).ok).toBe(true);
    const r = alloc.allocate(v6('next'));
    expect(r.ok && texts(r.ips)).toEqual(['2001:db8:42::1']);
    alloc.release('low');
    const again = alloc.allocate(v6('again'));
    expect(again.ok && texts(again.ips)).toEqual(['2001:db8:42::']);
    expect(alloc.stats('p48')?.availableIPv6).toBe((1n << 80n) - 4n);
  });

  it('the whole IPv6 space is one pool like any other', () => {
    const alloc = new Allocator([pool('all', ['::/0'])]);
    expect(alloc.stats('all')?.capacityIPv6).toBe(1n << 128n);
    expect(alloc.assign(v6('top'), ips('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).ok).toBe(true);
    const r = alloc.allocate(v6('first'));
    expect(r.ok && texts(r.ips)).toEqual(['::']);
  });

  it('allocating 20,000 services from a /64 and releasing them leaves it whole again', () => {
    const alloc = new Allocator([pool('big', ['2001:db8::/64'])]);
    for (let i = 0; i < 20_000; i++) expect(alloc.allocate(v6(`s${i}`)).ok).toBe(true);
    expect(alloc.assignment('s19999')?.ips.map(String)).toEqual(['2001:db8::4e1f']);
    for (let i = 0; i < 20_000; i += 2) alloc.release(`s${i}`);
    for (let i = 1; i < 20_000; i += 2) alloc.release(`s${i}`);
    expect(alloc.stats('big')?.availableIPv6).toBe(1n << 64n);
    const r = alloc.allocate(v6('after'));
    expect(r.ok && texts(r.ips)).toEqual(['2001:db8::']);
  });
});

describe('huge IPv4 pools with avoidBuggyIPs', () => {
  it('a /8 counts 254 usable addresses per /24 without enumerating them', () => {
    const alloc = new Allocator([pool('ten', ['10.0.0.0/8'], { avoidBuggyIPs: true })]);
    expect(alloc.stats('ten')?.capacityIPv4).toBe(65536n * 254n);
    expect(alloc.assign(claimant('a'), ips('10.0.0.1')).ok).toBe(true);
    expect(alloc.assign(claimant('b'), ips('10.255.255.254')).ok).toBe(true);
    expect(alloc.stats('ten')?.availableIPv4).toBe(65536n * 254n - 2n);
  });
});
