import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot } from '../../cluster/types.ts';
import { loadConfig, type LbConfig } from '../../config/index.ts';
import { endpoint, node, service, slice } from '../../l2/election/test-fixtures.ts';
import { excludeFromLoadBalancersLabel } from '../../l2/election/index.ts';
import { advertisedRoutes } from './advertised-routes.ts';
import { GRACEFUL_SHUTDOWN, withGracefulShutdown } from './route.ts';

const yaml = `
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: api, namespace: metallb-system }
spec: { addresses: [198.18.100.0/28, '2001:db8:100::/124'] }
---
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: wide, namespace: metallb-system }
spec: { addresses: [198.18.101.0/24] }
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r1, namespace: metallb-system }
spec: { myASN: 64513, peerASN: 64512, peerAddress: 198.18.0.1 }
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r2, namespace: metallb-system }
spec: { myASN: 64513, peerASN: 64513, peerAddress: 198.18.0.2 }
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: api, namespace: metallb-system }
spec:
  ipAddressPools: [api]
  communities: [64512:100, 'large:64512:1:2']
  localPref: 150
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: api-no-export, namespace: metallb-system }
spec: { ipAddressPools: [api], communities: ['65535:65281'], peers: [r2], localPref: 150 }
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: wide, namespace: metallb-system }
spec:
  ipAddressPools: [wide]
  aggregationLength: 24
  nodeSelectors: [{ matchLabels: { rack: a } }]
`;

function config(): LbConfig {
  const r = loadConfig([{ path: 'bgp.yaml', text: yaml }]);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.config;
}

const snapshot: ClusterSnapshot = {
  namespaces: [],
  nodes: [
    node('n1', { labels: { rack: 'a' } }),
    node('n2'),
    node('n3', { labels: { [excludeFromLoadBalancersLabel]: '' } }),
  ],
  services: [
    service('kube-apiserver', ['198.18.100.1', '2001:db8:100::1'], { namespace: 'hosted' }),
    service('local', ['198.18.100.2'], { namespace: 'hosted', etp: 'Local' }),
    service('a', ['198.18.101.7'], { namespace: 'hosted' }),
    service('b', ['198.18.101.9'], { namespace: 'hosted' }),
    service('cold', ['198.18.100.3'], { namespace: 'hosted' }),
  ],
  endpointSlices: [
    slice([endpoint('n2')], 'kube-apiserver', 'hosted'),
    slice([endpoint('n2')], 'local', 'hosted'),
    slice([endpoint('n2')], 'a', 'hosted'),
    slice([endpoint('n2')], 'b', 'hosted'),
    slice([endpoint('n2', { ready: false })], 'cold', 'hosted'),
  ],
};

const peer = (name: string) => config().peers.find((p) => p.meta.name === name)!;
const view = (nodeName: string, peerName: string) =>
  Object.fromEntries(
    advertisedRoutes(snapshot, config(), nodeName, peer(peerName)).map((r) => [
      r.prefix.toString(),
      r.attributes,
    ]),
  );

describe('routes a node advertises to a peer (MetalLB BGP rules)', () => {
  it('every node announces Cluster services with a serving endpoint, IPv4 and IPv6, /32 and /128 by default', () => {
    const n2 = view('n2', 'r1');
    expect(Object.keys(n2).sort()).toEqual(['198.18.100.1/32', '198.18.100.2/32', '2001:db8:100::1/128']);
    expect(n2['198.18.100.1/32']).toEqual({
      communities: [64512 * 65536 + 100],
      largeCommunities: [{ globalAdmin: 64512, localData1: 1, localData2: 2 }],
      localPref: 150,
    });
  });

  it('externalTrafficPolicy Local: only nodes with a local endpoint announce', () => {
    expect(Object.keys(view('n1', 'r1'))).not.toContain('198.18.100.2/32');
    expect(Object.keys(view('n2', 'r1'))).toContain('198.18.100.2/32');
  });

  it('an advertisement limited to some peers adds its communities only there', () => {
    expect(view('n2', 'r2')['198.18.100.1/32']?.communities).toEqual([64512 * 65536 + 100, 0xffffff01]);
    expect(view('n2', 'r1')['198.18.100.1/32']?.communities).toEqual([64512 * 65536 + 100]);
  });

  it('node selectors and aggregation length: two services in one /24 are one route, from rack a only', () => {
    expect(view('n1', 'r1')['198.18.101.0/24']).toEqual({ communities: [], largeCommunities: [] });
    expect(Object.keys(view('n2', 'r1'))).not.toContain('198.18.101.0/24');
  });

  it('nothing from a node excluded from load balancers, and nothing for a service without serving endpoints', () => {
    expect(view('n3', 'r1')).toEqual({});
    expect(Object.keys(view('n2', 'r1'))).not.toContain('198.18.100.3/32');
  });

  it('draining adds GRACEFUL_SHUTDOWN, and LOCAL_PREF 0 on iBGP (RFC 8326)', () => {
    const [route] = advertisedRoutes(snapshot, config(), 'n2', peer('r1'));
    const ebgp = withGracefulShutdown(route!, false);
    expect(ebgp.attributes.communities).toContain(GRACEFUL_SHUTDOWN);
    expect(ebgp.attributes.localPref).toBe(route!.attributes.localPref);
    expect(withGracefulShutdown(route!, true).attributes.localPref).toBe(0);
  });
});
