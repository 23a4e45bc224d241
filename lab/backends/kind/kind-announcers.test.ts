import { afterEach, describe, expect, it } from 'vitest';
import { readTopology } from '../../model/index.ts';
import type { Topology } from '../../model/topology.ts';
import type { NeighbourAsk } from '../../probes/neighbour-ask.ts';
import type { KindCluster } from './kind-cluster.ts';
import { KindAnnouncers, KindNoSegmentClientError, NEIGHBOUR_ASK } from './kind-announcers.ts';
import { standIns, type StandIns } from './kind-standins.test-support.ts';

let tools: StandIns | undefined;
afterEach(async () => {
  await tools?.remove();
  tools = undefined;
});

async function topology(file: string): Promise<Topology> {
  const read = await readTopology(file);
  if (!read.ok) throw new Error(`cannot read ${file}`);
  return read.topology;
}

const cluster = (): KindCluster => ({
  name: 'lblab-abc123',
  network: 'lblab-kind-abc123',
  kubeconfig: '/nonexistent',
  nodes: [
    { lab: 'control-plane', role: 'control-plane', container: 'lblab-abc123-control-plane', id: 'a' },
    { lab: 'n1', role: 'worker', container: 'lblab-abc123-worker', id: 'b', mac: '02:42:c6:12:00:03' },
    { lab: 'n2', role: 'worker', container: 'lblab-abc123-worker2', id: 'c', mac: '02:42:c6:12:00:04' },
  ],
});

/** n2 came back from a link fault with a new MAC, which only `docker inspect` now knows. */
const inspected = JSON.stringify([
  {
    Name: '/lblab-abc123-worker',
    State: { Running: true, Pid: 1 },
    NetworkSettings: { Networks: { 'lblab-kind-abc123': { MacAddress: '02:42:c6:12:00:03' } } },
  },
  {
    Name: '/lblab-abc123-worker2',
    State: { Running: true, Pid: 2 },
    NetworkSettings: { Networks: { 'lblab-kind-abc123': { MacAddress: '02:42:c6:12:00:99' } } },
  },
]);

describe('KindAnnouncers', () => {
  it('asks from the client on the kind network, with its address of the family asked, and names the nodes', async () => {
    tools = await standIns({ docker: [{ when: 'inspect*', stdout: inspected }] });
    const asked: { client: string; iface: string; ask: NeighbourAsk }[] = [];
    const answers = [
      ['02:42:c6:12:00:04', '02:42:c6:12:00:03'],
      ['02:42:c6:12:00:99'],
      ['02:42:c6:12:00:0e', 'aa:bb:cc:dd:ee:ff'],
    ];
    const c = cluster();
    const a = new KindAnnouncers({
      topology: await topology('topologies/l2-three-nodes.yaml'),
      nodeSegments: new Set(['lan']),
      cluster: c,
      tools,
      fabricMacs: new Map([['02:42:c6:12:00:0e', 'c1']]),
      ask: (client, iface, ask) => (asked.push({ client, iface, ask }), Promise.resolve(answers.shift()!)),
    });
    expect(await a.announcers('198.18.0.192')).toEqual(['n1', 'n2']);
    expect(await tools.calls()).toEqual([]);
    // An unknown MAC: docker inspect is asked again, and names n2 by its MAC now.
    expect(await a.announcers('2001:db8::100')).toEqual(['n2']);
    expect((await tools.calls()).map((x) => x.args.join(' '))).toEqual([
      'inspect lblab-abc123-worker lblab-abc123-worker2',
    ]);
    expect(c.nodes[2]!.mac).toBe('02:42:c6:12:00:99');
    // A MAC of no node: the fabric's host, or the MAC itself, rather than a guess.
    expect(await a.announcers('198.18.0.192')).toEqual(['aa:bb:cc:dd:ee:ff', 'c1']);
    expect(asked.slice(0, 2)).toEqual([
      {
        client: 'c1',
        iface: 'eth0',
        ask: { source: '198.18.0.14', target: '198.18.0.192', ...NEIGHBOUR_ASK },
      },
      {
        client: 'c1',
        iface: 'eth0',
        ask: { source: '2001:db8::e', target: '2001:db8::100', ...NEIGHBOUR_ASK },
      },
    ]);
  });

  it('says so when no client is on the nodes’ segment (BGP: the client is behind a router)', async () => {
    const a = new KindAnnouncers({
      topology: await topology('topologies/bgp-three-nodes.yaml'),
      nodeSegments: new Set(['lan']),
      cluster: cluster(),
      tools: { kind: '/nonexistent/kind', docker: '/nonexistent/docker' },
      fabricMacs: new Map(),
      ask: () => Promise.reject(new Error('asked')),
    });
    const err = await a.announcers('198.18.0.192').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KindNoSegmentClientError);
    expect((err as KindNoSegmentClientError).code).toBe('KIND_NO_SEGMENT_CLIENT');
    expect((err as Error).message).toMatch(
      /asking who announces 198.18.0.192: topology bgp-three-nodes has no client on the nodes' segment \(lan\)/,
    );
  });
});
