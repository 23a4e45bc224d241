import { describe, expect, it } from 'vitest';
import { labCluster } from '../cluster.ts';
import { readTopology } from '../../model/index.ts';
import { routerSpecs } from '../netns/router-specs.ts';
import type { KindNode } from './kind-cluster.ts';
import { KindWiringError, peeringWithKindNodes, returnRoutes, withLabNames } from './kind-router-wiring.ts';

async function topology() {
  const read = await readTopology('topologies/bgp-three-nodes.yaml');
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.topology;
}

// kind's nodes take addresses from the network's --ip-range, above every topology address.
const nodes: KindNode[] = [
  {
    lab: 'control-plane',
    role: 'control-plane',
    container: 'lblab-abc-control-plane',
    id: 'a',
    ipv4: '198.18.0.130',
    ipv6: '2001:db8::8000',
  },
  {
    lab: 'n1',
    role: 'worker',
    container: 'lblab-abc-worker',
    id: 'b',
    ipv4: '198.18.0.131',
    ipv6: '2001:db8::8001',
  },
  {
    lab: 'n2',
    role: 'worker',
    container: 'lblab-abc-worker2',
    id: 'c',
    ipv4: '198.18.0.132',
    ipv6: '2001:db8::8002',
  },
  {
    lab: 'n3',
    role: 'worker',
    container: 'lblab-abc-worker3',
    id: 'd',
    ipv4: '198.18.0.133',
    ipv6: '2001:db8::8003',
  },
];

describe('peeringWithKindNodes', () => {
  it("moves each router neighbor from the topology node's address to its kind node's, keeping the rest of the session", async () => {
    const t = await topology();
    const specs = routerSpecs(t, (await labCluster(t)).config);
    const before = specs[0]!.spec.neighbors;
    const moved = peeringWithKindNodes(specs, t, nodes)[0]!;
    const topologyAddress = (n: string) =>
      t.nodes.find((x) => x.name === n)!.attachments[0]!.ipv4.split('/')[0];
    expect(before.map((n) => n.address)).toEqual(['n1', 'n2', 'n3'].map(topologyAddress));
    expect(moved.spec.neighbors.map((n) => n.address)).toEqual([
      '198.18.0.131',
      '198.18.0.132',
      '198.18.0.133',
    ]);
    // AS, timers, BFD: what the nodes' BGPPeers say, unchanged.
    expect(moved.spec.neighbors.map(({ address: _a, ...rest }) => rest)).toEqual(
      before.map(({ address: _a, ...rest }) => rest),
    );
    expect(moved.spec.asn).toBe(64512);
  });

  it('refuses a neighbor no kind node has an address for (an IPv4 session on an IPv6-only cluster)', async () => {
    const t = await topology();
    const specs = routerSpecs(t, (await labCluster(t)).config);
    const v6only = nodes.map(({ ipv4: _v4, ...n }) => n);
    expect(() => peeringWithKindNodes(specs, t, v6only)).toThrow(KindWiringError);
    expect(() => peeringWithKindNodes(specs, t, v6only)).toThrow(
      /router r1: neighbor 198\.18\.0\.11 is no kind node's/,
    );
  });
});

describe('returnRoutes', () => {
  it("routes the client's segment behind r1 back through r1's address on the nodes' segment, on every worker", async () => {
    const t = await topology();
    const routes = returnRoutes(t, nodes);
    const c1 = t.segments.find(
      (s) => s.name === t.nodes.find((n) => n.name === 'c1')!.attachments[0]!.segment,
    )!;
    expect(routes).toHaveLength(6);
    expect(routes).toContainEqual({
      container: 'lblab-abc-worker2',
      prefix: c1.ipv4.toString(),
      via: '198.18.0.1',
    });
    expect(routes).toContainEqual({
      container: 'lblab-abc-worker3',
      prefix: c1.ipv6.toString(),
      via: '2001:db8::1',
    });
    expect(routes.some((r) => r.container.endsWith('control-plane'))).toBe(false);
  });
});

describe('withLabNames', () => {
  it('names the echo pods’ servers (kind containers) by topology node, leaving unknown names alone', () => {
    const summary = {
      sent: 3,
      received: 3,
      lost: 0,
      outageMs: 500,
      gaps: [
        {
          gapMs: 500,
          lastSeqBefore: 1,
          firstSeqAfter: 2,
          sentApartMs: 500,
          serverBefore: 'lblab-abc-worker',
          serverAfter: 'lblab-abc-worker3',
        },
      ],
      servers: [
        { server: 'lblab-abc-worker', replies: 2 },
        { server: 'lblab-abc-worker3', replies: 1 },
        { server: 'elsewhere', replies: 0 },
      ],
      runs: [{ server: 'lblab-abc-worker', firstSeq: 0, lastSeq: 1 }],
    };
    const named = withLabNames(summary, nodes);
    expect(named.servers.map((s) => s.server)).toEqual(['n1', 'n3', 'elsewhere']);
    expect(named.gaps[0]).toMatchObject({ serverBefore: 'n1', serverAfter: 'n3' });
    expect(named.runs[0]!.server).toBe('n1');
  });
});
