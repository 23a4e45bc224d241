import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot, Service } from '../cluster/types.ts';
import { loadConfig, type LbConfig } from '../config/index.ts';
import { Controller } from './controller.ts';

function config(...addresses: string[]): LbConfig {
  const text = `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: pool, namespace: metallb-system }
spec:
  addresses: [${addresses.join(', ')}]
`;
  const r = loadConfig([{ path: 'pools.yaml', text }]);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.config;
}

function service(name: string, extra: Partial<Service['spec']> = {}, status?: string[]): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'app' },
    spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }], ...extra },
    ...(status && { status: { loadBalancer: { ingress: status.map((ip) => ({ ip })) } } }),
  };
}

const cluster = (...services: Service[]): ClusterSnapshot => ({
  namespaces: [],
  nodes: [],
  services,
  endpointSlices: [],
});

/** The snapshot after the controller's updates were written to it, as the file source would read it back. */
function applied(
  snapshot: ClusterSnapshot,
  updates: ReturnType<Controller['reconcile']>['updates'],
): ClusterSnapshot {
  const byKey = new Map(updates.map((u) => [`${u.namespace}/${u.name}`, u]));
  return {
    ...snapshot,
    services: snapshot.services.map((s): Service => {
      const u = byKey.get(`${s.metadata.namespace}/${s.metadata.name}`);
      if (!u) return s;
      return {
        ...s,
        metadata: {
          ...s.metadata,
          annotations: u.pool
            ? { 'metallb.io/ip-allocated-from-pool': u.pool }
            : ({} as Record<string, string>),
        },
        status: { loadBalancer: { ingress: u.ingress.map((ip) => ({ ip })) } },
      };
    }),
  };
}

describe('Controller', () => {
  it('assigns lowest-free addresses, writes status once, and is idempotent on its own output', () => {
    const c = new Controller(config('198.18.10.0/30'));
    const first = c.reconcile(cluster(service('b'), service('a')));
    expect(first.updates).toEqual([
      { namespace: 'app', name: 'a', ingress: ['198.18.10.0'], pool: 'pool' },
      { namespace: 'app', name: 'b', ingress: ['198.18.10.1'], pool: 'pool' },
    ]);
    expect(first.events.map((e) => `${e.reason} ${e.service}`)).toEqual([
      'IPAllocated app/a',
      'IPAllocated app/b',
    ]);
    const again = c.reconcile(applied(cluster(service('b'), service('a')), first.updates));
    expect(again.updates).toEqual([]);
    expect(again.events).toEqual([]);
  });

  it('keeps every existing assignment across a restart, whatever order the services come in', () => {
    const written = cluster(
      service('new'),
      service('old1', {}, ['198.18.10.2']),
      service('old2', {}, ['198.18.10.0']),
    );
    const pass = new Controller(config('198.18.10.0/30')).reconcile(written);
    expect(pass.updates).toEqual([
      { namespace: 'app', name: 'new', ingress: ['198.18.10.1'], pool: 'pool' },
      { namespace: 'app', name: 'old1', ingress: ['198.18.10.2'], pool: 'pool' },
      { namespace: 'app', name: 'old2', ingress: ['198.18.10.0'], pool: 'pool' },
    ]);
    const reversed = new Controller(config('198.18.10.0/30')).reconcile(
      cluster(...[...written.services].reverse()),
    );
    expect(reversed.updates).toEqual(pass.updates);
  });

  it('reports a standing failure once, then serves the service when a deletion frees an address', () => {
    const c = new Controller(config('198.18.10.7/32'));
    const one = c.reconcile(cluster(service('a'), service('b')));
    expect(one.updates).toEqual([{ namespace: 'app', name: 'a', ingress: ['198.18.10.7'], pool: 'pool' }]);
    expect(one.events.filter((e) => e.reason === 'AllocationFailed').map((e) => e.service)).toEqual([
      'app/b',
    ]);
    const held = applied(cluster(service('a'), service('b')), one.updates);
    expect(c.reconcile(held).events).toEqual([]);
    const afterDelete = c.reconcile(cluster(service('b')));
    expect(afterDelete.events.map((e) => `${e.reason} ${e.service}`)).toEqual([
      'IPReleased app/a',
      'IPAllocated app/b',
    ]);
    expect(afterDelete.updates).toEqual([
      { namespace: 'app', name: 'b', ingress: ['198.18.10.7'], pool: 'pool' },
    ]);
  });

  it('clears addresses that a new configuration no longer covers and re-allocates from the new pool', () => {
    const c = new Controller(config('198.18.10.0/30'));
    const snap = applied(cluster(service('a')), c.reconcile(cluster(service('a'))).updates);
    const cleared = c.setConfig(config('198.18.20.0/30'));
    expect(cleared.map((e) => `${e.reason} ${e.service}: ${e.message}`)).toEqual([
      'IPsCleared app/a: 198.18.10.0 no longer in any pool',
    ]);
    expect(c.reconcile(snap).updates).toEqual([
      { namespace: 'app', name: 'a', ingress: ['198.18.20.0'], pool: 'pool' },
    ]);
  });

  it('takes the status back from a Service that stops being a LoadBalancer, and leaves other classes alone', () => {
    const c = new Controller(config('198.18.10.0/30'));
    const pass = c.reconcile(
      cluster(
        service('was-lb', { type: 'ClusterIP' }, ['198.18.10.0']),
        service('other', { loadBalancerClass: 'x' }, ['203.0.113.9']),
      ),
    );
    expect(pass.updates).toEqual([{ namespace: 'app', name: 'was-lb', ingress: [] }]);
  });
});
