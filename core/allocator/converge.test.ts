import { describe, expect, it } from 'vitest';
import type { Service } from '../cluster/types.ts';
import { Allocator } from './allocator.ts';
import { convergeService, restoreServices, type Convergence } from './converge.ts';
import { serviceAnnotations as annotations } from '../cluster/annotations.ts';
import { ips, lbService, pool, texts, withStatus } from './test-fixtures.ts';

const addresses = (r: Convergence): string[] | string =>
  r.ok ? (r.action === 'assign' ? texts(r.ips) : r.why) : r.reason.code;
const v4 = { ipFamilies: ['IPv4' as const] };

describe('loadBalancerClass (filterByLoadBalancerClass)', () => {
  it('without a configured class, serves class-less services and releases the rest', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/30'])]);
    const svc = lbService('a', { spec: v4 });
    expect(addresses(convergeService(alloc, svc, {}))).toEqual(['198.18.0.0']);
    const classed = lbService('a', { spec: { ...v4, loadBalancerClass: 'other.io/lb' } });
    const r = convergeService(alloc, classed, {});
    expect(addresses(r)).toBe('other-class');
    expect(r.ok && r.action === 'ignore' && texts(r.released?.ips)).toEqual(['198.18.0.0']);
    expect(alloc.assignment('default/a')).toBeUndefined();
  });

  it('with a configured class, serves exactly that class', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/30'])], { loadBalancerClass: 'lblab.io/lb' });
    expect(addresses(convergeService(alloc, lbService('a', { spec: v4 }), {}))).toBe('other-class');
    const mine = lbService('b', { spec: { ...v4, loadBalancerClass: 'lblab.io/lb' } });
    expect(addresses(convergeService(alloc, mine, {}))).toEqual(['198.18.0.0']);
  });

  it('releases a former LoadBalancer', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/30'])]);
    const svc = lbService('a', { spec: v4 });
    convergeService(alloc, svc, {});
    expect(addresses(convergeService(alloc, { ...svc, spec: { ...svc.spec, type: 'ClusterIP' } }, {}))).toBe(
      'not-load-balancer',
    );
    expect(alloc.stats('p')?.assignedIPv4).toBe(0n);
  });
});

describe('deprecated metallb.universe.tf annotations', () => {
  const alloc = new Allocator([
    pool('a', ['198.18.0.0/30']),
    pool('b', ['198.18.1.0/30'], { autoAssign: false }),
  ]);

  it('address-pool', () => {
    const svc = lbService('x', { spec: v4, annotations: { [annotations.deprecatedAddressPool]: 'b' } });
    expect(addresses(convergeService(alloc, svc, {}))).toEqual(['198.18.1.0']);
  });

  it('loadBalancerIPs', () => {
    const svc = lbService('y', {
      spec: v4,
      annotations: { [annotations.deprecatedLoadBalancerIPs]: '198.18.0.3' },
    });
    expect(addresses(convergeService(alloc, svc, {}))).toEqual(['198.18.0.3']);
  });

  it('allow-shared-ip', () => {
    const shared = (name: string, port: number) =>
      lbService(name, {
        spec: { ...v4, ports: [{ port }], loadBalancerIP: '198.18.0.2' },
        annotations: { [annotations.deprecatedAllowSharedIP]: 'web' },
      });
    expect(addresses(convergeService(alloc, shared('s1', 80), {}))).toEqual(['198.18.0.2']);
    expect(addresses(convergeService(alloc, shared('s2', 443), {}))).toEqual(['198.18.0.2']);
    expect(addresses(convergeService(alloc, shared('s3', 443), {}))).toBe('PORT_IN_USE');
  });
});

describe('sharing (allow-shared-ip)', () => {
  const share = (name: string, port: number, etp: 'Local' | 'Cluster', app: string): Service =>
    lbService(name, {
      spec: { ...v4, ports: [{ port }], externalTrafficPolicy: etp, selector: { app } },
      annotations: { [annotations.allowSharedIP]: 'k' },
    });

  it('ETP=Cluster services share whatever their selectors', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/30'])]);
    expect(addresses(convergeService(alloc, share('a', 80, 'Cluster', 'x'), {}))).toEqual(['198.18.0.0']);
    expect(addresses(convergeService(alloc, share('b', 443, 'Cluster', 'y'), {}))).toEqual(['198.18.0.0']);
  });

  it('ETP=Local services share only with identical selectors', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/30'])]);
    expect(addresses(convergeService(alloc, share('a', 80, 'Local', 'x'), {}))).toEqual(['198.18.0.0']);
    expect(addresses(convergeService(alloc, share('b', 443, 'Local', 'y'), {}))).toEqual(['198.18.0.1']);
    expect(addresses(convergeService(alloc, share('c', 8443, 'Local', 'x'), {}))).toEqual(['198.18.0.0']);
  });
});

describe('stability of existing assignments', () => {
  it('keeps a valid status address even when lower ones are free', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/29'])]);
    const svc = lbService('a', { spec: v4, status: ['198.18.0.5'] });
    const r = convergeService(alloc, svc, {});
    expect(addresses(r)).toEqual(['198.18.0.5']);
    expect(r.notes).toEqual([]);
  });

  it('keeps the addresses, and says why, when the request becomes malformed', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/29'])]);
    const svc = lbService('a', {
      spec: { ...v4, loadBalancerIP: '198.18.0.1' },
      annotations: { [annotations.loadBalancerIPs]: '198.18.0.2' },
      status: ['198.18.0.5'],
    });
    const r = convergeService(alloc, svc, {});
    expect(r.ok).toBe(false);
    expect(!r.ok && [r.reason.code, texts(r.kept?.ips)]).toEqual(['BOTH_IP_AND_ANNOTATION', ['198.18.0.5']]);
    expect(texts(alloc.assignment('default/a')?.ips)).toEqual(['198.18.0.5']);
  });

  it('moves to the requested pool when the annotation changes', () => {
    const alloc = new Allocator([pool('a', ['198.18.0.0/30']), pool('b', ['198.18.1.0/30'])]);
    const svc = lbService('x', {
      spec: v4,
      status: ['198.18.0.0'],
      annotations: { [annotations.addressPool]: 'b' },
    });
    const r = convergeService(alloc, svc, {});
    expect(addresses(r)).toEqual(['198.18.1.0']);
    expect(r.notes.map((n) => n.code)).toEqual(['different-pool-requested', 'allocated']);
  });

  it('gives a PreferDualStack service holding one family the other one once it is free', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/32', '2001:db8::/128'])]);
    const blocker = lbService('blocker', { spec: { ipFamilies: ['IPv6'] } });
    expect(addresses(convergeService(alloc, blocker, {}))).toEqual(['2001:db8::']);
    const svc = lbService('a', { spec: { ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'PreferDualStack' } });
    const first = convergeService(alloc, svc, {});
    expect(addresses(first)).toEqual(['198.18.0.0']);
    alloc.release('default/blocker');
    const again = convergeService(alloc, withStatus(svc, ips('198.18.0.0')), {});
    expect(addresses(again)).toEqual(['198.18.0.0', '2001:db8::']);
    expect(again.notes.map((n) => n.code)).toEqual(['additional-family-assigned']);
  });

  it('NO_POOLS releases what the service held', () => {
    const alloc = new Allocator([pool('p', ['198.18.0.0/30'])]);
    const svc = lbService('a', { spec: v4 });
    convergeService(alloc, svc, {});
    alloc.setPools([]);
    expect(addresses(convergeService(alloc, withStatus(svc, ips('198.18.0.0')), {}))).toBe('NO_POOLS');
  });
});

describe('restoreServices (restart)', () => {
  const pools = [pool('p', ['198.18.0.0/30'])];

  it('re-asserts every status before allocating anything new', () => {
    const services = [
      lbService('a-new', { spec: v4 }),
      lbService('z-old', { spec: v4, status: ['198.18.0.0'] }),
      lbService('m-old', { spec: v4, status: ['198.18.0.2'] }),
    ];
    const alloc = new Allocator(pools);
    const results = restoreServices(alloc, services, () => ({}));
    expect(Object.fromEntries([...results].map(([k, r]) => [k, addresses(r)]))).toEqual({
      'default/a-new': ['198.18.0.1'],
      'default/m-old': ['198.18.0.2'],
      'default/z-old': ['198.18.0.0'],
    });
  });

  it('settles conflicting statuses by key, whatever the input order', () => {
    const x = lbService('x', { spec: v4, status: ['198.18.0.3'] });
    const y = lbService('y', { spec: v4, status: ['198.18.0.3'] });
    for (const order of [
      [x, y],
      [y, x],
    ]) {
      const results = restoreServices(new Allocator(pools), order, () => ({}));
      expect(addresses(results.get('default/x')!)).toEqual(['198.18.0.3']);
      expect(addresses(results.get('default/y')!)).toEqual(['198.18.0.0']);
    }
  });

  it('passes each namespace its labels', () => {
    const alloc = new Allocator([
      pool('prod', ['198.18.0.0/30'], {
        serviceAllocation: { namespaceSelectors: [{ matchLabels: { env: 'prod' } }] },
      }),
    ]);
    const results = restoreServices(
      alloc,
      [lbService('a', { namespace: 'shop', spec: v4 }), lbService('b', { namespace: 'lab', spec: v4 })],
      (ns): Record<string, string> => (ns === 'shop' ? { env: 'prod' } : {}),
    );
    expect([addresses(results.get('shop/a')!), addresses(results.get('lab/b')!)]).toEqual([
      ['198.18.0.0'],
      'NO_FREE_ADDRESS',
    ]);
  });
});
