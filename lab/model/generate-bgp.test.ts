import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../core/net/index.ts';
import { clusterOf } from '../backends/cluster.ts';
import { routerPeers } from '../backends/emulated/router-peers.ts';
import { bgpTopologyDocument, generateBgpTopology, nodeAsn, rackLabel } from './generate-bgp.ts';
import { labRanges } from './lab-ranges.ts';
import { generatedConfigOf } from './test-support.ts';
import { loadSchema, schemaErrors } from './schema-check.test-support.ts';

describe('generateBgpTopology at 500 nodes (25 racks of 20)', () => {
  const generated = generateBgpTopology({ nodes: 500, services: 2500, seed: 3 });
  const { topology, racks } = generated;
  const config = generatedConfigOf(generated.metallbYaml);
  const named = (name: string) => topology.nodes.find((n) => n.name === name)!;

  it('puts each rack of 20 nodes on its own segment with two FRR leaves, each in an AS of its own', () => {
    expect(racks.map((r) => r.name)).toEqual(
      Array.from({ length: 25 }, (_, i) => `rack${String(i + 1).padStart(2, '0')}`),
    );
    expect(racks.every((r) => r.nodes.length === 20)).toBe(true);
    expect(new Set(racks.flatMap((r) => r.nodes)).size).toBe(500);
    const rack07 = racks[6]!;
    expect(rack07.leaves).toEqual(['rack07-a', 'rack07-b']);
    for (const name of [...rack07.leaves, ...rack07.nodes])
      expect(named(name).attachments.map((a) => a.segment)).toEqual([
        'rack07',
        ...(name === 'rack01-a' ? ['rack01-a-c1'] : []),
      ]);
    const leaves = topology.nodes.filter((n) => n.kind === 'router');
    expect(leaves).toHaveLength(50);
    expect(leaves.every((l) => l.impl === 'frr')).toBe(true);
    expect(new Set(leaves.map((l) => l.asn)).size).toBe(50);
    expect(leaves.every((l) => l.asn! >= 64512 && l.asn! <= 65534 && l.asn !== nodeAsn)).toBe(true);
    expect(named('rack07-b').peers).toEqual(rack07.nodes);
    expect(named(rack07.nodes[0]!).labels[rackLabel]).toBe('rack07');
  });

  it('puts the client behind the first leaf of the first rack', () => {
    expect(generated.client).toEqual({ name: 'c1', leaf: 'rack01-a', rack: racks[0] });
    expect(named('c1').behind).toBe('rack01-a');
  });

  it('gives every node a BGPPeer for each leaf of its rack, with the catalog BFD profile, and no other', () => {
    expect(config.peers).toHaveLength(50);
    expect(
      config.bfdProfiles.map((p) => [
        p.meta.name,
        p.receiveIntervalMs,
        p.transmitIntervalMs,
        p.detectMultiplier,
      ]),
    ).toEqual([['fast', 100, 100, 3]]);
    const cluster = clusterOf(topology);
    // What the emulator configures each leaf with, read from the nodes' own BGPPeers and labels.
    for (const rack of [racks[0]!, racks[24]!])
      for (const leaf of rack.leaves) {
        const { peers, leftOut } = routerPeers(topology, named(leaf), config, cluster);
        expect(leftOut).toEqual([]);
        expect(peers.map((p) => p.node)).toEqual(rack.nodes);
        expect(peers.every((p) => p.bgpPeer === leaf && p.peerAs === nodeAsn && p.direct)).toBe(true);
        expect(peers.every((p) => p.bfd?.detectMultiplier === 3 && p.bfd.receiveIntervalMs === 100)).toBe(
          true,
        );
      }
    const peer = config.peers.find((p) => p.meta.name === 'rack07-b')!;
    expect(peer.peerAddress.toString()).toBe(named('rack07-b').attachments[0]!.ipv4.split('/')[0]);
    expect(peer.peerASN).toBe(named('rack07-b').asn);
    expect(peer.nodeSelectors).toHaveLength(1);
  });

  it('announces every Service (all externalTrafficPolicy Cluster) from one pool as /32s', () => {
    expect(topology.services).toHaveLength(2500);
    expect(topology.services.every((s) => (s.externalTrafficPolicy ?? 'Cluster') === 'Cluster')).toBe(true);
    expect(config.pools).toHaveLength(1);
    expect(config.pools[0]!.addresses[0]!.range.size >= 2500n).toBe(true);
    expect(config.bgpAdvertisements.map((a) => [a.ipAddressPools, a.aggregationLength])).toEqual([
      [['scale-pool'], 32],
    ]);
  });

  it('takes every address from the lab ranges, unique, with the pool clear of every subnet', () => {
    const addresses = topology.nodes.flatMap((n) => n.attachments.flatMap((a) => [a.ipv4, a.ipv6]));
    expect(new Set(addresses).size).toBe(addresses.length);
    const outside = addresses.filter((a) => {
      const ip = IpAddress.parse(a.split('/')[0]!);
      return !labRanges[ip.family].contains(ip);
    });
    expect(outside).toEqual([]);
    const pool = config.pools[0]!.addresses[0]!.range;
    expect(labRanges[4].toRange().containsRange(pool)).toBe(true);
    expect(topology.segments.filter((s) => Prefix.parse(String(s.ipv4)).toRange().overlaps(pool))).toEqual(
      [],
    );
  });
});

describe('generateBgpTopology', () => {
  it('writes a document that conforms to the published topology schema', () => {
    const { document } = bgpTopologyDocument({ nodes: 45, services: 10, nodesPerRack: 20 });
    expect(schemaErrors(loadSchema(), document)).toEqual([]);
  });

  it('gives the last rack what is left, and the same topology for the same seed', () => {
    const a = generateBgpTopology({ nodes: 45, services: 10, nodesPerRack: 20, seed: 1 });
    expect(a.racks.map((r) => r.nodes.length)).toEqual([20, 20, 5]);
    expect(a.racks[2]!.nodes).toEqual(['n0041', 'n0042', 'n0043', 'n0044', 'n0045']);
    expect(generateBgpTopology({ nodes: 45, services: 10, nodesPerRack: 20, seed: 1 })).toEqual(a);
  });

  it('refuses racks or Services the lab range cannot hold, and counts that are not whole', () => {
    expect(() => generateBgpTopology({ nodes: 10, services: 1, nodesPerRack: 0 })).toThrow(/nodesPerRack/);
    expect(() => generateBgpTopology({ nodes: 2000, services: 1, nodesPerRack: 2 })).toThrow(/1000 racks/);
    expect(() => generateBgpTopology({ nodes: 10, services: 40_000 })).toThrow(
      /do not fit in 198\.19\.0\.0\/17/,
    );
    expect(() => generateBgpTopology({ nodes: 0, services: 1 })).toThrow(RangeError);
  });
});
