/**
 * MetalLB's controller/controller_test.go (convergeBalancer through SetBalancer), ported case by case.
 *
 * `setBalancer` below plays MetalLB's SetBalancer: it converges the service and works out what the
 * controller would write to the status (undefined: nothing, as MetalLB's "want: nil") and whether it
 * would raise a warning event (MetalLB's loggedWarning: a failure, or status addresses whose family
 * cannot be determined).
 *
 * Adaptations:
 * - spec.clusterIPs becomes spec.ipFamilies (lblab's Service carries families, not cluster IPs); the
 *   "No ClusterIP" row does not apply.
 * - MetalLB's pool5 overlaps pool1 and pool3 (validated config never does); here it owns 1.2.3.2/31 and
 *   1000::2/127, so dual-stack rows expect those addresses where MetalLB expects 1.2.3.0 and 1000::.
 */
import { describe, expect, it } from 'vitest';
import type { IpFamilyName, Service } from '../cluster/types.ts';
import { serviceKey } from '../cluster/types.ts';
import { Random } from '../runtime/index.ts';
import { Allocator } from './allocator.ts';
import { convergeService } from './converge.ts';
import { serviceAnnotations as annotations } from '../cluster/annotations.ts';
import { lbService, pool, texts } from './test-fixtures.ts';

function setBalancer(alloc: Allocator, key: string, svc: Service | undefined) {
  if (!svc) {
    alloc.release(key, 'service deleted');
    return { write: undefined, warning: false };
  }
  const input = (svc.status?.loadBalancer?.ingress ?? []).flatMap((i) => (i.ip ? [i.ip] : []));
  const r = convergeService(alloc, svc, {});
  const status = r.ok ? (r.action === 'assign' ? texts(r.ips) : []) : r.kept ? input : [];
  const changed = status.length !== input.length || status.some((s, i) => s !== input[i]);
  const hadIngress = (svc.status?.loadBalancer?.ingress ?? []).length > 0;
  return {
    write: changed || (hadIngress && status.length === 0 && !r.ok && !r.kept) ? status : undefined,
    warning: !r.ok || r.notes.some((n) => n.code === 'status-invalid'),
    result: r,
  };
}

const families = (...f: IpFamilyName[]) => ({ ipFamilies: f });
const lbIPs = (v: string) => ({ [annotations.loadBalancerIPs]: v });
const poolAnnotation = (v: string) => ({ [annotations.addressPool]: v });

describe('controller_test.go TestControllerMutation', () => {
  const team = { matchLabels: { team: 'metallb' } };
  const alloc = new Allocator([
    pool('pool1', ['1.2.3.0/31']),
    pool('pool2', ['3.4.5.6/32'], { autoAssign: false }),
    pool('pool3', ['1000::/127']),
    pool('pool4', ['2000::1/128'], { autoAssign: false }),
    pool('pool5', ['1.2.3.2/31', '1000::2/127']),
    pool('pool6', ['7.8.9.0/31'], { serviceAllocation: { namespaces: ['test-ns1'], priority: 10 } }),
    pool('pool7', ['10.11.12.0/31'], { serviceAllocation: { namespaces: ['test-ns1'], priority: 11 } }),
    pool('pool8', ['13.14.15.0/31'], { serviceAllocation: { serviceSelectors: [team], priority: 9 } }),
    pool('pool9', ['16.17.18.0/31'], { serviceAllocation: { namespaces: ['test-ns2'] } }),
    pool('pool10', ['19.20.21.0/31'], { serviceAllocation: { serviceSelectors: [team], priority: 8 } }),
    pool('pool11', ['22.23.24.0/31'], {
      serviceAllocation: { namespaces: ['test-ns1'], serviceSelectors: [team], priority: 8 },
    }),
    pool('pool12', ['25.26.27.0/31'], {
      serviceAllocation: { namespaces: ['test-ns1'], serviceSelectors: [team], priority: 5 },
    }),
  ]);
  const v4 = families('IPv4');
  const v6 = families('IPv6');
  const dual = families('IPv4', 'IPv6');
  const require = { ipFamilyPolicy: 'RequireDualStack' as const };
  const prefer = { ipFamilyPolicy: 'PreferDualStack' as const };

  const tests: { desc: string; in?: Service; want?: string[]; wantErr?: boolean }[] = [
    { desc: 'deleted balancer' },
    { desc: 'simple non-LoadBalancer', in: lbService('test', { spec: { type: 'ClusterIP', ...v4 } }) },
    { desc: 'simple LoadBalancer', in: lbService('test', { spec: v4 }), want: ['1.2.3.0'] },
    {
      desc: 'request specific IP',
      in: lbService('test', { spec: { ...v4, loadBalancerIP: '1.2.3.1' } }),
      want: ['1.2.3.1'],
    },
    {
      desc: 'request specific IP via custom annotation',
      in: lbService('test', { annotations: lbIPs('1.2.3.1'), spec: v4 }),
      want: ['1.2.3.1'],
    },
    {
      desc: 'request IP from both svc.spec.LoadBalancerIP and custom annotation',
      in: lbService('test', { annotations: lbIPs('1.2.3.1'), spec: { ...v4, loadBalancerIP: '1.2.3.2' } }),
      wantErr: true,
    },
    {
      desc: 'request invalid IP',
      in: lbService('test', {
        spec: { ...v4, loadBalancerIP: 'please sir may I have an IP address thank you' },
      }),
      wantErr: true,
    },
    {
      desc: 'incompatible ip and address pool annotations',
      in: lbService('test', { annotations: { ...lbIPs('1.2.3.1'), ...poolAnnotation('pool2') }, spec: v4 }),
      wantErr: true,
    },
    {
      desc: 'request invalid IP via custom annotation',
      in: lbService('test', {
        annotations: lbIPs('please sir may I have an IP address thank you'),
        spec: v4,
      }),
      wantErr: true,
    },
    {
      desc: 'request two IPs from same ip family via custom annotation',
      in: lbService('test', { annotations: lbIPs('1.2.3.1,1.2.3.2'), spec: v4 }),
      wantErr: true,
    },
    {
      desc: 'request infeasible IP',
      in: lbService('test', { spec: { ...v4, loadBalancerIP: '1.2.3.4' }, status: ['1.2.3.1'] }),
      want: [],
      wantErr: true,
    },
    {
      desc: 'request IP from specific pool',
      in: lbService('test', { annotations: poolAnnotation('pool1'), spec: v4 }),
      want: ['1.2.3.0'],
    },
    {
      desc: 'switch to a different specific pool',
      in: lbService('test', { annotations: poolAnnotation('pool2'), spec: v4, status: ['1.2.3.0'] }),
      want: ['3.4.5.6'],
    },
    {
      desc: 'unknown pool requested',
      in: lbService('test', { annotations: poolAnnotation('does-not-exist'), spec: v4 }),
      wantErr: true,
    },
    {
      desc: 'invalid IP assigned',
      in: lbService('test', { spec: v4, status: ['2.3.4.5'] }),
      want: ['1.2.3.0'],
    },
    {
      desc: 'invalid ingress state',
      in: {
        ...lbService('test', { spec: v4 }),
        status: { loadBalancer: { ingress: [{ hostname: 'foo.bar.local' }, { ip: '10.10.10.10' }] } },
      },
      want: ['1.2.3.0'],
    },
    {
      desc: 'former LoadBalancer, now NodePort',
      in: lbService('test', { spec: { ...v4, type: 'NodePort' }, status: ['1.2.3.0'] }),
      want: [],
    },
    {
      desc: 'request layer2 service',
      in: lbService('test', { spec: { ...v4, loadBalancerIP: '3.4.5.6' } }),
      want: ['3.4.5.6'],
    },
    {
      desc: 'Layer2 service with local traffic policy',
      in: lbService('test', { spec: { ...v4, loadBalancerIP: '3.4.5.6', externalTrafficPolicy: 'Local' } }),
      want: ['3.4.5.6'],
    },
    {
      desc: 'request IP from wrong ip-family (ipv4)',
      in: lbService('test', { spec: { ...v6, loadBalancerIP: '1.2.3.1' } }),
      wantErr: true,
    },
    {
      desc: 'request IP from wrong ip-family (ipv4) via custom annotation',
      in: lbService('test', { annotations: lbIPs('1.2.3.1'), spec: v6 }),
      wantErr: true,
    },
    {
      desc: 'request IP from wrong ip-family (ipv6)',
      in: lbService('test', { spec: { ...v4, loadBalancerIP: '1000::' } }),
      wantErr: true,
    },
    {
      desc: 'request IP from wrong ip-family (ipv6) via custom annotation',
      in: lbService('test', { annotations: lbIPs('1000::'), spec: v4 }),
      wantErr: true,
    },
    {
      desc: 'IP from wrong ip-family (ipv6) assigned',
      in: lbService('test', { spec: v4, status: ['1000::'] }),
      want: ['1.2.3.0'],
    },
    {
      desc: 'IP from wrong ip-family (ipv4) assigned',
      in: lbService('test', { spec: v6, status: ['1.2.3.0'] }),
      want: ['1000::'],
    },
    // Dual-stack cases.
    { desc: 'deleted balancer' },
    {
      desc: 'simple dual-stack LoadBalancer',
      in: lbService('test', { spec: { ...dual, ...require } }),
      want: ['1.2.3.2', '1000::2'],
    },
    {
      desc: 'request IPs from specific pool',
      in: lbService('test', { annotations: poolAnnotation('pool5'), spec: { ...dual, ...require } }),
      want: ['1.2.3.2', '1000::2'],
    },
    {
      desc: 'simple dual-stack LoadBalancer with PreferDualStack policy',
      in: lbService('test', { spec: { ...dual, ...prefer } }),
      want: ['1.2.3.2', '1000::2'],
    },
    {
      // Pinned to test-ns1, which has no dual-stack pool.
      desc: 'single-stack LoadBalancer with PreferDualStack policy',
      in: lbService('test', { namespace: 'test-ns1', spec: { ...v4, ...prefer } }),
      want: ['7.8.9.0'],
    },
    {
      desc: 'request IPs from dualstack pool with PreferDualStack policy',
      in: lbService('test', { annotations: poolAnnotation('pool5'), spec: { ...dual, ...prefer } }),
      want: ['1.2.3.2', '1000::2'],
    },
    {
      desc: 'request IP from single-stack ipv4 pool with PreferDualStack policy',
      in: lbService('test', { annotations: poolAnnotation('pool1'), spec: { ...dual, ...prefer } }),
      want: ['1.2.3.0'],
    },
    {
      desc: 'request IP from single-stack ipv6 pool with PreferDualStack policy',
      in: lbService('test', { annotations: poolAnnotation('pool3'), spec: { ...v6, ...prefer } }),
      want: ['1000::'],
    },
    {
      desc: 'request specific loadbalancer IP with dual-stack',
      in: lbService('test', { spec: { ...dual, loadBalancerIP: '1.2.3.1' } }),
      wantErr: true,
    },
    {
      desc: 'request specific loadbalancer IPv4 address via custom annotation for dual-stack config',
      in: lbService('test', { annotations: lbIPs('1.2.3.1'), spec: dual }),
      wantErr: true,
    },
    {
      desc: 'request dual-stack loadbalancer IPs via custom annotation',
      in: lbService('test', { annotations: lbIPs('1.2.3.2,1000::2'), spec: { ...dual, ...require } }),
      want: ['1.2.3.2', '1000::2'],
    },
    {
      desc: 'request dual-stack loadbalancer with invalid ingress',
      in: {
        ...lbService('test', { spec: { ...families('IPv6', 'IPv4'), ...require } }),
        status: { loadBalancer: { ingress: [{ hostname: 'foo.bar.local' }, { ip: '1000::' }] } },
      },
      want: ['1.2.3.2', '1000::2'],
    },
    {
      desc: 'request dual-stack loadbalancer IPs via custom annotation in a single stack cluster',
      in: lbService('test', { annotations: lbIPs('1.2.3.2,1000::2'), spec: v4 }),
      wantErr: true,
    },
    {
      desc: 'request IP for service from namespace specific ip pool',
      in: lbService('test', { namespace: 'test-ns1', spec: v4 }),
      want: ['7.8.9.0'],
    },
    {
      desc: 'request IP for service from no priority namespace specific ip pool',
      in: lbService('test', { namespace: 'test-ns2', spec: v4 }),
      want: ['16.17.18.0'],
    },
    {
      desc: 'request IP for service from service label specific ip pool',
      in: lbService('test', { labels: { team: 'metallb' }, spec: v4 }),
      want: ['19.20.21.0'],
    },
    {
      desc: 'request IP for service from ip pool having both namespace and service label',
      in: lbService('test', { namespace: 'test-ns1', labels: { team: 'metallb' }, spec: v4 }),
      want: ['25.26.27.0'],
    },
    {
      desc: "simple LoadBalancer, ips already assigned but can't determine family",
      in: lbService('test', { spec: v4, status: ['1.2.3.0', '1.2.3.1', '1.2.3.2'] }),
      want: ['1.2.3.0'],
      wantErr: true,
    },
  ];

  // As MetalLB's test: every input is a pure function of itself, whatever ran before; so run the table
  // in order, then reshuffled (seeded) a few times.
  const random = new Random(7472);
  const rounds = [tests];
  for (let round = 1; round < 5; round++) {
    const shuffled = [...tests];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    rounds.push(shuffled);
  }
  rounds.forEach((round, r) => {
    for (const t of round) {
      it(`round ${r + 1}: ${t.desc}`, () => {
        const key = t.in ? serviceKey(t.in) : 'default/test';
        const got = setBalancer(alloc, key, t.in);
        expect(got.warning).toBe(t.wantErr ?? false);
        expect(got.write).toEqual(t.want);
      });
    }
  });
});

describe('controller_test.go TestControllerConfig', () => {
  const svc = lbService('test', { spec: { ipFamilies: ['IPv4'] } });
  const alloc = new Allocator([]);
  let got: Service = svc;

  it('with no pools nothing is allocated and the status is left alone', () => {
    const r = convergeService(alloc, svc, {});
    expect(r.ok ? r.action : r.reason.code).toBe('NO_POOLS');
    expect(setBalancer(alloc, 'default/test', svc).write).toBeUndefined();
  });

  it('with a pool the service gets its first address', () => {
    alloc.setPools([pool('default', ['1.2.3.0/24'])]);
    const r = convergeService(alloc, svc, {});
    expect(r.ok && r.action === 'assign' && texts(r.ips)).toEqual(['1.2.3.0']);
    got = lbService('test', { spec: { ipFamilies: ['IPv4'] }, status: ['1.2.3.0'] });
  });

  it('removing the pool is accepted even though an address is allocated, and reports it', () => {
    const report = alloc.setPools([]);
    expect(report.released.map((r) => [r.service, texts(r.assignment.ips)])).toEqual([
      ['default/test', ['1.2.3.0']],
    ]);
  });

  it('the next convergence clears the status', () => {
    expect(setBalancer(alloc, 'default/test', got).write).toEqual([]);
  });
});

describe('controller_test.go TestDeleteRecyclesIP', () => {
  const alloc = new Allocator([pool('default', ['1.2.3.0/32'])]);
  const svc1 = lbService('test', { spec: { ipFamilies: ['IPv4'] } });
  const svc2 = lbService('test2', { spec: { ipFamilies: ['IPv4'] } });

  it('svc1 gets the only address', () => {
    expect(setBalancer(alloc, 'default/test', svc1).write).toEqual(['1.2.3.0']);
  });
  it('svc2 converges without an address and is not mutated', () => {
    const got = setBalancer(alloc, 'default/test2', svc2);
    expect(got.write).toBeUndefined();
    expect(got.result?.ok === false && got.result.reason.code).toBe('NO_FREE_ADDRESS');
  });
  it('deleting svc1 frees the address for svc2', () => {
    setBalancer(alloc, 'default/test', undefined);
    expect(setBalancer(alloc, 'default/test2', svc2).write).toEqual(['1.2.3.0']);
  });
});

describe('controller_test.go TestControllerReassign', () => {
  const base = pool('default', ['1.2.3.0/24', '1000::1/127']);
  const second = pool('second', ['4.5.6.0/24']);
  const alloc = new Allocator([base]);
  const svc = lbService('test', { spec: { ipFamilies: ['IPv4'] } });
  const assigned = lbService('test', { spec: { ipFamilies: ['IPv4'] }, status: ['1.2.3.0'] });

  it('the service gets 1.2.3.0', () => {
    expect(setBalancer(alloc, 'default/test', svc).write).toEqual(['1.2.3.0']);
  });
  it('adding a second pool changes nothing', () => {
    expect(alloc.setPools([base, second])).toEqual({ released: [], moved: [] });
    expect(setBalancer(alloc, 'default/test', assigned).write).toBeUndefined();
  });
  it('deleting the first pool moves the service to the second', () => {
    expect(alloc.setPools([second]).released.map((r) => r.service)).toEqual(['default/test']);
    expect(setBalancer(alloc, 'default/test', assigned).write).toEqual(['4.5.6.0']);
  });
});

describe('controller_test.go TestControllerDualStackConfig', () => {
  const svc = lbService('test', {
    spec: { ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' },
  });
  const alloc = new Allocator([]);
  it('with no pools nothing is written', () => {
    expect(setBalancer(alloc, 'default/test', svc).write).toBeUndefined();
  });
  it('with a dual-stack pool the service gets one address of each family', () => {
    alloc.setPools([pool('default', ['1.2.3.0/24', '1000::1/127'])]);
    expect(setBalancer(alloc, 'default/test', svc).write).toEqual(['1.2.3.0', '1000::']);
  });
});
