import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../../core/net/index.ts';
import { readTopology } from '../../model/index.ts';
import type { Topology } from '../../model/topology.ts';
import { ipFamilyOf, kindClusterConfig, kindConfigYaml } from './kind-config.ts';
import { LAB_NODE_LABEL } from './kind-names.ts';
import { kindNetworkSpec, networkCreateArgs } from './kind-network.ts';
import YAML from 'yaml';

const labRanges = [Prefix.parse('198.18.0.0/15'), Prefix.parse('2001:db8::/32')];
const inLabRanges = (cidr: string) => {
  const p = Prefix.parse(cidr);
  return labRanges.some((r) => r.contains(p.network) && p.length >= r.length);
};

async function topology(file: string): Promise<Topology> {
  const read = await readTopology(`topologies/${file}`);
  if (!read.ok) throw new Error(`${file}: ${JSON.stringify(read.errors)}`);
  return read.topology;
}

const files = (await readdir('topologies')).filter(
  (f) => f.endsWith('.yaml') && !f.endsWith('.metallb.yaml'),
);

describe('kindClusterConfig on the repository topologies', () => {
  it.each(files)(
    '%s: a control plane and one labelled worker per lblab-node, subnets in the lab ranges',
    async (file) => {
      const t = await topology(file);
      const config = kindClusterConfig(t, { runId: 'abc123', nodeImage: 'kindest/node:v1.36.1' });
      const lblab = t.nodes.filter((n) => n.kind === 'lblab-node');
      expect(config.name).toBe('lblab-abc123');
      expect(config.nodes.map((n) => n.role)).toEqual(['control-plane', ...lblab.map(() => 'worker')]);
      expect(config.nodes.slice(1).map((n) => n.labels?.[LAB_NODE_LABEL])).toEqual(lblab.map((n) => n.name));
      for (const [i, n] of lblab.entries()) expect(config.nodes[i + 1]!.labels).toMatchObject(n.labels);
      const subnets = [config.networking.podSubnet, config.networking.serviceSubnet].flatMap((s) =>
        s.split(','),
      );
      for (const s of subnets) expect(inLabRanges(s), s).toBe(true);
      const spec = kindNetworkSpec(t, 'abc123');
      const hostAddresses = t.nodes.flatMap((n) => n.attachments.flatMap((a) => [a.ipv4, a.ipv6]));
      for (const { subnet, gateway, nodeRange } of spec.subnets) {
        expect(inLabRanges(subnet), subnet).toBe(true);
        const p = Prefix.parse(subnet);
        const range = Prefix.parse(nodeRange);
        expect(p.contains(IpAddress.parse(gateway))).toBe(true);
        // kind's nodes get addresses no host of the topology has, and never the gateway's.
        expect(p.contains(range.first) && p.contains(range.last), nodeRange).toBe(true);
        expect(range.contains(IpAddress.parse(gateway))).toBe(false);
        for (const h of hostAddresses)
          expect(range.contains(IpAddress.parse(h.split('/')[0]!)), h).toBe(false);
        expect(range.size).toBeGreaterThanOrEqual(BigInt(2 * config.nodes.length));
      }
      // What kind reads back is what was generated (no field lost to YAML).
      expect(YAML.parse(kindConfigYaml(config))).toEqual(config);
    },
  );

  it('asks for dual-stack when a Service needs both families, and takes the matrix override', async () => {
    const t = await topology('l2-three-nodes.yaml');
    expect(ipFamilyOf(t)).toBe('dual');
    const dual = kindClusterConfig(t, { runId: 'r', nodeImage: 'i' }).networking;
    expect(dual.ipFamily).toBe('dual');
    expect(dual.podSubnet.split(',').map((s) => Prefix.parse(s).family)).toEqual([4, 6]);
    const v6 = kindClusterConfig(t, { runId: 'r', nodeImage: 'i', ipFamily: 'ipv6' }).networking;
    expect(v6).toMatchObject({ ipFamily: 'ipv6' });
    expect(Prefix.parse(v6.serviceSubnet).family).toBe(6);
  });

  it('derives the family from single-stack Services: IPv4 by default, IPv6 when every one asks for it', async () => {
    const t = await topology('l2-three-nodes.yaml');
    const svc = t.services[0]!;
    const single = (families: ('IPv4' | 'IPv6')[]) => ({
      ...t,
      services: [{ ...svc, ipFamilyPolicy: 'SingleStack' as const, ipFamilies: families }],
    });
    expect(ipFamilyOf(single(['IPv6']))).toBe('ipv6');
    expect(ipFamilyOf(single(['IPv4']))).toBe('ipv4');
    expect(ipFamilyOf({ ...t, services: [] })).toBe('ipv4');
  });

  it('refuses a topology whose segment overlaps the pod subnets, naming the segment', async () => {
    const t = await topology('l2-three-nodes.yaml');
    const clash = { ...t, segments: t.segments.map((s) => ({ ...s, ipv4: Prefix.parse('198.19.0.0/24') })) };
    expect(() => kindClusterConfig(clash, { runId: 'r', nodeImage: 'i' })).toThrow(
      /segment lan \(198\.19\.0\.0\/24\) overlaps the kind cluster's pod or Service subnet 198\.19\.0\.0\/17/,
    );
  });
});

describe('kind node labels', () => {
  it("keeps the kubelet's own labels and refuses a reserved one it would not start with, naming node and label", async () => {
    const t = await topology('l2-two-segments.yaml');
    expect(kindClusterConfig(t, { runId: 'r', nodeImage: 'i' }).nodes[1]!.labels).toEqual({
      'topology.kubernetes.io/zone': 'zone-a',
      [LAB_NODE_LABEL]: 'n1',
    });
    const withLabel = (key: string) => ({
      ...t,
      nodes: t.nodes.map((n) => (n.name === 'n3' ? { ...n, labels: { [key]: 'x' } } : n)),
    });
    expect(() =>
      kindClusterConfig(withLabel('node-role.kubernetes.io/lb'), { runId: 'r', nodeImage: 'i' }),
    ).toThrow(/nodes\.n3\.labels: a kubelet refuses to start with node-role\.kubernetes\.io\/lb/);
    for (const ok of ['node.kubernetes.io/exclude-from-external-load-balancers', 'example.com/rack', 'rack'])
      expect(() => kindClusterConfig(withLabel(ok), { runId: 'r', nodeImage: 'i' })).not.toThrow();
  });
});

describe('kindNetworkSpec', () => {
  it("gives the nodes' segment its own subnets, a gateway no host of the topology uses, and the run label", async () => {
    const t = await topology('l2-three-nodes.yaml');
    const spec = kindNetworkSpec(t, 'abc123');
    expect(spec.subnets).toEqual([
      { subnet: '198.18.0.0/24', gateway: '198.18.0.254', nodeRange: '198.18.0.16/29' },
      { subnet: '2001:db8::/64', gateway: '2001:db8::ffff:ffff:ffff:fffe', nodeRange: '2001:db8::10/125' },
    ]);
    expect(networkCreateArgs(spec)).toEqual([
      'network',
      'create',
      '--driver',
      'bridge',
      '--ipv6',
      '--subnet',
      '198.18.0.0/24',
      '--gateway',
      '198.18.0.254',
      '--ip-range',
      '198.18.0.16/29',
      '--subnet',
      '2001:db8::/64',
      '--gateway',
      '2001:db8::ffff:ffff:ffff:fffe',
      '--ip-range',
      '2001:db8::10/125',
      '--label',
      'io.lblab.run=abc123',
      '--opt',
      'com.docker.network.bridge.enable_ip_masquerade=true',
      'lblab-kind-abc123',
    ]);
  });

  it('takes every segment the lblab-nodes sit on, IPv4 subnets first', async () => {
    const spec = kindNetworkSpec(await topology('l2-two-segments.yaml'), 'r');
    expect(spec.subnets.map((s) => s.subnet)).toEqual([
      '198.18.0.0/24',
      '198.18.1.0/24',
      '2001:db8::/64',
      '2001:db8:0:1::/64',
    ]);
  });
});
