import { describe, expect, it } from 'vitest';
import { Allocator } from './allocator.ts';
import { AllocatorConfigError } from './errors.ts';
import { claimant, ip, ips, pool, ports, texts } from './test-fixtures.ts';
import type { AllocatorEvent } from './types.ts';

const code = (r: { ok: boolean; reason?: { code: string } }): string | undefined =>
  r.ok ? undefined : r.reason?.code;

describe('pool choice (pinnedPoolsForService, sortPools, Allocate)', () => {
  const tenant = { matchLabels: { tenant: 'a' } };

  it('tries pinned pools by priority, lower first, pools with a priority before those without, then by name', () => {
    const alloc = new Allocator([
      pool('z-none', ['198.18.0.0/32'], { serviceAllocation: {} }),
      pool('a-none', ['198.18.1.0/32'], { serviceAllocation: {} }),
      pool('p20', ['198.18.2.0/32'], { serviceAllocation: { priority: 20 } }),
      pool('p10', ['198.18.3.0/32'], { serviceAllocation: { priority: 10 } }),
      pool('p10-b', ['198.18.4.0/32'], { serviceAllocation: { priority: 10 } }),
      pool('zero-is-unset', ['198.18.5.0/32'], { serviceAllocation: { priority: 0 } }),
    ]);
    const order = ['s1', 's2', 's3', 's4', 's5', 's6'].map((s) => {
      const r = alloc.allocate(claimant(s));
      return r.ok ? r.pool : code(r);
    });
    expect(order).toEqual(['p10', 'p10-b', 'p20', 'a-none', 'z-none', 'zero-is-unset']);
  });

  it('falls back to open auto-assign pools, by name, only when no pinned pool has room', () => {
    const alloc = new Allocator([
      pool('open-b', ['198.18.0.0/32']),
      pool('open-a', ['198.18.1.0/32']),
      pool('pinned', ['198.18.2.0/32'], { serviceAllocation: { namespaces: ['shop'] } }),
    ]);
    const inShop = (s: string) => claimant(s, { namespace: 'shop' });
    expect(texts(alloc.assignment('x')?.ips)).toEqual([]);
    const pick = (s: string, c = inShop(s)) => {
      const r = alloc.allocate(c);
      return r.ok ? r.pool : code(r);
    };
    expect([pick('s1'), pick('s2'), pick('s3'), pick('s4')]).toEqual([
      'pinned',
      'open-a',
      'open-b',
      'NO_FREE_ADDRESS',
    ]);
  });

  it('never auto-assigns from a pool restricted to other services, nor from an autoAssign: false pool', () => {
    const alloc = new Allocator([
      pool('others', ['198.18.0.0/31'], { serviceAllocation: { serviceSelectors: [tenant] } }),
      pool('manual', ['198.18.1.0/31'], { autoAssign: false }),
    ]);
    expect(code(alloc.allocate(claimant('s1')))).toBe('NO_FREE_ADDRESS');
    // ...but both may be asked for: the manual pool by name or address, the restricted one by a selected service.
    expect(alloc.allocateFromPool(claimant('s1'), 'manual').ok).toBe(true);
    expect(alloc.assign(claimant('s2'), ips('198.18.1.1')).ok).toBe(true);
    const selected = claimant('s3', { serviceLabels: { tenant: 'a' } });
    expect(texts(alloc.allocate(selected).ok ? alloc.assignment('s3')?.ips : [])).toEqual(['198.18.0.0']);
    expect(code(alloc.allocateFromPool(claimant('s4'), 'others'))).toBe('POOL_NOT_ALLOWED');
    expect(code(alloc.assign(claimant('s4'), ips('198.18.0.1')))).toBe('POOL_NOT_ALLOWED');
  });

  it('matches namespaceSelectors against the namespace labels', () => {
    const alloc = new Allocator([
      pool('prod', ['198.18.0.0/31'], {
        serviceAllocation: { namespaceSelectors: [{ matchLabels: { env: 'prod' } }] },
      }),
      pool('rest', ['198.18.1.0/31']),
    ]);
    const prod = alloc.allocate(claimant('shop/a', { namespace: 'shop', namespaceLabels: { env: 'prod' } }));
    const dev = alloc.allocate(claimant('lab/b', { namespace: 'lab', namespaceLabels: { env: 'dev' } }));
    expect([prod.ok && prod.pool, dev.ok && dev.pool]).toEqual(['prod', 'rest']);
  });

  it('restricts a pool whose namespaceSelectors match no namespace (MetalLB would leave it open)', () => {
    const alloc = new Allocator([
      pool('nobody', ['198.18.0.0/31'], {
        serviceAllocation: { namespaceSelectors: [{ matchLabels: { env: 'x' } }] },
      }),
    ]);
    expect(code(alloc.assign(claimant('s1'), ips('198.18.0.0')))).toBe('POOL_NOT_ALLOWED');
  });
});

describe('address choice', () => {
  it('searches a pool range by range in the order the pool lists them (MetalLB walks its CIDRs in order)', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.10/31', '198.18.0.0/31'])]);
    const got = ['a', 'b', 'c', 'd', 'e'].map((s) => {
      const r = alloc.allocate(claimant(s));
      return r.ok ? texts(r.ips)[0] : code(r);
    });
    expect(got).toEqual(['198.18.0.10', '198.18.0.11', '198.18.0.0', '198.18.0.1', 'NO_FREE_ADDRESS']);
  });

  it('skips .0 and .255 in an avoidBuggyIPs pool, across /24 boundaries', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.254-198.18.1.1'], { avoidBuggyIPs: true })]);
    const got = ['a', 'b', 'c'].map((s) => {
      const r = alloc.allocate(claimant(s));
      return r.ok ? texts(r.ips)[0] : code(r);
    });
    expect(got).toEqual(['198.18.0.254', '198.18.1.1', 'NO_FREE_ADDRESS']);
    expect(code(alloc.assign(claimant('d'), ips('198.18.0.255')))).toBe('NOT_IN_POOL');
  });

  it('gives the lowest address back after a release', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/29'])]);
    for (const s of ['a', 'b', 'c']) alloc.allocate(claimant(s));
    alloc.release('a');
    const r = alloc.allocate(claimant('d'));
    expect(r.ok && texts(r.ips)).toEqual(['198.18.0.0']);
  });

  it('joins a shareable address below the lowest free one, skipping those with a port clash', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/29'])]);
    const web = (s: string, port: string) => claimant(s, { sharingKey: 'k', ports: ports(port) });
    expect(alloc.assign(web('a', 'tcp/80'), ips('198.18.0.1')).ok).toBe(true);
    expect(alloc.assign(web('b', 'tcp/80'), ips('198.18.0.3')).ok).toBe(true);
    expect(alloc.assign(claimant('c'), ips('198.18.0.0')).ok).toBe(true);
    // Free: .2, .4-.7. Shareable with key k: .1 and .3.
    const r1 = alloc.allocate(web('d', 'tcp/443'));
    expect(r1.ok && texts(r1.ips)).toEqual(['198.18.0.1']);
    const r2 = alloc.allocate(web('e', 'tcp/443'));
    expect(r2.ok && texts(r2.ips)).toEqual(['198.18.0.2']); // .1 has 443 now; .2 is free and below .3
    const r3 = alloc.allocate(claimant('f', { sharingKey: 'other', ports: ports('tcp/443') }));
    expect(r3.ok && texts(r3.ips)).toEqual(['198.18.0.4']);
    expect(alloc.stats('p')?.assignedIPv4).toBe(5n);
  });

  it('says why an address is refused', () => {
    const alloc = new Allocator([
      pool('p', ['198.18.0.0/31', '2001:db8::/127']),
      pool('q', ['2001:db8:1::/127']),
    ]);
    expect(
      alloc.assign(claimant('a', { sharingKey: 'k', ports: ports('tcp/80') }), ips('198.18.0.0')).ok,
    ).toBe(true);
    expect(code(alloc.assign(claimant('b'), ips('198.18.0.0')))).toBe('IP_IN_USE');
    expect(
      code(alloc.assign(claimant('b', { sharingKey: 'k', ports: ports('tcp/80') }), ips('198.18.0.0'))),
    ).toBe('PORT_IN_USE');
    expect(code(alloc.assign(claimant('b'), ips('203.0.113.1')))).toBe('NOT_IN_POOL');
    expect(code(alloc.assign(claimant('b'), ips('198.18.0.1', '2001:db8:1::')))).toBe(
      'IPS_IN_DIFFERENT_POOLS',
    );
    expect(code(alloc.assign(claimant('b'), ips('198.18.0.1', '198.18.0.0')))).toBe('INVALID_IP_SET');
    expect(code(alloc.allocateFromPool(claimant('b'), 'nope'))).toBe('POOL_NOT_FOUND');
  });
});

describe('dual stack', () => {
  it('takes both families from one pool, IPv4 first', () => {
    const alloc = new Allocator([
      pool('v4only', ['198.18.0.0/31']),
      pool('both', ['198.18.1.0/31', '2001:db8::/127']),
    ]);
    const r = alloc.allocate(
      claimant('a', { families: { want: 'dual', policy: 'RequireDualStack', primary: 6 } }),
    );
    expect(r.ok && [r.pool, texts(r.ips)]).toEqual(['both', ['198.18.1.0', '2001:db8::']]);
  });

  it('PreferDualStack settles for the primary family, then the secondary, when no pool has both', () => {
    const alloc = new Allocator([pool('a-v4', ['198.18.0.0/32']), pool('b-v6', ['2001:db8::/128'])]);
    const prefer = (s: string, primary: 4 | 6) =>
      claimant(s, { families: { want: 'dual', policy: 'PreferDualStack', primary } });
    const first = alloc.allocate(prefer('a', 6));
    const second = alloc.allocate(prefer('b', 6));
    expect([first.ok && texts(first.ips), second.ok && texts(second.ips)]).toEqual([
      ['2001:db8::'],
      ['198.18.0.0'],
    ]);
  });

  it('adds the missing family from the same pool (AllocateFromPoolForAdditionalFamily)', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/32', '2001:db8::/128'])]);
    const c = claimant('a', { families: { want: 'dual', policy: 'PreferDualStack' } });
    const other = claimant('b', { families: { want: 6 } });
    expect(alloc.assign(other, ips('2001:db8::')).ok).toBe(true);
    expect(alloc.assign(c, ips('198.18.0.0')).ok).toBe(true);
    expect(code(alloc.allocateAdditionalFamily(c))).toBe('POOL_EXHAUSTED');
    alloc.release('b');
    const r = alloc.allocateAdditionalFamily(c);
    expect(r.ok && texts(r.ips)).toEqual(['198.18.0.0', '2001:db8::']);
  });
});

describe('configuration changes and events', () => {
  it('refuses overlapping ranges and duplicate pool names: validated config never has them', () => {
    expect(() => new Allocator([pool('a', ['198.18.0.0/24']), pool('b', ['198.18.0.128/25'])])).toThrow(
      AllocatorConfigError,
    );
    expect(() => new Allocator([pool('a', ['198.18.0.0/24', '198.18.0.255-198.18.1.3'])])).toThrow(
      AllocatorConfigError,
    );
    expect(() => new Allocator([pool('a', ['198.18.0.0/24']), pool('a', ['198.18.1.0/24'])])).toThrow(
      AllocatorConfigError,
    );
  });

  it('publishes assignments, changes and releases, each once', () => {
    const events: AllocatorEvent[] = [];
    const alloc = new Allocator([pool('p', ['198.18.0.0/30'])], { onEvent: (e) => events.push(e) });
    alloc.assign(claimant('a'), ips('198.18.0.1'));
    alloc.assign(claimant('a'), ips('198.18.0.1')); // idempotent: no event
    alloc.assign(claimant('a'), ips('198.18.0.2'));
    alloc.setPools([pool('renamed', ['198.18.0.0/30'])]);
    alloc.release('a', 'service deleted');
    expect(
      events.map((e) =>
        e.kind === 'assigned'
          ? `assigned ${e.assignment.pool} ${texts(e.assignment.ips)} (was ${texts(e.previous?.ips)})`
          : `released ${texts(e.assignment.ips)}: ${e.reason}`,
      ),
    ).toEqual([
      'assigned p 198.18.0.1 (was )',
      'assigned p 198.18.0.2 (was 198.18.0.1)',
      'assigned renamed 198.18.0.2 (was 198.18.0.2)',
      'released 198.18.0.2: service deleted',
    ]);
  });

  it('reports services whose addresses left every pool, and frees nothing else', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/30'])]);
    alloc.assign(claimant('a'), ips('198.18.0.0'));
    alloc.assign(claimant('b'), ips('198.18.0.3'));
    const report = alloc.setPools([pool('p', ['198.18.0.0/31'])]);
    expect(report.released.map((r) => r.service)).toEqual(['b']);
    expect(alloc.assignment('a')).toEqual({ ips: [ip('198.18.0.0')], pool: 'p' });
    const next = alloc.allocate(claimant('c'));
    expect(next.ok && texts(next.ips)).toEqual(['198.18.0.1']);
  });
});
