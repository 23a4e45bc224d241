import { KubeConfig, type V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { RealClock } from '../../runtime/real-clock.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { eventually, sleep, startServer, type KubeApiTestServer } from '../kube-api-server.test-support.ts';
import { ApiProxy } from './api-proxy.test-support.ts';
import { LeaderElector, NotLeaderError, type LeaderElectionOptions } from './leader-election.ts';
import { ServiceStatusWriter } from './service-status-writer.ts';

const namespace = 'metallb-system';
const leaseRef = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  namespace,
  name: 'metallb-controller',
};
const epoch = Date.UTC(2026, 10, 26, 12, 0, 0);

async function cluster(): Promise<KubeApiTestServer> {
  const server = await startServer();
  await server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await server.apply({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
  });
  return server;
}

function elector(
  identity: string,
  kc: LeaderElectionOptions['kc'],
  clock: LeaderElectionOptions['clock'],
  lines: string[],
  more: Partial<LeaderElectionOptions> = {},
): LeaderElector {
  return new LeaderElector({
    kc,
    namespace,
    identity,
    clock,
    clockEpochMs: epoch,
    log: (line) => lines.push(line),
    ...more,
  });
}

/** Advances virtual time in steps, letting every request a step started finish before the next. */
async function run(clock: VirtualClock, ms: number, busy: () => Promise<unknown>[], stepMs = 100) {
  for (let t = 0; t < ms; t += stepMs) {
    clock.advance(stepMs);
    await Promise.all(busy());
  }
}

/** Steps until `done` holds; returns the virtual ms it took (to within a step). */
async function until(
  clock: VirtualClock,
  done: () => boolean,
  busy: () => Promise<unknown>[],
  limitMs: number,
  stepMs = 10,
) {
  const start = clock.now();
  while (!done()) {
    if (clock.now() - start > limitMs) throw new Error(`not within ${limitMs} virtual ms`);
    await run(clock, stepMs, busy, stepMs);
  }
  return clock.now() - start;
}

/**
 * Each replica's "controller": every 500 ms it writes the Service's status through its elector's
 * fence, a different address each time so that every write that passes the fence is a PUT.
 */
function writerLoop(
  e: LeaderElector,
  kc: LeaderElectionOptions['kc'],
  clock: VirtualClock,
  refused: Error[],
) {
  const writer = new ServiceStatusWriter({ kc, clock, guard: e.guard });
  let n = 0;
  let pending: Promise<unknown> = Promise.resolve();
  const loop = () => {
    n++;
    pending = writer
      .apply([{ namespace: 'default', name: 'web', ingress: [`198.18.100.${n % 200}`], pool: 'lab' }])
      .then((r) => refused.push(...r.failed.map((f) => f.error)));
    clock.setTimer('writer', 500, loop);
  };
  clock.setTimer('writer', 500, loop);
  return () => pending;
}

/** Two replicas on one virtual clock, each with its writer loop; replica-a leads after 5 s. */
async function pairWithWriters(kcA: KubeConfig, kcB: KubeConfig) {
  const clock = new VirtualClock();
  const lines: string[] = [];
  const a = elector('replica-a', kcA, clock, lines);
  const b = elector('replica-b', kcB, clock, lines);
  const refusedA: Error[] = [];
  const writesA = writerLoop(a, kcA, clock, refusedA);
  const writesB = writerLoop(b, kcB, clock, []);
  const busy = () => [a.idle(), b.idle(), writesA(), writesB()];
  a.start();
  await a.idle();
  b.start();
  await run(clock, 5000, busy);
  return { clock, lines, a, b, refusedA, busy };
}

const statusWrites = (server: KubeApiTestServer, user: string) =>
  server
    .requests()
    .filter(
      (r) => r.user === user && r.resource === 'services' && r.subresource === 'status' && r.code === 200,
    )
    .map((r) => r.seq);

describe('leader election over a coordination.k8s.io/v1 Lease (virtual time, API test server)', () => {
  it('elects exactly one leader and writes its times as MicroTime', async () => {
    const server = await cluster();
    const clock = new VirtualClock();
    const lines: string[] = [];
    const a = elector('replica-a', server.kubeConfig({ user: 'replica-a' }), clock, lines);
    const b = elector('replica-b', server.kubeConfig({ user: 'replica-b' }), clock, lines);
    a.start();
    await a.idle();
    b.start();
    let bothLed = false;
    for (let i = 0; i < 300; i++) {
      await run(clock, 100, () => [a.idle(), b.idle()]);
      if (a.isLeader() && b.isLeader()) bothLed = true;
    }
    expect(bothLed).toBe(false);
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    const lease = (await server.get(leaseRef)) as V1Lease;
    expect(lease.spec?.holderIdentity).toBe('replica-a');
    expect(lease.spec?.leaseDurationSeconds).toBe(15);
    // 30 s of renewals every 2 s, on the clock given (the test server refuses a plain Date's 3 digits).
    expect(String(lease.spec?.renewTime)).toBe('2026-11-26T12:00:30.000000Z');
    expect(String(lease.spec?.acquireTime)).toBe('2026-11-26T12:00:00.000000Z');
    await Promise.all([a.stop({ release: false }), b.stop({ release: false })]);
  });

  it('a standby takes over within the lease duration after the leader dies, and at once on release', async () => {
    const server = await cluster();
    const clock = new VirtualClock();
    const lines: string[] = [];
    const a = elector('replica-a', server.kubeConfig({ user: 'replica-a' }), clock, lines);
    const b = elector('replica-b', server.kubeConfig({ user: 'replica-b' }), clock, lines);
    const c = elector('replica-c', server.kubeConfig({ user: 'replica-c' }), clock, lines);
    a.start();
    await a.idle();
    b.start();
    const busy = () => [a.idle(), b.idle(), c.idle()];
    await run(clock, 5000, busy);

    await a.stop({ release: false }); // killed: no more renewals, the Lease still names it
    const takeoverMs = await until(clock, () => b.isLeader(), busy, 30_000);
    console.log(
      `Lease takeover after the leader died: ${takeoverMs} ms (virtual; lease 15000 ms, renew 2000 ms)`,
    );
    // The standby waits the lease duration from when it last saw the Lease change (a renew 0-2 s before).
    expect(takeoverMs).toBeGreaterThanOrEqual(15_000 - 2000);
    expect(takeoverMs).toBeLessThanOrEqual(15_000 + 2000);

    c.start();
    await run(clock, 3000, busy);
    await b.stop({ release: true });
    expect(((await server.get(leaseRef)) as V1Lease).spec?.holderIdentity).toBe('');
    const releasedMs = await until(clock, () => c.isLeader(), busy, 30_000);
    console.log(`Lease takeover after the leader released it: ${releasedMs} ms (virtual)`);
    expect(releasedMs).toBeLessThanOrEqual(2000);
    expect(((await server.get(leaseRef)) as V1Lease).spec?.leaseTransitions).toBe(1);
    await c.stop({ release: false });
  });

  it('a partitioned old leader never writes after the new leader’s first write', async () => {
    const server = await cluster();
    const proxy = await ApiProxy.start(server); // replica-a reaches the API server through it
    const { clock, lines, a, b, refusedA, busy } = await pairWithWriters(
      proxy.kubeConfig('replica-a'),
      server.kubeConfig({ user: 'replica-b' }),
    );
    expect(a.isLeader()).toBe(true);

    // replica-a loses the Lease's endpoint only: its Service writes still reach the API server.
    proxy.refuse = (_method, path) => path.includes('/leases/');
    const partitionedAt = clock.now();
    await until(clock, () => b.isLeader(), busy, 30_000);
    await run(clock, 5000, busy);

    const a200 = statusWrites(server, 'replica-a');
    const b200 = statusWrites(server, 'replica-b');
    expect(a200.length).toBeGreaterThan(5);
    expect(b200.length).toBeGreaterThan(5);
    expect(Math.max(...a200)).toBeLessThan(Math.min(...b200));
    expect(refusedA.length).toBeGreaterThan(0);
    expect(refusedA.every((e) => e instanceof NotLeaderError)).toBe(true);
    const stepDown = lines.indexOf('replica-a stopped leading: no successful renew within 10000 ms');
    expect(stepDown).toBeGreaterThanOrEqual(0);
    expect(stepDown).toBeLessThan(lines.findIndex((l) => l.startsWith('replica-b leads')));
    expect(clock.now() - partitionedAt).toBeGreaterThan(10_000);
    await Promise.all([a.stop({ release: false }), b.stop({ release: false })]);
  });

  it('a leader whose renewals fail stops writing at its renew deadline; nobody writes until the Lease is reachable', async () => {
    const server = await cluster();
    const { clock, a, b, busy } = await pairWithWriters(
      server.kubeConfig({ user: 'replica-a' }),
      server.kubeConfig({ user: 'replica-b' }),
    );
    let stepDownSeq = 0;
    a.onChange((c) => {
      if (!c.leading) stepDownSeq = server.requests().length;
    });

    server.failRequests({ status: 503, count: Infinity, match: { name: 'metallb-controller' } });
    const failedFrom = server.requests().length;
    await run(clock, 20_000, busy);
    expect([a.isLeader(), b.isLeader()]).toEqual([false, false]);
    // replica-a wrote while its renew deadline lasted, and not once after it stepped down; nor did replica-b.
    expect(stepDownSeq).toBeGreaterThan(failedFrom);
    const lastA = Math.max(...statusWrites(server, 'replica-a'));
    expect(lastA).toBeGreaterThan(failedFrom);
    expect(lastA).toBeLessThanOrEqual(stepDownSeq);
    expect(statusWrites(server, 'replica-b')).toEqual([]);

    server.clearFaults();
    const heldFrom = server.requests().length;
    await until(clock, () => a.isLeader() || b.isLeader(), busy, 30_000);
    await run(clock, 2000, busy);
    const leader = a.isLeader() ? 'replica-a' : 'replica-b';
    expect(statusWrites(server, leader).some((seq) => seq > heldFrom)).toBe(true);
    await Promise.all([a.stop({ release: false }), b.stop({ release: false })]);
  });

  it('gives up a Lease request that hangs, so the election goes on once the API server answers again', async () => {
    const clock = new VirtualClock();
    const server = await startServer({ clock }); // injected delays run on the same virtual clock
    await server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    const lines: string[] = [];
    const a = elector('replica-a', server.kubeConfig({ user: 'replica-a' }), clock, lines);
    const b = elector('replica-b', server.kubeConfig({ user: 'replica-b' }), clock, lines);
    const busy = () => [a.idle(), b.idle()];
    a.start();
    await a.idle();
    b.start();
    await run(clock, 3000, busy);
    // Every Lease request from now on is held for ten minutes without an answer.
    server.delayResponses({ ms: 600_000, count: Infinity, match: { resource: 'leases' } });
    // Requests that hang cannot be waited for: each step waits for them at most 20 ms of real time.
    const patient = () => [Promise.race([Promise.all(busy()), sleep(20)])];
    await run(clock, 12_000, patient, 500);
    expect([a.isLeader(), b.isLeader()]).toEqual([false, false]);
    expect(lines).toContain('replica-a stopped leading: no successful renew within 10000 ms');
    server.clearFaults();
    const ms = await until(clock, () => a.isLeader() || b.isLeader(), patient, 30_000, 100);
    expect(ms).toBeLessThanOrEqual(15_000 + 5000 + 2000);
    await Promise.all([a.stop({ release: false }), b.stop({ release: false })]);
  });

  it('refuses settings where the fence could not hold', () => {
    expect(() =>
      elector('x', new KubeConfig(), new VirtualClock(), [], {
        leaseDurationMs: 5000,
        renewDeadlineMs: 6000,
      }),
    ).toThrow(/renew deadline/);
  });
});

describe('leader election in real time', () => {
  it('measures the takeover after a leader dies (lease 1000 ms, renew 100 ms)', async () => {
    const server = await cluster();
    const clock = new RealClock();
    const lines: string[] = [];
    const options = { leaseDurationMs: 1000, renewMs: 100 };
    const a = elector('replica-a', server.kubeConfig(), clock, lines, {
      ...options,
      clockEpochMs: clock.epochMs,
    });
    const b = elector('replica-b', server.kubeConfig(), clock, lines, {
      ...options,
      clockEpochMs: clock.epochMs,
    });
    a.start();
    await eventually('replica-a leads', () => a.isLeader());
    b.start();
    await sleep(300);
    await a.stop({ release: false });
    const died = clock.now();
    await eventually('replica-b leads', () => b.isLeader(), 3000);
    const ms = Math.round(clock.now() - died);
    console.log(`Lease takeover after the leader died: ${ms} ms (real time; lease 1000 ms, renew 100 ms)`);
    expect(ms).toBeGreaterThanOrEqual(800);
    expect(ms).toBeLessThan(1500);
    await b.stop({ release: true });
  });
});
