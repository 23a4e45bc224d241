import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot } from '../../cluster/types.ts';
import type { LbConfig } from '../../config/index.ts';
import { electL2Owner } from './elect.ts';
import { l2Assignments, l2AssignmentSteps, SERVICES_PER_STEP } from './assignments.ts';
import { endpoint, l2adv, nic, node, pool, sameInterfaces, service, slice } from './test-fixtures.ts';

const names = ['n1', 'n2', 'n3'];
const lanPool = pool('lan', ['198.18.0.100-198.18.0.199', '2001:db8::100/120']);
const bgpOnly = pool('routed', ['198.18.10.0/24']);
const config: LbConfig = {
  pools: [lanPool, bgpOnly],
  l2Advertisements: [l2adv('lan', { pools: ['lan'] })],
  bgpAdvertisements: [],
  bfdProfiles: [],
  peers: [],
  communities: new Map(),
};
const interfaces = sameInterfaces(names, nic('eth0', '198.18.0.10/24', '2001:db8::10/64'));

const snapshot: ClusterSnapshot = {
  namespaces: [],
  nodes: names.map((n) => node(n)),
  services: [
    service('web', ['198.18.0.100'], { namespace: 'shop' }),
    service('api', ['198.18.0.101', '2001:db8::101'], { namespace: 'shop', etp: 'Local' }),
    service('cold', ['198.18.0.102'], { namespace: 'shop' }),
    service('internal', [], { namespace: 'shop', type: 'ClusterIP' }),
    service('pending', [], { namespace: 'shop' }),
    service('routed', ['198.18.10.5'], { namespace: 'shop' }),
    service('outside', ['203.0.113.7'], { namespace: 'shop' }),
    service('foreign', ['198.18.0.103'], { namespace: 'shop', lbClass: 'other.io/lb' }),
  ],
  endpointSlices: [
    slice([endpoint('n2')], 'web', 'shop'),
    slice([endpoint('n3')], 'api', 'shop'),
    slice([endpoint('n1', { ready: false })], 'cold', 'shop'),
    // Same service name in another namespace: not the service's endpoints.
    slice([endpoint('n1')], 'cold', 'elsewhere'),
  ],
};

describe('l2Assignments', () => {
  const alive = new Set(names);

  it('elects every LoadBalancer service of an L2-advertised pool, sorted by key, and nothing else', () => {
    const out = l2Assignments(snapshot, config, alive, interfaces);
    expect(out.map((a) => [a.service, a.pool, a.ips.map(String)])).toEqual([
      ['shop/api', 'lan', ['198.18.0.101', '2001:db8::101']],
      ['shop/cold', 'lan', ['198.18.0.102']],
      ['shop/web', 'lan', ['198.18.0.100']],
    ]);
  });

  it('gives each the same result as electing it alone, with its own endpoint slices', () => {
    const out = new Map(l2Assignments(snapshot, config, alive, interfaces).map((a) => [a.service, a.result]));
    for (const svc of snapshot.services.filter((s) => ['web', 'api', 'cold'].includes(s.metadata.name))) {
      const own = snapshot.endpointSlices.filter(
        (s) =>
          s.metadata.namespace === 'shop' &&
          s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name,
      );
      expect(out.get(`shop/${svc.metadata.name}`)).toEqual(
        electL2Owner({
          service: svc,
          pool: lanPool,
          advertisements: config.l2Advertisements,
          nodes: snapshot.nodes,
          aliveSpeakers: alive,
          endpointSlices: own,
          interfaces,
        }),
      );
    }
    expect(out.get('shop/api')).toMatchObject({ owner: 'n3', candidates: ['n3'], interfaces: ['eth0'] });
    expect(out.get('shop/cold')).toMatchObject({ owner: undefined, cause: 'no-endpoints' });
  });

  it('serves the loadBalancerClass it is given', () => {
    const out = l2Assignments(snapshot, config, alive, interfaces, { loadBalancerClass: 'other.io/lb' });
    expect(out.map((a) => a.service)).toEqual(['shop/foreign']);
    expect(out[0]?.result).toMatchObject({ owner: undefined, cause: 'no-endpoints' });
  });

  it('passes ignoreExcludeLB through', () => {
    const excluded = {
      ...snapshot,
      nodes: names.map((n) =>
        node(n, { labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } }),
      ),
    };
    const web = (o = {}) =>
      l2Assignments(excluded, config, alive, interfaces, o).find((a) => a.service === 'shop/web');
    expect(web()?.result).toMatchObject({ owner: undefined, cause: 'no-candidates' });
    expect(web({ ignoreExcludeLB: true })?.result.owner).toBeDefined();
  });

  it('runs in steps (gathering the view, then a bounded number of services each), to the same result as in one go', () => {
    const many: ClusterSnapshot = {
      ...snapshot,
      services: Array.from({ length: 2 * SERVICES_PER_STEP + 10 }, (_, k) =>
        service(`s${k}`, [`198.18.0.${100 + (k % 100)}`], { namespace: 'bulk' }),
      ),
      endpointSlices: Array.from({ length: 2 * SERVICES_PER_STEP + 10 }, (_, k) =>
        slice([endpoint(names[k % 3]!)], `s${k}`, 'bulk'),
      ),
    };
    const steps = l2AssignmentSteps(many, config, alive, interfaces);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    // One after gathering the cluster view, then one after every SERVICES_PER_STEP services.
    expect(yields).toBe(1 + 2);
    const whole = l2Assignments(many, config, alive, interfaces);
    expect(step.value.map((a) => [a.service, a.result.owner])).toEqual(
      whole.map((a) => [a.service, a.result.owner]),
    );
    expect(whole).toHaveLength(2 * SERVICES_PER_STEP + 10);
  });
});
