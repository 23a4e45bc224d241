/**
 * The speaker's ServiceL2Status / ServiceBGPStatus objects against the API test server, through real
 * client-node HTTP: what MetalLB users' `kubectl get servicel2status` shows, kept true as announcements
 * change, across a speaker restart and an API server outage.
 */
import { describe, expect, it } from 'vitest';
import { eventually, startServer, type KubeApiTestServer } from '../kube-api-server.test-support.ts';
import { RealClock } from '../../runtime/real-clock.ts';
import { Random } from '../../runtime/random.ts';
import type { DesiredStatus } from './announcements.ts';
import { StatusObjects } from './status-objects.ts';

const ns = 'metallb-system';
const l2 = (name: string, interfaces: string[]): DesiredStatus => ({
  protocol: 'layer2',
  serviceNamespace: 'shop',
  serviceName: name,
  interfaces,
});
const bgp = (name: string, peers: string[]): DesiredStatus => ({
  protocol: 'bgp',
  serviceNamespace: 'shop',
  serviceName: name,
  peers,
});

interface Stored {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; uid: string }[];
  };
  status?: Record<string, unknown>;
}

async function setup(o: { podName?: string | undefined } = {}) {
  const server = await startServer();
  await server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await server.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'speaker-abc', namespace: ns } });
  const logged: string[] = [];
  const open = (podName = 'podName' in o ? o.podName : 'speaker-abc') => {
    const writer = new StatusObjects({
      kc: server.kubeConfig(),
      namespace: ns,
      node: 'n1',
      ...(podName !== undefined && { podName }),
      clock: new RealClock(),
      random: new Random(7),
      log: (l) => logged.push(l),
      initialBackoffMs: 20,
      maxBackoffMs: 200,
    });
    writer.start();
    return writer;
  };
  return { server, logged, open };
}

const stored = async (server: KubeApiTestServer, kind = 'ServiceL2Status') =>
  (await server.list('metallb.io/v1beta1', kind, ns)) as unknown as Stored[];
const writes = (server: KubeApiTestServer) =>
  server.requests().filter((r) => ['create', 'update', 'delete'].includes(r.verb));

describe('status objects', () => {
  it('creates one object per announced Service, as MetalLB: generateName, labels, owner Pod, status', async () => {
    const { server, open } = await setup();
    const pod = await server.get({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'speaker-abc' });
    const writer = open();
    writer.set([l2('web', ['eth0']), bgp('api', ['r2', 'r1'].sort())]);
    await writer.settled();
    const [obj] = await stored(server);
    expect(obj!.metadata.name).toMatch(/^l2-[a-z0-9]{5}$/);
    expect(obj!.metadata.labels).toEqual({
      'metallb.io/node': 'n1',
      'metallb.io/service-name': 'web',
      'metallb.io/service-namespace': 'shop',
    });
    expect(obj!.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Pod', name: 'speaker-abc', uid: (pod!.metadata as { uid: string }).uid },
    ]);
    expect(obj!.status).toEqual({
      node: 'n1',
      serviceName: 'web',
      serviceNamespace: 'shop',
      interfaces: [{ name: 'eth0' }],
    });
    const [b] = await stored(server, 'ServiceBGPStatus');
    expect(b!.metadata.name).toMatch(/^bgp-/);
    expect(b!.status).toEqual({
      node: 'n1',
      serviceName: 'api',
      serviceNamespace: 'shop',
      peers: ['r1', 'r2'],
    });
    writer.close();
  });

  it('writes only what changed: the same state again costs no request, a change one PUT of /status', async () => {
    const { server, open } = await setup();
    const writer = open();
    writer.set([l2('web', ['eth0']), l2('db', ['eth0'])]);
    await writer.settled();
    server.clearRequests();
    writer.set([l2('web', ['eth0']), l2('db', ['eth0'])]);
    await writer.settled();
    expect(writes(server)).toEqual([]);
    writer.set([l2('web', ['eth0', 'eth1']), l2('db', ['eth0'])]);
    await writer.settled();
    expect(writes(server).map((r) => `${r.verb} ${r.resource}/${r.subresource ?? ''}`)).toEqual([
      'update servicel2statuses/status',
    ]);
    const web = (await stored(server)).find((o) => o.metadata.labels!['metallb.io/service-name'] === 'web');
    expect(web!.status!['interfaces']).toEqual([{ name: 'eth0' }, { name: 'eth1' }]);
    writer.close();
  });

  it('deletes the object of a Service no longer announced', async () => {
    const { server, open } = await setup();
    const writer = open();
    writer.set([l2('web', ['eth0']), l2('db', ['eth0'])]);
    await writer.settled();
    writer.set([l2('db', ['eth0'])]);
    await writer.settled();
    expect((await stored(server)).map((o) => o.metadata.labels!['metallb.io/service-name'])).toEqual(['db']);
    writer.close();
  });

  it('a burst of changes coalesces: the latest state is written, not every step', async () => {
    const { server, open } = await setup();
    const writer = open();
    for (let i = 0; i < 50; i++) writer.set([l2(`svc-${i}`, ['eth0'])]);
    await writer.settled();
    expect((await stored(server)).map((o) => o.metadata.labels!['metallb.io/service-name'])).toEqual([
      'svc-49',
    ]);
    expect(writes(server).filter((r) => r.verb === 'create').length).toBeLessThan(5);
    writer.close();
  });

  it('at start adopts its node’s object from an earlier life (new owner) and deletes duplicates and strays; other nodes’ stay', async () => {
    const { server, open } = await setup();
    await server.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'old-pod', namespace: ns } });
    const earlier = open('old-pod');
    earlier.set([l2('web', ['eth0']), l2('gone', ['eth0'])]);
    await earlier.settled();
    earlier.close();
    // A duplicate for web on n1 (two lives racing) and another node's object for web.
    for (const node of ['n1', 'n2'])
      await server.apply({
        apiVersion: 'metallb.io/v1beta1',
        kind: 'ServiceL2Status',
        metadata: {
          name: `l2-dup-${node}`,
          namespace: ns,
          labels: {
            'metallb.io/node': node,
            'metallb.io/service-name': 'web',
            'metallb.io/service-namespace': 'shop',
          },
        },
      });
    expect(await stored(server)).toHaveLength(4);
    const writer = open();
    writer.set([l2('web', ['eth1'])]);
    await writer.settled();
    const left = await stored(server);
    const mine = left.filter((o) => o.metadata.labels!['metallb.io/node'] === 'n1');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.metadata.labels!['metallb.io/service-name']).toBe('web');
    expect(mine[0]!.metadata.ownerReferences?.map((r) => r.name)).toEqual(['speaker-abc']);
    expect(mine[0]!.status!['interfaces']).toEqual([{ name: 'eth1' }]);
    expect(left.filter((o) => o.metadata.name === 'l2-dup-n2')).toHaveLength(1);
    // Adopted, not recreated: no create after the start.
    expect(
      writes(server).filter((r) => r.verb === 'create' && r.resource === 'servicel2statuses'),
    ).toHaveLength(2);
    writer.close();
  });

  it('a restarted speaker deletes nothing before it has elected (its objects may still be true)', async () => {
    const { server, open } = await setup();
    const earlier = open();
    earlier.set([l2('web', ['eth0'])]);
    await earlier.settled();
    earlier.close();
    server.clearRequests();
    const writer = open();
    await writer.settled();
    expect(await stored(server)).toHaveLength(1);
    expect(writes(server)).toEqual([]);
    writer.set([]);
    await writer.settled();
    expect(await stored(server)).toHaveLength(0);
    writer.close();
  });

  it('without METALLB_POD_NAME: objects without an owner, and a warning', async () => {
    const { server, open, logged } = await setup({ podName: undefined });
    const writer = open();
    writer.set([l2('web', ['eth0'])]);
    await writer.settled();
    expect((await stored(server))[0]!.metadata.ownerReferences).toBeUndefined();
    expect(logged.join('\n')).toMatch(/warning: no METALLB_POD_NAME/);
    writer.close();
  });

  it('while the API server is away set() returns at once; when it is back the objects are right', async () => {
    const { server, open, logged } = await setup();
    const writer = open();
    writer.set([l2('web', ['eth0'])]);
    await writer.settled();
    await server.down();
    const clock = new RealClock();
    const t0 = clock.now();
    writer.set([l2('web', ['eth1']), l2('db', ['eth0'])]);
    expect(clock.now() - t0).toBeLessThan(20);
    await eventually('a failed attempt', () => logged.some((l) => /retrying in \d+ ms/.test(l)));
    await server.up();
    await writer.settled();
    const now = await stored(server);
    expect(
      now.map((o) => [o.metadata.labels!['metallb.io/service-name'], o.status!['interfaces']]).sort(),
    ).toEqual([
      ['db', [{ name: 'eth0' }]],
      ['web', [{ name: 'eth1' }]],
    ]);
    writer.close();
  });

  it('an object deleted behind its back, or changed by someone else (409), is written again', async () => {
    const { server, open } = await setup();
    const writer = open();
    writer.set([l2('web', ['eth0'])]);
    await writer.settled();
    const [obj] = await stored(server);
    server.remove({
      apiVersion: 'metallb.io/v1beta1',
      kind: 'ServiceL2Status',
      namespace: ns,
      name: obj!.metadata.name,
    });
    writer.set([l2('web', ['eth1'])]);
    await writer.settled();
    const [again] = await stored(server);
    expect(again!.metadata.name).not.toBe(obj!.metadata.name);
    expect(again!.status!['interfaces']).toEqual([{ name: 'eth1' }]);
    // Someone else touches it: our copy's resourceVersion is stale.
    await server.apply({
      ...(again as object),
      metadata: { ...again!.metadata, annotations: { x: 'y' } },
    } as never);
    writer.set([l2('web', ['eth2'])]);
    await writer.settled();
    expect((await stored(server))[0]!.status!['interfaces']).toEqual([{ name: 'eth2' }]);
    writer.close();
  });
});
