/**
 * Service addresses on lo: delivered locally, never answered by the kernel in ARP or NDP. Only a speaker
 * (here the real L2Announcer on a packet socket) makes them reachable, exactly as on a real node.
 */
import { describe, expect, it } from 'vitest';
import { L2Announcer } from '../../core/l2/announcer/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { AddressSet } from './address-set.ts';
import { lan, poke, record, sent, v4, v6 } from './test-support.ts';

const VIP4 = v4(200);
const VIP6 = v6(0x200);
const MAC2 = '02:00:00:00:00:02';

function setup() {
  const { net, hosts } = lan(3);
  const [h1, h2, h3] = hosts as [(typeof hosts)[0], (typeof hosts)[0], (typeof hosts)[0]];
  h2.addLoopbackAddress(VIP4);
  h2.addLoopbackAddress(VIP6);
  return { net, h1, h2, h3, events: record(net) };
}

describe('addresses on lo', () => {
  it.each([VIP4, VIP6])('%s is never answered by the kernel; the asker fails to resolve it', (vip) => {
    const { net, h1, h2, events } = setup();
    poke(h1, vip);
    net.runSync(4000);
    expect(sent(events, 'h2')).toEqual([]);
    expect(h2.neighbours('eth0')).toEqual([]);
    expect(h1.neighbour('eth0', vip)?.state).toBe('FAILED');
  });

  it.each([VIP4, VIP6])('%s is reachable once a speaker answers for it, and delivered to the node', (vip) => {
    const { net, h1, h2 } = setup();
    const speaker = h2.process('speaker');
    const announcer = new L2Announcer(speaker.clock, [speaker.rawPort('eth0')], { name: 'h2' });
    announcer.setOwned([{ ip: IpAddress.parse(vip), interfaces: ['eth0'] }], 'test');
    const got: string[] = [];
    h2.udp(vip, 9).onMessage((_p, from) => got.push(from.address));
    net.runSync(2000);
    poke(h1, vip);
    net.runSync(1);
    expect(h1.neighbour('eth0', vip)).toEqual({ ip: vip, mac: MAC2, state: 'REACHABLE' });
    expect(got).toEqual([vip === VIP4 ? v4(11) : v6(11)]);
  });

  it('an echo server answers probes to the address, from the node’s interface address (wildcard socket)', async () => {
    const { net, h1, h2, events } = setup();
    const speaker = h2.process('speaker');
    new L2Announcer(speaker.clock, [speaker.rawPort('eth0')]).setOwned(
      [{ ip: IpAddress.parse(VIP4), interfaces: ['eth0'] }],
      'test',
    );
    h2.echoServer(7777, 'h2');
    const summary = await net.settle(
      h1.prober({ target: VIP4, port: 7777, ratePps: 100, count: 10, durationMs: 1000 }),
      5000,
    );
    expect(summary).toMatchObject({
      sent: 10,
      received: 10,
      lost: 0,
      servers: [{ server: 'h2', replies: 10 }],
    });
    const sources = new Set(
      sent(events, 'h2').flatMap(({ frame }) =>
        frame.kind === 'other' && frame.ethernet.etherType === 0x0800
          ? [IpAddress.fromBytes(frame.ethernet.payload.subarray(12, 16)).toString()]
          : [],
      ),
    );
    expect([...sources]).toEqual([v4(12)]);
  });

  it('a host sending to its own service address delivers it through lo, with no frame on the wire', () => {
    const { net, h2, events } = setup();
    const got: string[] = [];
    h2.udp(VIP4, 9).onMessage((_p, from) => got.push(from.address));
    poke(h2, VIP4);
    net.runSync(0);
    expect(got).toEqual([VIP4]);
    expect(sent(events, 'h2')).toEqual([]);
  });

  it('one address set serves many hosts', () => {
    const { net, h1, h3 } = setup();
    const shared = new AddressSet([v4(201), v4(202)]);
    h1.addLoopbackSet(shared);
    h3.addLoopbackSet(shared);
    expect(h1.isLocalAddress(v4(202)) && h3.isLocalAddress(v4(201))).toBe(true);
    shared.add(v4(203));
    expect(h3.isLocalAddress(v4(203))).toBe(true);
    h3.removeLoopbackSet(shared);
    expect(h3.isLocalAddress(v4(203))).toBe(false);
    expect(net.host('h2').isLocalAddress(v4(201))).toBe(false);
  });
});
