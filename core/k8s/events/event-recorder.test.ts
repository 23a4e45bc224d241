/**
 * The recorder writing through client-node to the API test server: the Events as MetalLB's look, repeats
 * counted on the first Event, and an API server that is away costing nothing but the oldest events.
 */
import { describe, expect, it } from 'vitest';
import { RealClock } from '../../runtime/real-clock.ts';
import { startServer, sleep, type KubeApiTestServer } from '../kube-api-server.test-support.ts';
import { kubeEventRecorder, type EventRecorderOptions, type RecordedEvent } from './event-recorder.ts';

const web = { apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'web', uid: 'u-1' };
const allocated = (message = 'Assigned IP ["198.18.10.1"]'): RecordedEvent => ({
  type: 'Normal',
  reason: 'IPAllocated',
  message,
  involved: web,
});

const clock = new RealClock();
const wallNow = () => clock.epochMs + clock.now();

async function setup(options: Partial<EventRecorderOptions> = {}) {
  const server = await startServer();
  const log: string[] = [];
  const recorder = kubeEventRecorder({
    kc: server.kubeConfig(),
    component: 'metallb-controller',
    clock,
    log: (l) => log.push(l),
    retryInitialMs: 10,
    retryMaxMs: 50,
    ...options,
  });
  const events = async (namespace = 'default') => server.list('v1', 'Event', namespace);
  return { server, recorder, log, events };
}

const eventWrites = (server: KubeApiTestServer) =>
  server
    .requests()
    .filter((r) => r.resource === 'events')
    .map((r) => `${r.verb} ${r.code}`);

describe('kubeEventRecorder', () => {
  it('writes core/v1 Events with MetalLB’s fields, in the object’s namespace, named <object>.<hex>', async () => {
    const t = await setup({ component: 'metallb-speaker', host: 'n1' });
    const before = wallNow();
    t.recorder.record(allocated());
    t.recorder.record({
      type: 'Warning',
      reason: 'announceFailed',
      message: 'no interface',
      involved: { apiVersion: 'v1', kind: 'Node', name: 'n1' },
    });
    await t.recorder.flush();
    const listed = await t.events();
    const event = listed.find((e) => e['reason'] === 'IPAllocated');
    const nodeEvent = listed.find((e) => e['reason'] === 'announceFailed');
    expect(event).toMatchObject({
      metadata: { namespace: 'default' },
      involvedObject: web,
      type: 'Normal',
      reason: 'IPAllocated',
      message: 'Assigned IP ["198.18.10.1"]',
      source: { component: 'metallb-speaker', host: 'n1' },
      reportingComponent: 'metallb-speaker',
      reportingInstance: 'n1',
      count: 1,
    });
    expect(event!.metadata.name).toMatch(/^web\.[0-9a-f]{16,}$/);
    const first = Date.parse(event!['firstTimestamp'] as string);
    expect(first).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(first).toBeLessThanOrEqual(wallNow());
    // A cluster-scoped object's Events go to `default`, as kube-apiserver requires.
    expect(nodeEvent).toMatchObject({
      involvedObject: { kind: 'Node', name: 'n1' },
      type: 'Warning',
      reason: 'announceFailed',
    });
    expect(t.recorder.dropped()).toBe(0);
  });

  it('counts repeats on the first Event (one create, then merge patches), and a new message is a new Event', async () => {
    const t = await setup();
    t.recorder.record(allocated());
    await t.recorder.flush();
    t.recorder.record(allocated());
    await t.recorder.flush();
    // The first of these is written at once; the four recorded meanwhile fold into one patch.
    for (let i = 0; i < 5; i++) t.recorder.record(allocated());
    await t.recorder.flush();
    t.recorder.record(allocated('Assigned IP ["198.18.10.2"]'));
    await t.recorder.flush();
    const events = await t.events();
    expect(events.map((e) => [e['message'], e['count']])).toEqual([
      ['Assigned IP ["198.18.10.1"]', 7],
      ['Assigned IP ["198.18.10.2"]', 1],
    ]);
    expect(eventWrites(t.server)).toEqual([
      'create 201',
      'patch 200',
      'patch 200',
      'patch 200',
      'create 201',
    ]);
  });

  it('writes a new Event for a repeat after the window', async () => {
    const t = await setup({ repeatWindowMs: 50 });
    t.recorder.record(allocated());
    await t.recorder.flush();
    await sleep(80);
    t.recorder.record(allocated());
    await t.recorder.flush();
    expect((await t.events()).map((e) => e['count'])).toEqual([1, 1]);
  });

  it('with the API server down, record() neither throws nor waits, and the events are written once it is back', async () => {
    const t = await setup();
    await t.server.down();
    const started = clock.now();
    for (let i = 0; i < 3; i++) t.recorder.record(allocated(`event ${i}`));
    expect(clock.now() - started).toBeLessThan(20);
    await sleep(150);
    await t.server.up();
    await t.recorder.flush();
    expect((await t.events()).map((e) => e['message'])).toEqual(['event 0', 'event 1', 'event 2']);
    expect(t.log[0]).toMatch(/^events: cannot write \(.+\); retrying, keeping up to 1000 events$/);
    expect(t.log.at(-1)).toBe('events: written again (0 dropped so far)');
  });

  it('keeps the one being written and the newest while the API server is away, and counts the dropped', async () => {
    const t = await setup({ queueLimit: 3 });
    await t.server.down();
    for (let i = 0; i < 5; i++) t.recorder.record(allocated(`event ${i}`));
    expect(t.recorder.dropped()).toBe(2);
    await t.server.up();
    await t.recorder.flush();
    expect((await t.events()).map((e) => e['message'])).toEqual(['event 0', 'event 3', 'event 4']);
    expect(t.log).toContain('events: dropped 1 (the queue is full)');
  });

  it('retries a 503 and gives up on a 403 (it would fail again), going on with the next', async () => {
    const t = await setup();
    t.server.failRequests({ status: 503, count: 2, match: { resource: 'events' } });
    t.recorder.record(allocated('after 503s'));
    await t.recorder.flush();
    t.server.failRequests({ status: 403, count: 1, match: { resource: 'events' } });
    t.recorder.record(allocated('forbidden'));
    t.recorder.record(allocated('next'));
    await t.recorder.flush();
    expect((await t.events()).map((e) => e['message'])).toEqual(['after 503s', 'next']);
    expect(eventWrites(t.server)).toEqual([
      'create 503',
      'create 503',
      'create 201',
      'create 403',
      'create 201',
    ]);
    expect(t.recorder.dropped()).toBe(1);
    expect(t.log).toContain('events: IPAllocated on Service default/web not written: HTTP 403');
  });

  it('writes nothing after close()', async () => {
    const t = await setup();
    await t.recorder.close();
    t.recorder.record(allocated());
    await sleep(30);
    expect(eventWrites(t.server)).toEqual([]);
  });
});
