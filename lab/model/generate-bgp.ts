/**
 * Generated BGP topologies for scale runs: racks of lblab-nodes, each rack a segment with two leaf
 * routers, every node peering with both leaves of its rack over eBGP with BFD, and a client behind one
 * leaf. The MetalLB configuration has one BGPPeer per leaf, selected by the rack's node label, as an
 * operator would write it for a rack-aware fabric. There is no spine: routers peer only with nodes in
 * the emulator, and a client reaches the Services through its own leaf, which is what the rack's
 * failure stories (scenarios/bgp/racks.ts) measure.
 */
import { Random } from '../../core/runtime/random.ts';
import {
  checkCounts,
  metallbYaml,
  padded,
  poolLength,
  resolveGenerated,
  serviceDocs,
} from './generate-common.ts';
import type { GeneratedTopology, GenerateOptions } from './generate.ts';
import type { Topology } from './topology.ts';

export interface GenerateBgpOptions extends GenerateOptions {
  /** Nodes in a rack (the last rack takes what is left); default 20, a common top-of-rack count. */
  nodesPerRack?: number;
}

export interface Rack {
  name: string;
  /** Its two leaf routers; the client of the topology sits behind the first leaf of the first rack. */
  leaves: [string, string];
  nodes: string[];
}

export interface GeneratedBgpTopology extends GeneratedTopology {
  racks: Rack[];
  /** The client, the leaf it sits behind and that leaf's rack. */
  client: { name: string; leaf: string; rack: Rack };
}

/** The label the BGPPeers select a rack's nodes by. */
export const rackLabel = 'lblab.io/rack';
/** Every node is in one AS, as a cluster-wide MetalLB myASN is. */
export const nodeAsn = 64512;
/**
 * Each leaf has an AS of its own (RFC 7938 §5.2.1 gives every top-of-rack switch its own), from 65001
 * on in the 2-byte private range (RFC 6996): a route's AS path then names the leaf it came through, and
 * 255 racks use 510 of the range's 1023.
 */
const firstLeafAsn = 65001;
/**
 * Rack segments and the client's link take the lower half of the IPv4 lab range (a /24 each from
 * 198.18.0.0), so no more racks than that half holds.
 */
const maxRacks = 255;
/** The pool sits in 198.19.0.0/17: clear of the racks, and of the docker tier's transit block (198.19.248.0/21). */
const poolBase = '198.19.0.0';
const poolMaxLength = 17;
/** MetalLB's usual fast BFD profile, as the BGP catalog's (100 ms × 3: a dead peer is noticed in 300 ms). */
const bfdProfile = { receiveInterval: 100, transmitInterval: 100, detectMultiplier: 3 };

const client = 'c1';

function racksOf(nodeNames: readonly string[], perRack: number): Rack[] {
  const count = Math.ceil(nodeNames.length / perRack);
  const width = Math.max(2, String(count).length);
  return Array.from({ length: count }, (_, r) => {
    const name = `rack${String(r + 1).padStart(width, '0')}`;
    return {
      name,
      leaves: [`${name}-a`, `${name}-b`],
      nodes: nodeNames.slice(r * perRack, (r + 1) * perRack),
    };
  });
}

/** The topology as a user would write it (the schema's shape), before resolution. */
function topologyDocument(
  name: string,
  racks: readonly Rack[],
  services: Record<string, unknown>[],
  seed: number,
) {
  const nodes = racks.reduce((n, r) => n + r.nodes.length, 0);
  return {
    name,
    description: `generated: ${nodes} lblab-nodes in ${racks.length} racks of two leaves each, ${services.length} Services (seed ${seed})`,
    segments: Object.fromEntries(racks.map((r) => [r.name, {}])),
    groups: Object.fromEntries(
      racks.map((r) => [r.name, { nodes: r.nodes, labels: { [rackLabel]: r.name }, links: [r.name] }]),
    ),
    nodes: {
      ...Object.fromEntries(
        racks.flatMap((r, i) => [
          ...r.leaves.map((leaf, side) => [
            leaf,
            {
              kind: 'router',
              impl: 'frr',
              asn: firstLeafAsn + 2 * i + side,
              links: [r.name],
              peers: r.nodes,
            },
          ]),
          ...r.nodes.map((n) => [n, { kind: 'lblab-node' }]),
        ]),
      ),
      [client]: { kind: 'client', behind: racks[0]!.leaves[0] },
    },
    services,
  };
}

/** The pool, the /32 advertisement, the BFD profile and one BGPPeer per leaf for its rack's nodes. */
function bgpConfig(topology: Topology, racks: readonly Rack[], pool: string): string {
  const v1beta1 = 'metallb.io/v1beta1';
  const peers = racks.flatMap((r) =>
    r.leaves.map((leaf) => {
      const router = topology.nodes.find((n) => n.name === leaf)!;
      return {
        apiVersion: 'metallb.io/v1beta2',
        kind: 'BGPPeer',
        name: leaf,
        spec: {
          myASN: nodeAsn,
          peerASN: router.asn!,
          peerAddress: router.attachments[0]!.ipv4.split('/')[0]!,
          holdTime: '9s',
          keepaliveTime: '3s',
          bfdProfile: 'fast',
          enableGracefulRestart: true,
          nodeSelectors: [{ matchLabels: { [rackLabel]: r.name } }],
        },
      };
    }),
  );
  return metallbYaml([
    { apiVersion: v1beta1, kind: 'IPAddressPool', name: 'scale-pool', spec: { addresses: [pool] } },
    {
      apiVersion: v1beta1,
      kind: 'BGPAdvertisement',
      name: 'scale-bgp',
      spec: { ipAddressPools: ['scale-pool'], aggregationLength: 32 },
    },
    { apiVersion: v1beta1, kind: 'BFDProfile', name: 'fast', spec: bfdProfile },
    ...peers,
  ]);
}

/** The document and the racks it is made of, checked; generateBgpTopology resolves it. */
export function bgpTopologyDocument(options: GenerateBgpOptions) {
  const { nodes, services, nodesPerRack = 20, seed = 1 } = options;
  checkCounts(nodes, services);
  if (!Number.isInteger(nodesPerRack) || nodesPerRack < 1)
    throw new RangeError(`nodesPerRack must be a positive integer, got ${nodesPerRack}`);
  if (Math.ceil(nodes / nodesPerRack) > maxRacks)
    throw new RangeError(
      `${nodes} nodes at ${nodesPerRack} per rack need ${Math.ceil(nodes / nodesPerRack)} racks, more than the ${maxRacks} the lab range holds: raise nodesPerRack`,
    );
  if (poolLength(services) < poolMaxLength)
    throw new RangeError(`${services} Services do not fit in ${poolBase}/${poolMaxLength}`);
  const random = new Random(seed);
  const nodeNames = Array.from({ length: nodes }, (_, i) => `n${padded(i + 1, nodes)}`);
  const racks = racksOf(nodeNames, nodesPerRack);
  const name = `bgp-scale-${nodes}-nodes-${services}-services`;
  // ETP Cluster only: every node of a rack announces every Service, so both leaves spread it over all.
  const document = topologyDocument(name, racks, serviceDocs(services, nodeNames, random, 0), seed);
  return { name, document, racks };
}

export function generateBgpTopology(options: GenerateBgpOptions): GeneratedBgpTopology {
  const { name, document, racks } = bgpTopologyDocument(options);
  const topology = resolveGenerated(name, document);
  const pool = `${poolBase}/${poolLength(options.services)}`;
  return {
    topology,
    metallbYaml: bgpConfig(topology, racks, pool),
    racks,
    client: { name: client, leaf: racks[0]!.leaves[0], rack: racks[0]! },
  };
}
