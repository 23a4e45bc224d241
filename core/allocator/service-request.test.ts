import { describe, expect, it } from 'vitest';
import { serviceAnnotations as annotations } from '../cluster/annotations.ts';
import {
  backendKeyOf,
  claimantFor,
  familiesOf,
  isOurClass,
  portsOf,
  requestedIps,
  requestedPool,
  sharingKeyOf,
  statusIps,
} from './service-request.ts';
import { ips, lbService, texts } from './test-fixtures.ts';

describe('annotations (controller/service.go valueForAnnotation, SharingKey)', () => {
  it('reads the stable metallb.io annotations', () => {
    const svc = lbService('a', {
      annotations: { [annotations.addressPool]: 'p1', [annotations.allowSharedIP]: 'k1' },
    });
    expect([requestedPool(svc), sharingKeyOf(svc)]).toEqual(['p1', 'k1']);
  });

  it('still honours the deprecated metallb.universe.tf annotations', () => {
    const svc = lbService('a', {
      annotations: {
        [annotations.deprecatedAddressPool]: 'old-pool',
        [annotations.deprecatedAllowSharedIP]: 'old-key',
        [annotations.deprecatedLoadBalancerIPs]: '198.18.0.7',
      },
    });
    expect([requestedPool(svc), sharingKeyOf(svc)]).toEqual(['old-pool', 'old-key']);
    const r = requestedIps(svc);
    expect(r.ok && texts(r.ips)).toEqual(['198.18.0.7']);
  });

  it('prefers a stable annotation over a deprecated one, even an empty stable one', () => {
    const svc = lbService('a', {
      annotations: { [annotations.addressPool]: '', [annotations.deprecatedAddressPool]: 'old' },
    });
    expect(requestedPool(svc)).toBe('');
  });
});

describe('requestedIps (getDesiredLbIPs)', () => {
  it('is empty without a request', () => {
    const r = requestedIps(lbService('a'));
    expect(r.ok && r.ips).toEqual([]);
  });

  it('takes one address per family from the annotation, spaces allowed', () => {
    const r = requestedIps(
      lbService('a', { annotations: { [annotations.loadBalancerIPs]: '198.18.0.1, 2001:db8::1' } }),
    );
    expect(r.ok && texts(r.ips)).toEqual(['198.18.0.1', '2001:db8::1']);
  });

  it('refuses both spec.loadBalancerIP and the annotation', () => {
    const r = requestedIps(
      lbService('a', {
        annotations: { [annotations.loadBalancerIPs]: '198.18.0.1' },
        spec: { loadBalancerIP: '198.18.0.2' },
      }),
    );
    expect(!r.ok && r.reason.code).toBe('BOTH_IP_AND_ANNOTATION');
  });

  it('refuses text that is not an address, and two of one family', () => {
    const bad = requestedIps(lbService('a', { spec: { loadBalancerIP: 'not-an-ip' } }));
    expect(!bad.ok && bad.reason.code).toBe('INVALID_REQUESTED_IP');
    const same = requestedIps(
      lbService('a', { annotations: { [annotations.loadBalancerIPs]: '198.18.0.1,198.18.0.2' } }),
    );
    expect(!same.ok && same.reason.code).toBe('INVALID_IP_SET');
  });
});

describe('familiesOf', () => {
  it('follows spec.ipFamilies when present', () => {
    expect(familiesOf(lbService('a', { spec: { ipFamilies: ['IPv6'] } }))).toEqual({
      want: 6,
      policy: 'SingleStack',
      primary: 6,
    });
    expect(
      familiesOf(
        lbService('a', { spec: { ipFamilies: ['IPv6', 'IPv4'], ipFamilyPolicy: 'PreferDualStack' } }),
      ),
    ).toEqual({ want: 'dual', policy: 'PreferDualStack', primary: 6 });
  });

  it('without ipFamilies, uses the requested addresses, else the policy', () => {
    expect(familiesOf(lbService('a'), ips('2001:db8::1')).want).toBe(6);
    expect(familiesOf(lbService('a')).want).toBe(4);
    expect(familiesOf(lbService('a', { spec: { ipFamilyPolicy: 'PreferDualStack' } })).want).toBe('dual');
    // RequireDualStack needs both families whatever a single requested address says.
    expect(
      familiesOf(lbService('a', { spec: { ipFamilyPolicy: 'RequireDualStack' } }), ips('198.18.0.1')).want,
    ).toBe('dual');
  });
});

describe('ports, backend key, class and status', () => {
  it('defaults a port protocol to TCP', () => {
    expect(
      portsOf(lbService('a', { spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] } })),
    ).toEqual([
      { protocol: 'TCP', port: 80 },
      { protocol: 'UDP', port: 53 },
    ]);
  });

  it('gives ETP=Local services their sorted selector as backend key (k8salloc.BackendKey)', () => {
    const local = lbService('a', { spec: { externalTrafficPolicy: 'Local', selector: { b: '2', a: '1' } } });
    expect(backendKeyOf(local)).toBe('a=1,b=2');
    expect(backendKeyOf(lbService('a', { spec: { selector: { a: '1' } } }))).toBe('');
  });

  it('serves class-less services only without --lb-class, and exactly its class with one', () => {
    const none = lbService('a');
    const mine = lbService('a', { spec: { loadBalancerClass: 'lblab.io/lb' } });
    expect([isOurClass(none, undefined), isOurClass(mine, undefined)]).toEqual([true, false]);
    expect([
      isOurClass(none, 'lblab.io/lb'),
      isOurClass(mine, 'lblab.io/lb'),
      isOurClass(mine, 'other'),
    ]).toEqual([false, true, false]);
  });

  it('reads status addresses, skipping hostnames, and flags ones that do not parse', () => {
    // A new object per state, as sources hand them out: statusIps remembers each object's answer.
    const named = lbService('a');
    named.status = { loadBalancer: { ingress: [{ hostname: 'lb.example' }, { ip: '198.18.0.1' }] } };
    expect(texts(statusIps(named))).toEqual(['198.18.0.1']);
    const bogus = lbService('a');
    bogus.status = { loadBalancer: { ingress: [{ ip: 'bogus' }] } };
    expect(statusIps(bogus)).toBeUndefined();
  });

  it('builds a claimant with namespace default and the keys', () => {
    const c = claimantFor(
      lbService('web', {
        namespace: 'shop',
        labels: { app: 'web' },
        annotations: { [annotations.allowSharedIP]: 'k' },
      }),
      { team: 'a' },
    );
    expect(c).toMatchObject({
      key: 'shop/web',
      namespace: 'shop',
      sharingKey: 'k',
      backendKey: '',
      namespaceLabels: { team: 'a' },
    });
  });
});
