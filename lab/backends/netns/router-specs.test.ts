import { describe, expect, it } from 'vitest';
import { loadConfig, type LbConfig } from '../../../core/config/index.ts';
import { topologyOf } from '../../model/test-support.ts';
import { LabRouterConfigError, routerSpecs } from './router-specs.ts';

const lan = {
  segments: { lan: {} },
  nodes: {
    r1: { kind: 'router', impl: 'frr', asn: 64512, links: ['lan'], peers: ['n1', 'n2'] },
    n1: { kind: 'lblab-node', links: ['lan'] },
    n2: { kind: 'lblab-node', links: ['lan'], labels: { rack: 'b' } },
  },
};

function config(...docs: string[]): LbConfig {
  const loaded = loadConfig([{ path: 'metallb.yaml', text: docs.join('---\n') }]);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.config;
}

const peer = (spec: string, name = 'r1') => `apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: ${name}, namespace: metallb-system }
spec: { ${spec} }
`;
const bfd = `apiVersion: metallb.io/v1beta1
kind: BFDProfile
metadata: { name: fast, namespace: metallb-system }
spec: { receiveInterval: 100, transmitInterval: 150, detectMultiplier: 3 }
`;

describe('routerSpecs', () => {
  it('gives the router one neighbor per node, with the BGPPeer AS, timers and BFD profile, GR helper and ECMP', () => {
    const [r1] = routerSpecs(
      topologyOf(lan),
      config(
        bfd,
        peer(
          'myASN: 64513, peerASN: 64512, peerAddress: 198.18.0.1, holdTime: 9s, keepaliveTime: 3s, bfdProfile: fast',
        ),
      ),
    );
    expect(r1).toMatchObject({
      node: 'r1',
      impl: 'frr',
      spec: { asn: 64512, routerId: '198.18.0.1', ecmp: 2, gracefulRestart: { restartTimeSec: 120 } },
    });
    expect(r1!.spec.neighbors).toEqual(
      ['198.18.0.11', '198.18.0.12'].map((address) => ({
        address,
        asn: 64513,
        holdTimeSec: 9,
        keepaliveSec: 3,
        connectRetrySec: 1,
        families: ['ipv4'],
        bfd: { receiveMs: 100, transmitMs: 150, multiplier: 3 },
      })),
    );
  });

  it('takes each node AS from the BGPPeer that selects it, MetalLB default timers when none are set, and the IPv6 peer too', () => {
    const [r1] = routerSpecs(
      topologyOf(lan),
      config(
        peer(
          'myASN: 64513, peerASN: 64512, peerAddress: 198.18.0.1, nodeSelectors: [{ matchLabels: { rack: a } }]',
          'a',
        ),
        peer(
          'myASN: 64514, peerASN: 64512, peerAddress: 198.18.0.1, nodeSelectors: [{ matchLabels: { rack: b } }]',
          'b',
        ),
        peer(`myASN: 64513, peerASN: 64512, peerAddress: '2001:db8::1'`, 'v6'),
      ),
    );
    expect(r1!.spec.neighbors.map((n) => [n.address, n.asn, n.holdTimeSec, n.keepaliveSec])).toEqual([
      ['2001:db8::b', 64513, 90, 30],
      ['198.18.0.12', 64514, 90, 30],
      ['2001:db8::c', 64513, 90, 30],
    ]);
  });

  it('refuses what would leave a session down: no BGPPeer aimed at the router, a wrong peerASN, BFD on GoBGP', () => {
    const t = topologyOf(lan);
    expect(() =>
      routerSpecs(t, config(peer('myASN: 64513, peerASN: 64512, peerAddress: 198.18.0.99'))),
    ).toThrow(/r1: peers with n1, but no BGPPeer selecting n1 has peerAddress 198.18.0.1/);
    expect(() =>
      routerSpecs(t, config(peer('myASN: 64513, peerASN: 64999, peerAddress: 198.18.0.1'))),
    ).toThrow(/peerASN 64999 is not the router's asn 64512/);
    const gobgp = topologyOf({ ...lan, nodes: { ...lan.nodes, r1: { ...lan.nodes.r1, impl: 'gobgp' } } });
    expect(() =>
      routerSpecs(
        gobgp,
        config(bfd, peer('myASN: 64513, peerASN: 64512, peerAddress: 198.18.0.1, bfdProfile: fast')),
      ),
    ).toThrow(LabRouterConfigError);
    expect(() =>
      routerSpecs(
        gobgp,
        config(bfd, peer('myASN: 64513, peerASN: 64512, peerAddress: 198.18.0.1, bfdProfile: fast')),
      ),
    ).toThrow(/GoBGP has no BFD/);
  });
});
