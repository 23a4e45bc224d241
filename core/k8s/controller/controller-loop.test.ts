import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { RealClock } from '../../runtime/real-clock.ts';
import { eventually, type KubeApiTestServer } from '../kube-api-server.test-support.ts';
import { ControllerLoop, type ControllerLoopOptions, type EventSink } from './controller-loop.ts';
import { LeaderElector } from './leader-election.ts';
import { ListedCluster, ListedConfig } from './listed-feeds.test-support.ts';
import { addLoadBalancer, addressesByName, clusterWithPool, namespace } from './services.test-support.ts';

const svcRef = (name: string, ns = 'apps') => ({ apiVersion: 'v1', kind: 'Service', namespace: ns, name });

interface Running {
  loop: ControllerLoop;
  feed: ListedCluster;
  events: Parameters<EventSink['record']>[0][];
  lines: string[];
}

async function startLoop(
  server: KubeApiTestServer,
  more: Partial<ControllerLoopOptions> & { order?: <T>(items: T[]) => T[] } = {},
): Promise<Running> {
  const kc = more.kc ?? server.kubeConfig();
  const feed = new ListedCluster(kc, more.order);
  const config = new ListedConfig(kc, namespace);
  await Promise.all([feed.refresh(), config.refresh()]);
  const events: Running['events'] = [];
  const lines: string[] = [];
  const loop = new ControllerLoop({
    kc,
    namespace,
    clock: new RealClock(),
    cluster: feed,
    config,
    recorder: { record: (e) => events.push(e) },
    log: (line) => lines.push(line),
    retryMs: 50,
    ...more,
  });
  loop.start();
  await loop.idle();
  return { loop, feed, events, lines };
}

/** Refreshes the feed (as the informers would report the writes) until a pass writes nothing. */
async function settle(r: Running): Promise<void> {
  await r.loop.idle();
  await r.feed.refresh();
  await r.loop.idle();
}

describe('the controller loop against the API test server', () => {
  it('allocates, writes each status, tells MetalLB’s events on the Service (with its uid) and counts the pool', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    for (const name of ['a', 'b', 'c', 'd', 'e']) await addLoadBalancer(server, name);
    const r = await startLoop(server);
    await settle(r);
    expect([...(await addressesByName(server)).values()].sort()).toEqual([
      '',
      '198.18.100.0',
      '198.18.100.1',
      '198.18.100.2',
      '198.18.100.3',
    ]);
    const e = (await server.get(svcRef('e'))) as V1Service;
    expect(r.events.filter((x) => x.reason === 'IPAllocated')).toHaveLength(4);
    const failed = r.events.filter((x) => x.reason === 'AllocationFailed');
    expect(failed).toEqual([
      {
        type: 'Warning',
        reason: 'AllocationFailed',
        message: expect.stringContaining('failed to allocate IP for "apps/e"') as string,
        involved: { apiVersion: 'v1', kind: 'Service', namespace: 'apps', name: 'e', uid: e.metadata?.uid },
      },
    ]);
    const pool = await server.get({
      apiVersion: 'metallb.io/v1beta1',
      kind: 'IPAddressPool',
      namespace,
      name: 'lab',
    });
    expect(pool?.status).toEqual({ assignedIPv4: 4, assignedIPv6: 0, availableIPv4: 0, availableIPv6: 0 });
    // A pass with nothing new writes nothing and tells nothing again.
    const before = server.requests().length;
    await settle(r);
    expect(
      server
        .requests()
        .slice(before)
        .filter((q) => q.verb === 'update'),
    ).toEqual([]);
    expect(r.events).toHaveLength(5);
    await r.loop.stop();
  });

  it('repeats a pass whose writes failed, without waiting for the cluster to change', async () => {
    const server = await clusterWithPool(['198.18.100.0/30']);
    await addLoadBalancer(server, 'a');
    server.failRequests({ status: 500, count: 2, match: { resource: 'services', subresource: 'status' } });
    const r = await startLoop(server);
    await eventually(
      'the retried write',
      async () => (await addressesByName(server)).get('a') === '198.18.100.0',
    );
    expect(r.lines.some((l) => l.includes('not written (retried on the next pass)'))).toBe(true);
    await r.loop.stop();
  });

  it('a restarted controller keeps every address, whatever order the Services come in and whatever is new', async () => {
    const server = await clusterWithPool(['198.18.100.0/26']);
    for (let i = 0; i < 50; i++) await addLoadBalancer(server, `svc-${String(i).padStart(2, '0')}`);
    const first = await startLoop(server);
    await settle(first);
    await first.loop.stop();
    const before = await addressesByName(server);
    expect(new Set(before.values()).size).toBe(50);

    // New Services that sort first would take the lowest addresses if the restart did not restore first.
    for (let i = 0; i < 10; i++) await addLoadBalancer(server, `a-new-${i}`);
    const reversed = <T>(items: T[]) => [...items].reverse();
    const second = await startLoop(server, { order: reversed });
    await settle(second);
    const after = await addressesByName(server);
    for (const [name, ip] of before) expect({ name, ip: after.get(name) }).toEqual({ name, ip });
    const fresh = [...after].filter(([name]) => name.startsWith('a-new-')).map(([, ip]) => ip);
    expect(fresh.every((ip) => ip !== '' && ![...before.values()].includes(ip))).toBe(true);
    expect(new Set(after.values()).size).toBe(60);
    await second.loop.stop();
  });

  it('with leader election only the leader writes; after a failover the new leader keeps every address', async () => {
    const server = await clusterWithPool(['198.18.100.0/27']);
    for (let i = 0; i < 20; i++) await addLoadBalancer(server, `svc-${i}`);
    const clock = new RealClock();
    const elect = (identity: string) =>
      new LeaderElector({
        kc: server.kubeConfig({ user: identity }),
        namespace,
        identity,
        clock,
        clockEpochMs: clock.epochMs,
        leaseDurationMs: 1000,
        renewMs: 100,
        log: () => undefined,
      });
    const [ea, eb] = [elect('replica-a'), elect('replica-b')];
    ea.start();
    await eventually('replica-a leads', () => ea.isLeader());
    eb.start();
    const a = await startLoop(server, {
      kc: server.kubeConfig({ user: 'replica-a' }),
      leadership: ea,
      clock,
    });
    const b = await startLoop(server, {
      kc: server.kubeConfig({ user: 'replica-b' }),
      leadership: eb,
      clock,
    });
    await settle(a);
    await settle(b); // the standby's view is current, as its informers' would be
    const before = await addressesByName(server);
    expect(new Set(before.values()).size).toBe(20);
    const writers = new Set(
      server
        .requests()
        .filter((q) => q.verb === 'update' && q.resource === 'services')
        .map((q) => q.user),
    );
    expect(writers).toEqual(new Set(['replica-a']));

    // A Service created while the leader is gone is in the new leader's very first pass.
    await a.loop.stop();
    await addLoadBalancer(server, 'late');
    await b.feed.refresh();
    expect((await addressesByName(server)).get('late')).toBe('');
    await ea.stop({ release: true });
    await eventually('replica-b leads', () => eb.isLeader());
    await eventually(
      'the late Service gets an address',
      async () => (await addressesByName(server)).get('late') !== '',
    );
    const after = await addressesByName(server);
    for (const [name, ip] of before) expect(after.get(name)).toBe(ip);
    // "late" sorts before every svc-*: without restoring first it would have taken svc-0's 198.18.100.0.
    expect([...before.values()]).not.toContain(after.get('late'));
    await b.loop.idle();
    expect(b.lines).toContain('wrote service status of 1 object(s)');
    await b.loop.stop();
    await eb.stop({ release: true });
  });
});
