import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot } from '../../core/cluster/types.ts';
import { loadConfig, type LbConfig } from '../../core/config/index.ts';
import type { Netns } from '../backends/netns/namespace.ts';
import { SutUnsupportedError } from './errors.ts';
import { renderFrrConfig } from './frr-config.ts';
import { renderGobgpConfig } from './gobgp-config.ts';
import { nodeOriginations, nodeSpeakerSpec, type NodeSpeakerSpec } from './node-speaker-config.ts';
import { resolveSpec } from './spec.ts';
import { webCluster } from './web-cluster.test-support.ts';

const base = `
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: lab, namespace: metallb-system }
spec: { addresses: [198.18.200.0/29] }
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: lab, namespace: metallb-system }
spec: { ipAddressPools: [lab], communities: ['64512:7', 'large:64512:1:2'] }
---
apiVersion: metallb.io/v1beta1
kind: BFDProfile
metadata: { name: fast, namespace: metallb-system }
spec: { receiveInterval: 100, transmitInterval: 150, detectMultiplier: 4 }
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r1, namespace: metallb-system }
spec: { myASN: 64513, peerASN: 64512, peerAddress: 198.18.0.1, holdTime: 9s, keepaliveTime: 3s, bfdProfile: fast, enableGracefulRestart: true }
`;

function config(extra = ''): LbConfig {
  const loaded = loadConfig([{ path: 'metallb.yaml', text: base + extra }]);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.config;
}

/** Nodes n1 (rack a) and n2 (rack b); Service web (ETP=Local) on 198.18.200.1 with endpoints on `on`. */
function cluster(on: string[]): ClusterSnapshot {
  return webCluster({
    nodes: [
      { name: 'n1', address: '198.18.0.11', labels: { rack: 'a' } },
      { name: 'n2', address: '198.18.0.12', labels: { rack: 'b' } },
    ],
    ingress: ['198.18.200.1'],
    endpointsOn: on,
    externalTrafficPolicy: 'Local',
  });
}

const render = (impl: 'frr' | 'gobgp', s: NodeSpeakerSpec) => {
  const { omitted: _omitted, ...spec } = s;
  const resolved = resolveSpec({ ...spec, ns: {} as Netns });
  return impl === 'frr' ? renderFrrConfig(resolved) : renderGobgpConfig(resolved);
};

describe('node speaker config from MetalLB resources', () => {
  it('derives the session, BFD profile, graceful restart and prefixes the BGPPeer asks of the node', () => {
    const spec = nodeSpeakerSpec('frr', config(), cluster(['n1']), 'n1');
    expect(spec).toMatchObject({ name: 'frr-n1', asn: 64513, routerId: '198.18.0.11', omitted: [] });
    expect(spec.gracefulRestart).toEqual({ restartTimeSec: 120, preserveForwardingState: true });
    expect(spec.neighbors).toEqual([
      {
        address: '198.18.0.1',
        asn: 64512,
        holdTimeSec: 9,
        keepaliveSec: 3,
        connectRetrySec: 120,
        gracefulRestart: true,
        bfd: { receiveMs: 100, transmitMs: 150, multiplier: 4 },
        families: ['ipv4'],
      },
    ]);
    expect(spec.originate).toEqual([
      { prefix: '198.18.200.1/32', communities: ['64512:7'], largeCommunities: ['64512:1:2'] },
    ]);
  });

  it('follows externalTrafficPolicy Local: a node without an endpoint announces nothing', () => {
    expect(nodeOriginations(config(), cluster(['n1']), 'n2')).toEqual([]);
    expect(nodeOriginations(config(), cluster(['n1', 'n2']), 'n2').map((o) => o.prefix)).toEqual([
      '198.18.200.1/32',
    ]);
  });

  it('renders FRR as frr-k8s runs it: network statement, BFD profile, graceful restart with the F bit', () => {
    const text = render('frr', nodeSpeakerSpec('frr', config(), cluster(['n1']), 'n1'));
    for (const line of [
      'router bgp 64513',
      ' bgp graceful-restart',
      ' bgp graceful-restart preserve-fw-state',
      ' neighbor 198.18.0.1 remote-as 64512',
      ' neighbor 198.18.0.1 timers 3 9',
      ' neighbor 198.18.0.1 graceful-restart',
      ' neighbor 198.18.0.1 bfd profile lblab-100-150-4',
      '  receive-interval 100',
      '  transmit-interval 150',
      '  detect-multiplier 4',
    ])
      expect(text.split('\n')).toContain(line);
    expect(text).toMatch(/network 198\.18\.200\.1\/32 route-map lblab-\S+/);
    expect(text).toContain(' set community 64512:7');
  });

  it('renders GoBGP without BFD, noting what it leaves out, with graceful restart', () => {
    const spec = nodeSpeakerSpec('gobgp', config(), cluster(['n1']), 'n1');
    expect(spec.neighbors[0]!.bfd).toBeUndefined();
    expect(spec.omitted).toEqual([expect.stringContaining('GoBGP has no BFD')]);
    expect(spec.gracefulRestart).toEqual({ restartTimeSec: 120, preserveForwardingState: false });
    const text = render('gobgp', spec);
    expect(text).toContain('neighbor-address = "198.18.0.1"');
    expect(text).toContain('hold-time = 9');
    expect(text).toContain('restart-time = 120');
  });

  it('a peer without enableGracefulRestart gets no graceful restart, as lblab would send none', () => {
    const text = base.replace(', enableGracefulRestart: true', '');
    const loaded = loadConfig([{ path: 'm.yaml', text }]);
    if (!loaded.ok) throw new Error('config');
    const spec = nodeSpeakerSpec('frr', loaded.config, cluster(['n1']), 'n1');
    expect(spec.gracefulRestart).toBeUndefined();
    expect(render('frr', spec)).toContain('neighbor 198.18.0.1 graceful-restart-disable');
  });

  it('refuses what one daemon instance cannot do rather than announce something else', () => {
    // A second peer whose advertisement is restricted to r1: the daemons announce one set to all.
    const peers = `---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r2, namespace: metallb-system }
spec: { myASN: 64513, peerASN: 64514, peerAddress: 198.18.0.2 }
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: only-r1, namespace: metallb-system }
spec: { ipAddressPools: [lab], peers: [r1], communities: ['64512:9'] }
`;
    expect(() => nodeSpeakerSpec('frr', config(peers), cluster(['n1']), 'n1')).toThrow(SutUnsupportedError);
    const otherAs = `---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r2, namespace: metallb-system }
spec: { myASN: 64600, peerASN: 64514, peerAddress: 198.18.0.2 }
`;
    expect(() => nodeSpeakerSpec('gobgp', config(otherAs), cluster(['n1']), 'n1')).toThrow(/local AS/);
  });

  it('a BGPPeer selecting other nodes only is left out', () => {
    const rackB = `---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: r2, namespace: metallb-system }
spec: { myASN: 64513, peerASN: 64514, peerAddress: 198.18.0.2, nodeSelectors: [{ matchLabels: { rack: b } }] }
`;
    const n1 = nodeSpeakerSpec('frr', config(rackB), cluster(['n1', 'n2']), 'n1');
    const n2 = nodeSpeakerSpec('frr', config(rackB), cluster(['n1', 'n2']), 'n2');
    expect(n1.neighbors.map((n) => n.address)).toEqual(['198.18.0.1']);
    expect(n2.neighbors.map((n) => n.address)).toEqual(['198.18.0.1', '198.18.0.2']);
  });
});
