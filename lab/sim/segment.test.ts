/**
 * The learning switch. h2 and h3 share one MAC (h3 never speaks), so which of them receives a frame for
 * that MAC shows whether the switch flooded it (both) or forwarded it to the learnt port (h2 only).
 */
import { describe, expect, it } from 'vitest';
import { encodeEthernet } from '../../core/l2/wire/index.ts';
import { MacAddress } from '../../core/net/index.ts';
import { Network } from './network.ts';
import { record } from './test-support.ts';
import type { TraceEvent } from './trace.ts';

const SHARED = '02:00:00:00:00:22';

function setup() {
  const net = new Network({ segments: { agingMs: 10_000 } });
  const hosts = ['h1', 'h2', 'h3'].map((name, i) => {
    const h = net.host(name);
    h.attach('eth0', 'lan', { mac: i === 0 ? '02:00:00:00:00:11' : SHARED });
    return h;
  });
  const ports = hosts.map((h) => h.rawPort('eth0'));
  const events = record(net);
  const send = (from: number, dst: string) => {
    ports[from]!.send(
      encodeEthernet({
        dst: MacAddress.parse(dst),
        src: ports[from]!.mac,
        etherType: 0x88b5,
        payload: new Uint8Array(46),
      }),
    );
    net.runSync(0);
  };
  const receivers = () => deliveredTo(events.splice(0));
  return { net, send, receivers, segment: net.segment('lan') };
}

function deliveredTo(events: TraceEvent[]): string[] {
  return events.flatMap((e) => (e.kind === 'frame' && e.action === 'delivered' ? [e.host] : [])).sort();
}

describe('learning switch', () => {
  it('floods an unknown unicast, forwards a learnt one to its port only, and floods again once it ages out', () => {
    const { net, send, receivers, segment } = setup();
    send(0, SHARED);
    expect(receivers()).toEqual(['h2', 'h3']);
    send(1, '02:00:00:00:00:11');
    expect(receivers()).toEqual(['h1']);
    expect(segment.macTable().map((e) => [e.mac, e.host])).toEqual([
      ['02:00:00:00:00:11', 'h1'],
      [SHARED, 'h2'],
    ]);
    send(0, SHARED);
    expect(receivers()).toEqual(['h2']);
    net.runSync(10_001);
    expect(segment.macTable()).toEqual([]);
    send(0, SHARED);
    expect(receivers()).toEqual(['h2', 'h3']);
  });

  it('floods broadcast and multicast to every other port, never back to the sender', () => {
    const { send, receivers } = setup();
    send(0, 'ff:ff:ff:ff:ff:ff');
    expect(receivers()).toEqual(['h2', 'h3']);
    send(1, '33:33:00:00:00:01');
    expect(receivers()).toEqual(['h1', 'h3']);
  });

  it('a port going down forgets its addresses: the next frame is flooded, and nothing reaches the down port', () => {
    const { net, send, receivers } = setup();
    send(1, '02:00:00:00:00:11');
    receivers();
    net.host('h2').linkDown('eth0');
    send(0, SHARED);
    expect(receivers()).toEqual(['h3']);
  });

  it('moves a MAC to the port it is seen on last', () => {
    const { send, receivers, segment } = setup();
    send(1, '02:00:00:00:00:11');
    send(2, '02:00:00:00:00:11');
    receivers();
    expect(segment.macTable().find((e) => e.mac === SHARED)?.host).toBe('h3');
    send(0, SHARED);
    expect(receivers()).toEqual(['h3']);
  });
});
