import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../core/net/index.ts';
import { generateL2Topology } from './generate.ts';
import { labRanges } from './lab-ranges.ts';
import { generatedConfigOf } from './test-support.ts';

describe('generateL2Topology at scale (2000 nodes, 10,000 Services)', () => {
  const started = performance.now();
  const { topology, metallbYaml } = generateL2Topology({ nodes: 2000, services: 10_000, seed: 7 });
  const elapsedMs = performance.now() - started;

  it('is fast enough to generate in every scale run', () => {
    expect(elapsedMs).toBeLessThan(3000);
  });

  it('puts 2000 lblab-nodes and a client on one segment sized for them and the pool', () => {
    expect(topology.segments).toHaveLength(1);
    expect(String(topology.segments[0]?.ipv4)).toBe('198.18.0.0/17');
    expect(String(topology.segments[0]?.ipv6)).toBe('2001:db8::/64');
    expect(topology.nodes.filter((n) => n.kind === 'lblab-node')).toHaveLength(2000);
    expect(topology.nodes.filter((n) => n.kind === 'client').map((n) => n.name)).toEqual(['c1']);
    expect(topology.nodes[0]?.name).toBe('n0001');
    expect(topology.nodes[1999]?.attachments[0]?.ipv4).toBe('198.18.7.218/17');
  });

  it('gives every host unique addresses, all inside the lab ranges', () => {
    const addresses = topology.nodes.flatMap((n) => n.attachments.flatMap((a) => [a.ipv4, a.ipv6]));
    expect(addresses).toHaveLength(2001 * 2);
    expect(new Set(addresses).size).toBe(addresses.length);
    const outside = addresses.filter((a) => {
      const ip = IpAddress.parse(a.split('/')[0] ?? '');
      return !labRanges[ip.family].contains(ip);
    });
    expect(outside).toEqual([]);
  });

  it('names 10,000 Services svc-0000.. over a few namespaces, each with the UDP probe port and pods on three nodes', () => {
    expect(topology.services).toHaveLength(10_000);
    expect(topology.services[0]?.name).toBe('svc-0000');
    expect(topology.services[9999]?.name).toBe('svc-9999');
    expect(new Set(topology.services.map((s) => `${s.namespace}/${s.name}`)).size).toBe(10_000);
    expect(new Set(topology.services.map((s) => s.namespace)).size).toBe(4);
    expect(topology.services.every((s) => s.ports.some((p) => p.port === 7777 && p.protocol === 'UDP'))).toBe(
      true,
    );
    const local = topology.services.filter((s) => s.externalTrafficPolicy === 'Local');
    expect(local.length).toBeGreaterThan(500);
    expect(topology.services.every((s) => s.endpointsOn?.length === 3)).toBe(true);
  });

  it('writes MetalLB configuration with a pool for every Service, on-link for the client, clear of the hosts', () => {
    const config = generatedConfigOf(metallbYaml);
    const [pool] = config.pools;
    expect(config.pools).toHaveLength(1);
    expect(config.l2Advertisements).toHaveLength(1);
    expect(pool?.addresses.map((a) => a.text)).toEqual(['198.18.64.0/18']);
    const range = pool?.addresses[0]?.range;
    expect(range !== undefined && range.size >= 10_000n).toBe(true);
    expect(range !== undefined && labRanges[4].toRange().containsRange(range)).toBe(true);
    expect(range !== undefined && Prefix.parse('198.18.0.0/17').toRange().containsRange(range)).toBe(true);
    expect(range?.overlaps(Prefix.parse('198.18.0.0/21').toRange())).toBe(false);
  });
});

describe('generateL2Topology', () => {
  it('gives the same topology for the same seed and a different mix for another', () => {
    const a = generateL2Topology({ nodes: 5, services: 50, seed: 1 });
    expect(generateL2Topology({ nodes: 5, services: 50, seed: 1 })).toEqual(a);
    expect(generateL2Topology({ nodes: 5, services: 50, seed: 2 }).topology.services).not.toEqual(
      a.topology.services,
    );
  });

  it('makes a small lab: a /23 whose upper /24 is the pool', () => {
    const { topology, metallbYaml } = generateL2Topology({ nodes: 3, services: 2 });
    expect(topology.nodes.map((n) => `${n.name} ${n.attachments[0]?.ipv4}`)).toEqual([
      'n0001 198.18.0.11/23',
      'n0002 198.18.0.12/23',
      'n0003 198.18.0.13/23',
      'c1 198.18.0.14/23',
    ]);
    expect(generatedConfigOf(metallbYaml).pools[0]?.addresses.map((a) => a.text)).toEqual(['198.18.1.0/24']);
  });

  it('refuses counts that are not whole or do not fit the lab range', () => {
    expect(() => generateL2Topology({ nodes: 0, services: 1 })).toThrow(RangeError);
    expect(() => generateL2Topology({ nodes: 2.5, services: 1 })).toThrow(RangeError);
    expect(() => generateL2Topology({ nodes: 1, services: -1 })).toThrow(RangeError);
    expect(() => generateL2Topology({ nodes: 1, services: 200_000 })).toThrow(/do not fit/);
  });
});
