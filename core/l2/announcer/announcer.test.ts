import { describe, expect, it } from 'vitest';
import { IpAddress, MacAddress } from '../../net/index.ts';
import { type FramePort, MemorySegment, VirtualClock } from '../../runtime/index.ts';
import {
  ALL_NODES,
  ALL_NODES_MAC,
  type Frame,
  arpRequest,
  decodeFrame,
  encodeFrame,
  gratuitousArp,
  neighborSolicitation,
  solicitedNodeMac,
  solicitedNodeMulticast,
  unsolicitedNeighborAdvertisement,
} from '../wire/index.ts';
import { L2Announcer } from './announcer.ts';
import { AnnouncerClosedError, AnnouncerConfigError, UnknownInterfaceError } from './errors.ts';
import type { AnnouncerEvent } from './events.ts';
import type { AnnouncerOptions } from './options.ts';

const ip = IpAddress.parse;
const mac = MacAddress.parse;
const N1_ETH0 = mac('02:00:00:00:01:00');
const N1_ETH1 = mac('02:00:00:00:01:01');
const N2 = mac('02:00:00:00:02:00');
const CLIENT = mac('02:00:00:00:99:00');
const VIP4 = ip('198.18.0.10');
const VIP6 = ip('2001:db8::10');
const CLIENT4 = ip('198.18.0.99');
const CLIENT6 = ip('2001:db8::99');

/**
 * Node n1 with eth0 on segment lan-a and eth1 on lan-b; on each segment a client that records what it
 * receives; on lan-a another node n2 that may claim n1's addresses.
 */
function lab(options: AnnouncerOptions = {}) {
  const clock = new VirtualClock();
  const lanA = new MemorySegment(clock);
  const lanB = new MemorySegment(clock);
  // The node's ports carry its interface names; each segment has its own namespace of port names.
  const ports = [lanA.attach('eth0', N1_ETH0), lanB.attach('eth1', N1_ETH1)];
  const announcer = new L2Announcer(clock, ports, options);
  const events: AnnouncerEvent[] = [];
  announcer.onEvent((e) => events.push(e));
  const clientA = recorder(clock, lanA.attach('client-a', CLIENT));
  const clientB = recorder(clock, lanB.attach('client-b', CLIENT));
  const n2 = lanA.attach('n2-eth0', N2);
  /** Lets the segments deliver what was sent at the current time. */
  const settle = () => clock.advance(0);
  return { clock, announcer, events, clientA, clientB, n2, settle };
}

function recorder(clock: VirtualClock, port: FramePort) {
  const got: { atMs: number; frame: Frame }[] = [];
  // Keeps what decodes: the robustness tests put garbage on the segment on purpose.
  port.onFrame((bytes) => {
    try {
      got.push({ atMs: clock.now(), frame: decodeFrame(bytes) });
    } catch {
      // not a frame the client could read either
    }
  });
  return {
    port,
    got,
    send: (frame: Frame) => port.send(encodeFrame(frame)),
    times: () => got.map((g) => g.atMs),
    take: () => got.splice(0).map((g) => g.frame),
  };
}

const own4 = (...interfaces: string[]) => [{ ip: VIP4, interfaces }];
const own6 = (...interfaces: string[]) => [{ ip: VIP6, interfaces }];
const whoHas = (target: IpAddress, dst = MacAddress.broadcast): Frame => {
  const req = arpRequest({ targetIp: target, senderIp: CLIENT4, senderMac: CLIENT });
  return { ...req, ethernet: { ...req.ethernet, dst } };
};
const solicit = (target: IpAddress) => neighborSolicitation({ target, source: CLIENT6, mac: CLIENT });

describe('takeover', () => {
  it('IPv4: gratuitous ARP request then reply at once, then again at +100, +300 and +1000 ms', () => {
    const { clock, announcer, events, clientA, settle } = lab();
    announcer.setOwned(own4('eth0'), 'won the election for default/web');
    settle();
    expect(clientA.take()).toEqual([
      gratuitousArp({ ip: VIP4, mac: N1_ETH0, form: 'request' }),
      gratuitousArp({ ip: VIP4, mac: N1_ETH0, form: 'reply' }),
    ]);
    clock.advance(5000);
    expect(clientA.times()).toEqual([100, 100, 300, 300, 1000, 1000]);
    expect(events).toEqual([
      {
        kind: 'took-over',
        vip: VIP4,
        interfaces: ['eth0'],
        atMs: 0,
        reason: 'won the election for default/web',
      },
    ]);
    expect(announcer.stats()).toMatchObject({ gratuitousSent: 8, ownershipChanges: 1 });
  });

  it('the two ARP forms are the ones hosts expect: RFC 5227 announcement and gratuitous reply', () => {
    const { announcer, clientA, settle } = lab();
    announcer.setOwned(own4('eth0'), 'won');
    settle();
    const [request, reply] = clientA.take();
    expect(request).toMatchObject({
      ethernet: { dst: MacAddress.broadcast, src: N1_ETH0 },
      arp: { op: 'request', senderMac: N1_ETH0, senderIp: VIP4, targetMac: MacAddress.zero, targetIp: VIP4 },
    });
    expect(reply).toMatchObject({
      arp: {
        op: 'reply',
        senderMac: N1_ETH0,
        senderIp: VIP4,
        targetMac: MacAddress.broadcast,
        targetIp: VIP4,
      },
    });
  });

  it('IPv6: an unsolicited NA with Override to all-nodes at once, then the burst', () => {
    const { clock, announcer, clientA, settle } = lab();
    announcer.setOwned(own6('eth0'), 'won');
    settle();
    const [na] = clientA.take();
    expect(na).toEqual(unsolicitedNeighborAdvertisement({ target: VIP6, mac: N1_ETH0 }));
    expect(na).toMatchObject({
      ethernet: { dst: ALL_NODES_MAC },
      ipv6: { dst: ALL_NODES },
      na: { solicited: false, override: true, target: VIP6, options: [{ kind: 'target-lla', mac: N1_ETH0 }] },
    });
    clock.advance(5000);
    expect(clientA.times()).toEqual([100, 300, 1000]);
  });

  it('only on the interfaces it owns the address on', () => {
    const { clock, announcer, clientA, clientB } = lab();
    announcer.setOwned(own4('eth1'), 'won on lan-b');
    clock.advance(5000);
    expect(clientA.got).toEqual([]);
    expect(clientB.got).toHaveLength(8);
  });

  it('burst offsets and a periodic refresh are configurable; without a refresh no timer is left', () => {
    const { clock, announcer, clientA } = lab({ burstOffsetsMs: [50, 200], refreshIntervalMs: 5000 });
    announcer.setOwned(own6('eth0'), 'won');
    clock.advance(12_000);
    expect(clientA.times()).toEqual([0, 50, 200, 5000, 10_000]);
    announcer.setOwned([], 'lost');
    expect(clock.pending()).toEqual([]);

    const quiet = lab();
    quiet.announcer.setOwned(own4('eth0'), 'won');
    quiet.clock.advance(1000);
    expect(quiet.clock.pending()).toEqual([]);
  });

  it('telling it the same ownership again changes nothing', () => {
    const { clock, announcer, events, clientA } = lab();
    announcer.setOwned(own4('eth0'), 'won');
    clock.advance(2000);
    announcer.setOwned(own4('eth0'), 'still won');
    clock.advance(2000);
    expect(clientA.got).toHaveLength(8);
    expect(events).toHaveLength(1);
  });

  it('an address listed twice (two services sharing it) is owned on the union of the interfaces', () => {
    const { announcer } = lab();
    announcer.setOwned(
      [
        { ip: VIP4, interfaces: ['eth0'] },
        { ip: ip('198.18.0.10'), interfaces: ['eth1'] },
        { ip: VIP6, interfaces: [] },
      ],
      'two services share 198.18.0.10',
    );
    expect(announcer.ownership()).toEqual([{ ip: VIP4, interfaces: ['eth0', 'eth1'] }]);
  });

  it('gaining an interface announces there only; losing one releases it there only', () => {
    const { clock, announcer, events, clientA, clientB } = lab();
    announcer.setOwned(own4('eth0'), 'won');
    clock.advance(2000);
    clientA.take();
    announcer.setOwned(own4('eth0', 'eth1'), 'lan-b added to the advertisement');
    clock.advance(2000);
    expect(clientA.got).toEqual([]);
    expect(clientB.got).toHaveLength(8);
    announcer.setOwned(own4('eth1'), 'lan-a removed');
    expect(events.map((e) => [e.kind, 'interfaces' in e ? e.interfaces : []])).toEqual([
      ['took-over', ['eth0']],
      ['took-over', ['eth1']],
      ['released', ['eth0']],
    ]);
  });
});

describe('answering', () => {
  it('an ARP request for an owned address gets a reply with our MAC, sent to the asker', () => {
    const { announcer, clientA, settle } = lab();
    announcer.setOwned(own4('eth0'), 'won');
    settle();
    clientA.take();
    clientA.send(whoHas(VIP4));
    settle();
    expect(clientA.take()).toEqual([
      {
        kind: 'arp',
        ethernet: { dst: CLIENT, src: N1_ETH0 },
        arp: { op: 'reply', senderMac: N1_ETH0, senderIp: VIP4, targetMac: CLIENT, targetIp: CLIENT4 },
      },
    ]);
    expect(announcer.stats()).toMatchObject({ arpRequestsOwned: 1, responsesSent: 1 });
  });

  it('ARP requests for other addresses, on other interfaces, or sent to another MAC are not answered', () => {
    const { announcer, clientA, clientB, settle } = lab({ burstOffsetsMs: [] });
    announcer.setOwned(own4('eth0'), 'won');
    settle();
    clientA.take();
    clientB.take();
    clientA.send(whoHas(ip('198.18.0.11')));
    clientB.send(whoHas(VIP4));
    clientA.send(whoHas(VIP4, N2));
    settle();
    expect([...clientA.take(), ...clientB.take()]).toEqual([]);
    // The unicast to n2 was not addressed to n1, so it is not counted as a request at all.
    expect(announcer.stats()).toMatchObject({
      arpRequestsOwned: 0,
      arpRequestsNotOwned: 2,
      responsesSent: 0,
    });
  });

  it('an ARP probe (sender 0.0.0.0, RFC 5227) for an owned address is answered, defending it', () => {
    const { announcer, clientA, settle } = lab({ burstOffsetsMs: [] });
    announcer.setOwned(own4('eth0'), 'won');
    settle();
    clientA.take();
    clientA.send(arpRequest({ targetIp: VIP4, senderIp: ip('0.0.0.0'), senderMac: CLIENT }));
    settle();
    expect(clientA.take()).toMatchObject([{ arp: { op: 'reply', senderIp: VIP4, targetMac: CLIENT } }]);
  });

  it('a neighbour solicitation for an owned address gets a solicited NA with our MAC', () => {
    const { announcer, clientA, settle } = lab({ burstOffsetsMs: [] });
    announcer.setOwned(own6('eth0'), 'won');
    settle();
    clientA.take();
    clientA.send(solicit(VIP6));
    clientA.send(solicit(ip('2001:db8::11')));
    settle();
    expect(clientA.take()).toEqual([
      {
        kind: 'na',
        ethernet: { dst: CLIENT, src: N1_ETH0 },
        ipv6: { src: VIP6, dst: CLIENT6 },
        na: {
          router: false,
          solicited: true,
          override: true,
          target: VIP6,
          options: [{ kind: 'target-lla', mac: N1_ETH0 }],
        },
      },
    ]);
    expect(announcer.stats()).toMatchObject({ nsRequestsOwned: 1, nsRequestsNotOwned: 1, responsesSent: 1 });
  });

  it('duplicate address detection for an owned address is answered to all-nodes (RFC 4861 §7.2.4)', () => {
    const { announcer, clientA, settle } = lab({ burstOffsetsMs: [] });
    announcer.setOwned(own6('eth0'), 'won');
    settle();
    clientA.take();
    clientA.send({
      kind: 'ns',
      ethernet: { dst: solicitedNodeMac(VIP6), src: CLIENT },
      ipv6: { src: ip('::'), dst: solicitedNodeMulticast(VIP6) },
      ns: { target: VIP6, options: [] },
    });
    settle();
    expect(clientA.take()).toMatchObject([
      { ethernet: { dst: ALL_NODES_MAC }, ipv6: { dst: ALL_NODES }, na: { solicited: false, target: VIP6 } },
    ]);
  });

  it('stops answering at once when ownership moves away, and the burst stops with it', () => {
    const { clock, announcer, events, clientA } = lab();
    announcer.setOwned([...own4('eth0'), ...own6('eth0')], 'won');
    clock.advance(150);
    clientA.take();
    announcer.setOwned([], 'n2 won the re-election');
    clientA.send(whoHas(VIP4));
    clientA.send(solicit(VIP6));
    clock.advance(5000);
    expect(clientA.got).toEqual([]);
    expect(events.filter((e) => e.kind === 'released')).toEqual([
      { kind: 'released', vip: VIP4, interfaces: ['eth0'], atMs: 150, reason: 'n2 won the re-election' },
      { kind: 'released', vip: VIP6, interfaces: ['eth0'], atMs: 150, reason: 'n2 won the re-election' },
    ]);
    expect(announcer.stats()).toMatchObject({
      ownershipChanges: 4,
      arpRequestsNotOwned: 1,
      nsRequestsNotOwned: 1,
    });
  });
});

describe('reannounce', () => {
  it('sends a new burst for everything owned, with its reason', () => {
    const { clock, announcer, events, clientA, clientB } = lab();
    announcer.setOwned([...own4('eth0'), ...own6('eth1')], 'won');
    clock.advance(10_000);
    clientA.take();
    clientB.take();
    announcer.reannounce('partition healed');
    clock.advance(5000);
    expect(clientA.times()).toEqual([10_000, 10_000, 10_100, 10_100, 10_300, 10_300, 11_000, 11_000]);
    expect(clientB.times()).toEqual([10_000, 10_100, 10_300, 11_000]);
    expect(events.at(-1)).toEqual({
      kind: 'reannounced',
      vips: [VIP4, VIP6],
      atMs: 10_000,
      reason: 'partition healed',
    });
  });

  it('owning nothing, it sends nothing and says nothing', () => {
    const { clock, announcer, events, clientA } = lab();
    announcer.reannounce('partition healed');
    clock.advance(5000);
    expect([clientA.got, events]).toEqual([[], []]);
  });
});

describe('conflicts', () => {
  it('a gratuitous ARP, an ARP reply or an NA from another MAC for an owned address is reported', () => {
    const { announcer, events, n2, settle } = lab({ burstOffsetsMs: [] });
    announcer.setOwned([...own4('eth0'), ...own6('eth0')], 'won');
    settle();
    n2.send(encodeFrame(gratuitousArp({ ip: VIP4, mac: N2, form: 'request' })));
    n2.send(encodeFrame(gratuitousArp({ ip: VIP4, mac: N2, form: 'reply' })));
    n2.send(encodeFrame(unsolicitedNeighborAdvertisement({ target: VIP6, mac: N2 })));
    settle();
    const conflicts = events.filter((e) => e.kind === 'conflict');
    expect(conflicts.map((e) => [e.vip, e.interface, e.otherMac, e.reason])).toEqual([
      [VIP4, 'eth0', N2, `gratuitous ARP request from ${N2} claims ${VIP4}, owned here on eth0`],
      [VIP4, 'eth0', N2, `gratuitous ARP reply from ${N2} claims ${VIP4}, owned here on eth0`],
      [VIP6, 'eth0', N2, `neighbour advertisement from ${N2} claims ${VIP6}, owned here on eth0`],
    ]);
    expect(announcer.stats().conflicts).toBe(3);
  });

  it('claims for addresses not owned here, or owned on another interface, are not conflicts', () => {
    const { announcer, events, n2, settle } = lab({ burstOffsetsMs: [] });
    announcer.setOwned(own4('eth1'), 'won on lan-b');
    settle();
    n2.send(encodeFrame(gratuitousArp({ ip: VIP4, mac: N2, form: 'request' })));
    n2.send(encodeFrame(gratuitousArp({ ip: ip('198.18.0.11'), mac: N2, form: 'reply' })));
    settle();
    expect(events.filter((e) => e.kind === 'conflict')).toEqual([]);
  });

  it("the node's own frames on another of its ports are not conflicts", () => {
    const clock = new VirtualClock();
    const lan = new MemorySegment(clock);
    const a = lan.attach('eth0', N1_ETH0);
    const b = lan.attach('eth1', N1_ETH1);
    const announcer = new L2Announcer(clock, [a, b], { burstOffsetsMs: [] });
    announcer.setOwned([{ ip: VIP4, interfaces: ['eth0', 'eth1'] }], 'won on both');
    clock.advance(0);
    expect(announcer.stats()).toMatchObject({ conflicts: 0, gratuitousSent: 4 });
  });
});

describe('robustness', () => {
  it('frames that do not decode are counted by reason and ignored; other traffic is ignored', () => {
    const { announcer, n2, settle } = lab();
    const mld = hex(
      '3333 0000 0016 0200 0000 0200 86dd', // Ethernet to the MLDv2 routers group
      '6000 0000 0024 0001 fe80 0000 0000 0000 0000 0000 0000 0001 ff02 0000 0000 0000 0000 0000 0000 0016',
      '3a00 0502 0000 0100', // hop-by-hop: router alert, PadN
      '8f00 0000 0000 0001 0400 0000 ff02 0000 0000 0000 0000 0001 ff00 0010', // MLDv2 report
    );
    const ipv4 = hex(
      '0200 0000 0100 0200 0000 0200 0800',
      '4500 0014 0000 0000 4001 0000 c612 0063 c612 000a',
    );
    n2.send(mld);
    n2.send(hex('ffff ffff ffff 0200 0000 0200 0806 0001 0800 0604')); // ARP cut short
    n2.send(new Uint8Array([1, 2, 3]));
    n2.send(ipv4);
    expect(() => settle()).not.toThrow();
    expect(announcer.stats()).toMatchObject({
      undecodable: 3,
      undecodableByReason: { unsupported: 1, truncated: 2 },
    });
  });

  it('a port that fails to send is counted and the other ports still announce', () => {
    const clock = new VirtualClock();
    const lan = new MemorySegment(clock);
    const good = recorder(clock, lan.attach('watch', CLIENT));
    const broken: FramePort = {
      name: 'eth0',
      mac: N1_ETH0,
      send: () => {
        throw new Error('ENETDOWN');
      },
      onFrame: () => () => undefined,
      close: () => undefined,
    };
    const announcer = new L2Announcer(clock, [broken, lan.attach('eth1', N1_ETH1)], { burstOffsetsMs: [] });
    announcer.setOwned([{ ip: VIP4, interfaces: ['eth0', 'eth1'] }], 'won');
    clock.advance(0);
    expect(good.got).toHaveLength(2);
    expect(announcer.stats()).toMatchObject({ sendErrors: 2, gratuitousSent: 2 });
  });

  it('an interface without a port is refused before anything changes', () => {
    const { announcer, events } = lab();
    announcer.setOwned(own4('eth0'), 'won');
    expect(() => announcer.setOwned([...own4('eth0'), ...own6('eth9')], 'bad')).toThrow(
      UnknownInterfaceError,
    );
    expect(announcer.ownership()).toEqual([{ ip: VIP4, interfaces: ['eth0'] }]);
    expect(events).toHaveLength(1);
  });

  it.each<[string, AnnouncerOptions]>([
    ['negative offsets', { burstOffsetsMs: [-1] }],
    ['offsets out of order', { burstOffsetsMs: [300, 100] }],
    ['a zero refresh', { refreshIntervalMs: 0 }],
  ])('refuses %s', (_what, options) => {
    expect(() => lab(options)).toThrow(AnnouncerConfigError);
  });

  it('refuses two ports with one name', () => {
    const clock = new VirtualClock();
    const lan = new MemorySegment(clock);
    expect(() => new L2Announcer(clock, [lan.attach('eth0', N1_ETH0), lan.attach('eth0', N1_ETH1)])).toThrow(
      AnnouncerConfigError,
    );
  });

  it('close releases everything, stops listening and refuses further use', () => {
    const { clock, announcer, events, clientA } = lab();
    announcer.setOwned(own4('eth0'), 'won');
    clock.advance(150);
    clientA.take();
    announcer.close('speaker stopping');
    clientA.send(whoHas(VIP4));
    clock.advance(5000);
    expect(clientA.got).toEqual([]);
    expect(events.at(-1)).toMatchObject({ kind: 'released', vip: VIP4, reason: 'speaker stopping' });
    expect(() => announcer.setOwned(own4('eth0'), 'again')).toThrow(AnnouncerClosedError);
    expect(announcer.stats().arpRequestsNotOwned).toBe(0);
  });
});

describe("counts per address (MetalLB's layer2 metrics)", () => {
  const counts = (a: L2Announcer) => {
    const c = a.addressCounts();
    return Object.fromEntries(c.ips.map((ip, i) => [ip, [c.requests[i], c.responses[i], c.gratuitous[i]]]));
  };

  it('counts requests, responses and gratuitous frames of each owned address, and nothing for others', () => {
    const { clock, announcer, clientA } = lab();
    announcer.setOwned([...own4('eth0'), ...own6('eth0')], 'won');
    clock.advance(5000);
    clientA.send(whoHas(VIP4));
    clientA.send(whoHas(VIP4));
    clientA.send(solicit(VIP6));
    clientA.send(whoHas(ip('198.18.0.11')));
    clock.advance(1);
    // [requests, responses, gratuitous]: an IPv4 announcement is two frames, an IPv6 one is one NA.
    expect(counts(announcer)).toEqual({ [`${VIP4}`]: [2, 2, 8], [`${VIP6}`]: [1, 1, 4] });
  });

  it('keeps a released address for ten minutes, so a failover and back counts on, then drops it', () => {
    const { clock, announcer, clientA } = lab({ burstOffsetsMs: [] });
    announcer.setOwned(own4('eth0'), 'won');
    clientA.send(whoHas(VIP4));
    clock.advance(1);
    announcer.setOwned([], 'lost');
    clientA.send(whoHas(VIP4));
    clock.advance(60_000);
    expect(counts(announcer)).toEqual({ [`${VIP4}`]: [1, 1, 2] });
    announcer.setOwned(own4('eth0'), 'won again');
    clock.advance(1);
    expect(counts(announcer)).toEqual({ [`${VIP4}`]: [1, 1, 4] });
    announcer.setOwned(own6('eth0'), 'moved');
    clock.advance(10 * 60_000 - 1);
    expect(Object.keys(counts(announcer))).toEqual([`${VIP4}`, `${VIP6}`]);
    clock.advance(1);
    expect(Object.keys(counts(announcer))).toEqual([`${VIP6}`]);
  });
});

describe('big takeovers', () => {
  const vips = Array.from({ length: 1000 }, (_, k) => ip(`198.18.${128 + (k >> 8)}.${k & 255}`));
  const takeOver = (announcer: L2Announcer) =>
    announcer.setOwned(
      vips.map((v) => ({ ip: v, interfaces: ['eth0'] })),
      'a big takeover',
    );

  /**
   * Every address announced in both gratuitous forms, all within the same instant, and the client's
   * request answered after the first batch, not after the last address was announced.
   */
  function expectAnsweredBetweenBatches(frames: Frame[]) {
    const isReply = (f: Frame) =>
      f.kind === 'arp' && f.arp.op === 'reply' && !f.arp.senderIp.equals(f.arp.targetIp);
    expect(frames.filter((f) => !isReply(f))).toHaveLength(2 * vips.length);
    const reply = frames.findIndex(isReply);
    expect(reply).toBeGreaterThan(0);
    expect(reply).toBeLessThan(2 * vips.length);
  }

  it('announces thousands of addresses in batches, answering requests for any of them meanwhile', () => {
    const { announcer, clientA, settle } = lab({ burstOffsetsMs: [] });
    takeOver(announcer);
    clientA.send(whoHas(vips[999]!));
    settle();
    expectAnsweredBetweenBatches(clientA.take());
  });

  it('repeats their announcements in batches too, answering requests for any of them meanwhile', () => {
    const { clock, announcer, clientA } = lab({ burstOffsetsMs: [100] });
    takeOver(announcer);
    clock.advance(99);
    clientA.take();
    // A request that arrives while the repeats fall due, all at +100 ms.
    clock.setTimer('request', 1, () => clientA.send(whoHas(vips[999]!)));
    clock.advance(1);
    expectAnsweredBetweenBatches(clientA.take());
  });
});

function hex(...parts: string[]): Uint8Array {
  const digits = parts.join('').replace(/\s/g, '');
  return Uint8Array.from({ length: digits.length / 2 }, (_, i) =>
    parseInt(digits.slice(2 * i, 2 * i + 2), 16),
  );
}
