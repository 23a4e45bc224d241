/**
 * Every topology in topologies/ must parse, match the published schema and come with MetalLB files that
 * load cleanly, keep to the lab ranges and agree with the topology (pools where clients reach them, BGP
 * peers at the router's address and AS).
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfigFiles } from '../../core/config/read-files.ts';
import { formatIssue } from '../../core/config/issues.ts';
import { loadConfig } from '../../core/config/load.ts';
import type { LbConfig } from '../../core/config/model.ts';
import { IpAddress } from '../../core/net/index.ts';
import { insideLabRange } from './lab-ranges.ts';
import { parseTopology } from './parse.ts';
import { readTopology } from './read.ts';
import { loadSchema, schemaErrors } from './schema-check.test-support.ts';
import type { Topology } from './topology.ts';

const catalog = join(import.meta.dirname, '..', '..', 'topologies');
const files = readdirSync(catalog).filter((f) => f.endsWith('.yaml') && !f.endsWith('.metallb.yaml'));
const schema = loadSchema();

async function load(file: string): Promise<{ topology: Topology; config: LbConfig }> {
  const read = await readTopology(join(catalog, file));
  if (!read.ok) throw new Error(read.errors.map(formatIssue).join('\n'));
  const loaded = loadConfig(await readConfigFiles(read.topology.configFiles));
  if (!loaded.ok) throw new Error(loaded.errors.map(formatIssue).join('\n'));
  expect(loaded.warnings.map(formatIssue)).toEqual([]);
  return { topology: read.topology, config: loaded.config };
}

const hostAddresses = (t: Topology) =>
  t.nodes
    .flatMap((n) => n.attachments.flatMap((a) => [a.ipv4, a.ipv6]))
    .map((a) => IpAddress.parse(a.split('/')[0] ?? ''));

describe('the topology catalog', () => {
  it('holds the catalog', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'l2-three-nodes.yaml',
        'l2-two-segments.yaml',
        'hcp-api-bgp.yaml',
        'bgp-three-nodes.yaml',
        'bgp-hold-timer.yaml',
      ]),
    );
  });

  it.each(files)(
    '%s validates against the parser and the schema, with MetalLB files that load',
    async (file) => {
      const { topology, config } = await load(file);
      expect(topology.name).toBe(basename(file, '.yaml'));
      expect(schemaErrors(schema, parse(await readFile(join(catalog, file), 'utf8')))).toEqual([]);
      expect(topology.configFiles.length).toBeGreaterThan(0);
      const pools = config.pools.flatMap((p) => p.addresses.flatMap((a) => a.range.toPrefixes()));
      expect(pools.filter((p) => !insideLabRange(p)).map(String)).toEqual([]);
    },
  );

  it('includes a README whose example topology is valid', async () => {
    const readme = await readFile(join(catalog, 'README.md'), 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const result = parseTopology(join(catalog, 'example.yaml'), example);
    expect(result.ok ? [] : result.errors.map(formatIssue)).toEqual([]);
    expect(schemaErrors(schema, parse(example))).toEqual([]);
  });

  it.each(files.filter((f) => f.startsWith('l2-')))(
    '%s has its pools on a segment and clear of its hosts',
    async (file) => {
      const { topology, config } = await load(file);
      const hosts = hostAddresses(topology);
      for (const pool of config.pools) {
        for (const { text, range } of pool.addresses) {
          const segment = topology.segments.find((s) =>
            (range.family === 4 ? s.ipv4 : s.ipv6).toRange().containsRange(range),
          );
          expect(segment, `${pool.meta.name} ${text} lies on a segment`).toBeDefined();
          expect(hosts.filter((h) => range.contains(h)).map(String)).toEqual([]);
        }
      }
    },
  );
});

describe('catalog topologies say what they are for', () => {
  it('l2-three-nodes: three lblab-nodes and a client on one segment, a dual-stack UDP Service', async () => {
    const { topology } = await load('l2-three-nodes.yaml');
    expect(topology.segments.map((s) => `${s.name} ${s.ipv4} ${s.ipv6}`)).toEqual([
      'lan 198.18.0.0/24 2001:db8::/64',
    ]);
    expect(
      topology.nodes.map((n) => `${n.name} ${n.kind} ${n.attachments.map((a) => a.segment).join()}`),
    ).toEqual(['n1 lblab-node lan', 'n2 lblab-node lan', 'n3 lblab-node lan', 'c1 client lan']);
    expect(topology.services).toEqual([
      {
        name: 'web',
        namespace: 'lab',
        ports: [{ port: 7777, protocol: 'UDP' }],
        ipFamilyPolicy: 'RequireDualStack',
        annotations: {},
      },
    ]);
  });

  it('l2-two-segments: two nodes and a client per segment, a pool announced by each zone', async () => {
    const { topology, config } = await load('l2-two-segments.yaml');
    const where = (name: string) => topology.nodes.find((n) => n.name === name)?.attachments[0]?.segment;
    expect(['n1', 'n2', 'c1'].map(where)).toEqual(['lan-a', 'lan-a', 'lan-a']);
    expect(['n3', 'n4', 'c2'].map(where)).toEqual(['lan-b', 'lan-b', 'lan-b']);
    expect(config.pools.map((p) => p.meta.name)).toEqual(['pool-a', 'pool-b']);
    expect(config.l2Advertisements.map((a) => a.nodeSelectors)).toEqual([
      [{ matchLabels: { 'topology.kubernetes.io/zone': 'zone-a' } }],
      [{ matchLabels: { 'topology.kubernetes.io/zone': 'zone-b' } }],
    ]);
    const zoneOf = (name: string) =>
      topology.nodes.find((n) => n.name === name)?.labels['topology.kubernetes.io/zone'];
    expect(['n1', 'n2', 'n3', 'n4'].map(zoneOf)).toEqual(['zone-a', 'zone-a', 'zone-b', 'zone-b']);
  });

  it('hcp-api-bgp: the nodes peer with r1 at its address and AS, and c1 sits behind r1', async () => {
    const { topology, config } = await load('hcp-api-bgp.yaml');
    const r1 = topology.nodes.find((n) => n.name === 'r1');
    expect(r1).toMatchObject({ kind: 'router', impl: 'frr', asn: 64512, peers: ['n1', 'n2', 'n3'] });
    expect(topology.nodes.find((n) => n.name === 'c1')).toMatchObject({ kind: 'client', behind: 'r1' });
    const [peer] = config.peers;
    expect(config.peers).toHaveLength(1);
    expect(peer).toMatchObject({ myASN: 64513, peerASN: r1?.asn });
    expect(r1?.attachments.map((a) => a.ipv4.split('/')[0])).toContain(peer?.peerAddress.toString());
    expect(config.pools[0]?.addresses.map((a) => a.range.toPrefixes().map(String))).toEqual([
      ['198.18.100.10/32'],
    ]);
    // A dead node must leave r1's ECMP set in BFD time, not after the 90 s default hold time.
    expect(config.bfdProfiles.find((p) => p.meta.name === peer?.bfdProfile)).toBeDefined();
  });

  it.each([
    ['bgp-three-nodes.yaml', { bfd: true, gracefulRestart: true }],
    ['bgp-hold-timer.yaml', { bfd: false, gracefulRestart: false }],
  ])('%s: every node peers with r1; BFD and graceful restart as its scenarios need', async (file, want) => {
    const { topology, config } = await load(file);
    const r1 = topology.nodes.find((n) => n.name === 'r1');
    expect(r1?.peers).toEqual(['n1', 'n2', 'n3']);
    expect(topology.nodes.find((n) => n.name === 'c1')).toMatchObject({ kind: 'client', behind: 'r1' });
    const [peer] = config.peers;
    expect(peer).toMatchObject({ peerASN: r1?.asn, enableGracefulRestart: want.gracefulRestart });
    expect(peer?.bfdProfile !== undefined).toBe(want.bfd);
    if (!want.bfd) expect(peer?.holdTimeMs).toBe(3000);
  });
});
