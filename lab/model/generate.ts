/**
 * Generated L2 topologies for scale runs (2000 nodes, 10,000 Services): one segment sized for every
 * node, one client, and MetalLB configuration with a pool that holds every Service. The document goes
 * through the same resolver as a file, so a generated topology obeys every rule a written one does.
 */
import { stringify } from 'yaml';
import { formatIssue } from '../../core/config/issues.ts';
import { Random } from '../../core/runtime/random.ts';
import { Prefix } from '../../core/net/index.ts';
import { labRanges } from './lab-ranges.ts';
import { resolveTopology } from './parse.ts';
import type { Topology } from './topology.ts';

export interface GenerateOptions {
  nodes: number;
  services: number;
  /** Picks each Service's ports and traffic policy; the same seed gives the same topology. Default 1. */
  seed?: number;
}

export interface GeneratedTopology {
  topology: Topology;
  /** An IPAddressPool holding every Service (IPv4) and an L2Advertisement for it, as one YAML file. */
  metallbYaml: string;
}

/** Services spread over a few namespaces, as a shared cluster's teams would own them. */
const namespaces = ['scale-a', 'scale-b', 'scale-c', 'scale-d'];
/** Every Service answers the lab's UDP probes on 7777; some also get a TCP port, for variety. */
const probePort = '7777/UDP';
const extraPorts = ['80/TCP', '443/TCP', '8080/TCP'];
/** The share of Services with externalTrafficPolicy Local. */
const localShare = 0.1;
/**
 * Every Service's pods run on a few nodes, as a Deployment's replicas would: an endpoint on every node
 * for 10,000 Services would be 20 million endpoints at 2000 nodes, which no real cluster has.
 */
const replicas = 3;

const padded = (i: number, count: number) => String(i).padStart(Math.max(4, String(count).length), '0');

function serviceDocs(count: number, nodeNames: readonly string[], random: Random): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const service: Record<string, unknown> = {
      name: `svc-${padded(i, count - 1)}`,
      namespace: namespaces[i % namespaces.length],
      ports: random.chance(0.5) ? [probePort, random.pick(extraPorts)] : [probePort],
    };
    if (random.chance(localShare)) service['externalTrafficPolicy'] = 'Local';
    const on = new Set<string>();
    while (on.size < Math.min(replicas, nodeNames.length)) on.add(random.pick(nodeNames));
    service['endpointsOn'] = [...on].sort();
    return service;
  });
}

/** The smallest block holding `count` addresses, never smaller than a /24. */
function poolLength(count: number): number {
  let length = 24;
  while (length > labRanges[4].length && 1 << (32 - length) < count) length--;
  return length;
}

function metallbDocuments(pool: string): string {
  const metadata = (name: string) => ({ name, namespace: 'metallb-system' });
  const docs = [
    {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'IPAddressPool',
      metadata: metadata('scale-pool'),
      spec: { addresses: [pool] },
    },
    {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'L2Advertisement',
      metadata: metadata('scale-l2'),
      spec: { ipAddressPools: ['scale-pool'] },
    },
  ];
  return docs.map((d) => stringify(d)).join('---\n');
}

/** Host bits of a segment whose lower half holds the nodes (from .11) and upper half the pool. */
function segmentBits(nodes: number, services: number): number {
  const poolBits = 32 - poolLength(services);
  const hostBits = Math.ceil(Math.log2(nodes + 32));
  return Math.max(poolBits, hostBits) + 1;
}

export function generateL2Topology(options: GenerateOptions): GeneratedTopology {
  const { nodes, services, seed = 1 } = options;
  if (!Number.isInteger(nodes) || nodes < 1)
    throw new RangeError(`nodes must be a positive integer, got ${nodes}`);
  if (!Number.isInteger(services) || services < 0) {
    throw new RangeError(`services must be a non-negative integer, got ${services}`);
  }
  // Checked before ten thousands of Services are built only to be refused.
  if (1 << (32 - poolLength(services)) < services) {
    throw new RangeError(`${services} Services do not fit in ${labRanges[4]}`);
  }
  const random = new Random(seed);
  const nodeNames = Array.from({ length: nodes }, (_, i) => `n${padded(i + 1, nodes)}`);
  const name = `l2-scale-${nodes}-nodes-${services}-services`;
  const document = {
    name,
    description: `generated: ${nodes} lblab-nodes and a client on one L2 segment, ${services} Services (seed ${seed})`,
    defaults: { kind: 'lblab-node', links: ['lan'] },
    // The pool must be on-link for the client (Layer-2 mode answers ARP only on the segment), so the
    // segment holds the hosts in its lower half and the pool in its upper half.
    segments: { lan: { ipv4: `${labRanges[4].network}/${32 - segmentBits(nodes, services)}` } },
    nodes: { ...Object.fromEntries(nodeNames.map((n) => [n, {}])), c1: { kind: 'client' } },
    services: serviceDocs(services, nodeNames, random),
  };
  const result = resolveTopology(`<generated ${name}>`, document);
  if (!result.ok) {
    throw new RangeError(`cannot generate ${name}:\n${result.errors.map(formatIssue).join('\n')}`);
  }
  const half = 1n << BigInt(segmentBits(nodes, services) - 1);
  const pool = Prefix.of(labRanges[4].network.add(half), 32 - (segmentBits(nodes, services) - 1));
  return { topology: result.topology, metallbYaml: metallbDocuments(pool.toString()) };
}
