/** nodeAssigned only when the assignment changes (MetalLB repeats it every sync), announceFailed after a grace. */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import type { Announcements, DesiredStatus } from './announcements.ts';
import { AnnounceEvents, type EventSink } from './announce-events.ts';

const l2 = (name: string): DesiredStatus => ({
  protocol: 'layer2',
  serviceNamespace: 'shop',
  serviceName: name,
  interfaces: ['eth0'],
});
const bgp = (name: string): DesiredStatus => ({
  protocol: 'bgp',
  serviceNamespace: 'shop',
  serviceName: name,
  peers: ['r1'],
});
const state = (statuses: DesiredStatus[], failures: [string, string][] = []): Announcements => ({
  statuses,
  failures: new Map(failures),
});

function setup() {
  const clock = new VirtualClock();
  const recorded: Parameters<EventSink['record']>[0][] = [];
  const events = new AnnounceEvents({
    node: 'n1',
    recorder: { record: (e) => recorded.push(e) },
    clock,
    serviceUid: (ns, name) => (name === 'web' ? `uid-${ns}-${name}` : undefined),
    failGraceMs: 5000,
  });
  const lines = () =>
    recorded.map((e) => `${e.type} ${e.reason} ${e.involved.namespace}/${e.involved.name}: ${e.message}`);
  return { clock, events, recorded, lines };
}

describe('announce events', () => {
  it('nodeAssigned once per (Service, protocol) this node starts announcing, not on every update', () => {
    const { events, recorded, lines } = setup();
    events.update(state([l2('web')]));
    events.update(state([l2('web')]));
    events.update(state([l2('web'), bgp('web')]));
    events.update(state([l2('web'), bgp('web')]));
    expect(lines()).toEqual([
      'Normal nodeAssigned shop/web: announcing from node "n1" with protocol "layer2"',
      'Normal nodeAssigned shop/web: announcing from node "n1" with protocol "bgp"',
    ]);
    expect(recorded[0]!.involved).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      namespace: 'shop',
      name: 'web',
      uid: 'uid-shop-web',
    });
  });

  it('a Service that moves away and comes back is assigned again', () => {
    const { events, lines } = setup();
    events.update(state([l2('db')]));
    events.update(state([]));
    events.update(state([l2('db')]));
    expect(lines()).toHaveLength(2);
  });

  it('announceFailed only once a failure has lasted the grace, once per reason, again after a recovery', () => {
    const { clock, events, lines } = setup();
    events.update(state([bgp('web')], [['shop/web', 'no BGP session is up']]));
    clock.advance(3000);
    // Still the same failure: the grace runs from when it began.
    events.update(state([bgp('web')], [['shop/web', 'no BGP session is up']]));
    expect(lines().filter((l) => l.includes('announceFailed'))).toEqual([]);
    clock.advance(2000);
    expect(lines().filter((l) => l.includes('announceFailed'))).toEqual([
      'Warning announceFailed shop/web: Failed to announce service: no BGP session is up',
    ]);
    clock.advance(60_000);
    events.update(state([bgp('web')], [['shop/web', 'no BGP session is up']]));
    expect(lines().filter((l) => l.includes('announceFailed'))).toHaveLength(1);
    events.update(state([bgp('web')]));
    events.update(state([bgp('web')], [['shop/web', 'no BGP session is up']]));
    clock.advance(5000);
    expect(lines().filter((l) => l.includes('announceFailed'))).toHaveLength(2);
  });

  it('a failure that clears within the grace is never recorded', () => {
    const { clock, events, lines } = setup();
    events.update(state([], [['shop/web', 'no node can announce it']]));
    clock.advance(4000);
    events.update(state([l2('web')]));
    clock.advance(10_000);
    expect(lines().filter((l) => l.includes('announceFailed'))).toEqual([]);
  });
});
