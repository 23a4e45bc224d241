/**
 * Generated L2 topologies for scale runs (2000 nodes, 10,000 Services): one segment sized for every
 * node, one client, and MetalLB configuration with a pool that holds every Service. The document goes
 * through the same resolver as a file, so a generated topology obeys every rule a written one does.
 */
import { Random } from '../../core/runtime/random.ts';
import { Prefix } from '../../core/net/index.ts';
import {
  checkCounts,
  metallbYaml,
  padded,
  poolLength,
  resolveGenerated,
  serviceDocs,
} from './generate-common.ts';
import { labRanges } from './lab-ranges.ts';
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

/** The share of Services with externalTrafficPolicy Local. */
const localShare = 0.1;

function metallbDocuments(pool: string): string {
  return metallbYaml([
    {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'IPAddressPool',
      name: 'scale-pool',
      spec: { addresses: [pool] },
    },
    {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'L2Advertisement',
      name: 'scale-l2',
      spec: { ipAddressPools: ['scale-pool'] },
    },
  ]);
}

/** Host bits of a segment whose lower half holds the nodes (from .11) and upper half the pool. */
function segmentBits(nodes: number, services: number): number {
  const poolBits = 32 - poolLength(services);
  const hostBits = Math.ceil(Math.log2(nodes + 32));
  return Math.max(poolBits, hostBits) + 1;
}

export function generateL2Topology(options: GenerateOptions): GeneratedTopology {
  const { nodes, services, seed = 1 } = options;
  checkCounts(nodes, services);
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
    services: serviceDocs(services, nodeNames, random, localShare),
  };
  const topology = resolveGenerated(name, document);
  const half = 1n << BigInt(segmentBits(nodes, services) - 1);
  const pool = Prefix.of(labRanges[4].network.add(half), 32 - (segmentBits(nodes, services) - 1));
  return { topology, metallbYaml: metallbDocuments(pool.toString()) };
}
