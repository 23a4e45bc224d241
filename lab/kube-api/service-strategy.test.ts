import type { V1Service } from '@kubernetes/client-node';
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, test } from 'vitest';
import { failureOf, startServer } from './kube-api.test-support.ts';
import { dualStackServiceRange } from './service-strategy.ts';

const lb = (name: string, spec: V1Service['spec'] = {}): V1Service => ({
  metadata: { name },
  spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }], ...spec },
});

describe('Services are defaulted as kube-apiserver defaults them', () => {
  test('single-stack cluster: SingleStack IPv4, a cluster IP, a node port, traffic policies', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const svc = await core.createNamespacedService({ namespace: 'default', body: lb('web') });
    expect(svc.spec).toMatchObject({
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
      clusterIP: '198.18.240.1',
      clusterIPs: ['198.18.240.1'],
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
      sessionAffinity: 'None',
    });
    expect(svc.spec?.ports?.[0]?.nodePort).toBe(30000);

    // PreferDualStack falls back to one family on a single-stack cluster; RequireDualStack is refused.
    const prefer = await core.createNamespacedService({
      namespace: 'default',
      body: lb('prefer', { ipFamilyPolicy: 'PreferDualStack' }),
    });
    expect(prefer.spec?.ipFamilies).toEqual(['IPv4']);
    const require = await failureOf(
      core.createNamespacedService({
        namespace: 'default',
        body: lb('require', { ipFamilyPolicy: 'RequireDualStack' }),
      }),
    );
    expect(require).toMatchObject({
      code: 422,
      status: { details: { causes: [{ field: 'spec.ipFamilyPolicy' }] } },
    });
    const v6 = await failureOf(
      core.createNamespacedService({ namespace: 'default', body: lb('v6', { ipFamilies: ['IPv6'] }) }),
    );
    expect(v6.status?.message).toContain(
      'spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
    );
  });

  test('dual-stack cluster: PreferDualStack and RequireDualStack get both families and two cluster IPs', async () => {
    const server = await startServer({ serviceClusterIpRange: dualStackServiceRange });
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const prefer = await core.createNamespacedService({
      namespace: 'default',
      body: lb('prefer', { ipFamilyPolicy: 'PreferDualStack' }),
    });
    expect(prefer.spec?.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(prefer.spec?.clusterIPs).toEqual(['198.18.240.1', '2001:db8:fff0::1']);
    const v6first = await core.createNamespacedService({
      namespace: 'default',
      body: lb('v6first', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6'] }),
    });
    expect(v6first.spec?.ipFamilies).toEqual(['IPv6', 'IPv4']);
    const single = await core.createNamespacedService({ namespace: 'default', body: lb('single') });
    expect(single.spec?.ipFamilies).toEqual(['IPv4']);
    const ambiguous = await failureOf(
      core.createNamespacedService({
        namespace: 'default',
        body: lb('two', { ipFamilies: ['IPv4', 'IPv6'] }),
      }),
    );
    expect(ambiguous.code).toBe(422);
  });

  test('an update that leaves allocated fields out keeps them; changing the cluster IP is refused', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const svc = await core.createNamespacedService({ namespace: 'default', body: lb('web') });
    const bare = {
      metadata: { name: 'web' },
      spec: {
        type: 'LoadBalancer',
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 443, protocol: 'TCP' },
        ],
      },
    };
    const updated = await core.replaceNamespacedService({ namespace: 'default', name: 'web', body: bare });
    expect(updated.spec).toMatchObject({
      clusterIP: svc.spec?.clusterIP,
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    // The port it had keeps its node port; the new one gets one.
    expect(updated.spec?.ports?.map((p) => p.nodePort)).toEqual([svc.spec?.ports?.[0]?.nodePort, 30001]);
    const moved = await failureOf(
      core.replaceNamespacedService({
        namespace: 'default',
        name: 'web',
        body: { ...bare, spec: { ...bare.spec, clusterIP: '198.18.240.99' } },
      }),
    );
    expect(moved.status?.message).toContain('may not change once set');
  });

  test('seeded Services are defaulted too, and keep the status the test gives them', async () => {
    const server = await startServer();
    const seeded = await server.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { type: 'LoadBalancer', ipFamilyPolicy: 'PreferDualStack' },
      status: { loadBalancer: { ingress: [{ ip: '198.18.0.10' }] } },
    });
    expect(seeded.spec).toMatchObject({ ipFamilies: ['IPv4'], clusterIP: '198.18.240.1' });
    expect(seeded.status).toEqual({ loadBalancer: { ingress: [{ ip: '198.18.0.10' }] } });
    const headless = await server.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'db', namespace: 'default' },
      spec: { clusterIP: 'None' },
    });
    expect(headless.spec).toMatchObject({
      type: 'ClusterIP',
      clusterIP: 'None',
      clusterIPs: ['None'],
      ipFamilies: ['IPv4'],
    });
    const fixed = await server.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api', namespace: 'default' },
      spec: { clusterIP: '198.18.240.200' },
    });
    expect(fixed.spec).toMatchObject({ clusterIPs: ['198.18.240.200'], ipFamilies: ['IPv4'] });
  });
});
