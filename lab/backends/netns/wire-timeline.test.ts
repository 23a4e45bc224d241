import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ETHERTYPE_IPV4,
  arpRequest,
  encodeFrame,
  gratuitousArp,
  unsolicitedNeighborAdvertisement,
} from '../../../core/l2/wire/index.ts';
import { IpAddress, MacAddress } from '../../../core/net/index.ts';
import { CaptureDecoder } from '../../capture/index.ts';
import { pcapFile, type PcapPacket } from '../../capture/capture-files.test-support.ts';
import {
  bfdControl,
  ethernet,
  ipv4,
  udp,
  bgpMessage,
  tcp4Frame,
} from '../../capture/packets.test-support.ts';
import { labMsOf, wireTimelineEvents, type ClockAnchor } from './wire-timeline.ts';

const ip = IpAddress.parse;
const vip = ip('198.18.100.1');
const clientMac = MacAddress.parse('02:00:00:00:00:0c');
const nodeBMac = MacAddress.parse('02:00:00:00:00:0b');
const hosts = new Map([
  [clientMac.toString(), 'c1'],
  [nodeBMac.toString(), 'node-b'],
  ['198.18.0.12', 'node-b'],
  ['198.18.0.20', 'r1'],
]);
const hostOf = (key: string) => hosts.get(key);
const at = { host: 'c1', iface: 'eth0' };

/** The lab came up when the wall clock read 2026-11-21T07:00:00Z; the anchor was taken 5 ms later. */
const wallAtAnchorMs = Date.UTC(2026, 10, 21, 7, 0, 0);
const anchor: ClockAnchor = { wallMs: wallAtAnchorMs, labMs: 5 };

/** A microsecond pcap with each frame `offsetUs` after the anchor's wall-clock instant. */
function capture(frames: readonly { offsetUs: number; data: Uint8Array }[]) {
  const packets: PcapPacket[] = frames.map(({ offsetUs, data }) => {
    const us = wallAtAnchorMs * 1000 + offsetUs;
    return { seconds: Math.floor(us / 1e6), fraction: us % 1e6, data };
  });
  return [...new CaptureDecoder(pcapFile(packets), 'c1-eth0.pcap').events()];
}

describe('labMsOf (pcap wall clock → lab clock)', () => {
  it('places a packet as far after the anchor as the wall clock says, to the nanosecond', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.bigInt({ min: -3_600_000_000_000n, max: 3_600_000_000_000n }),
        (wallMs, labMs, offsetNs) => {
          const timeNs = BigInt(wallMs) * 1_000_000n + offsetNs;
          // Within a nanosecond: dividing epoch nanoseconds as a float would be off by up to ~256 ns.
          expect(
            Math.abs(labMsOf(timeNs, { wallMs, labMs }) - (labMs + Number(offsetNs) / 1e6)),
          ).toBeLessThan(1e-6);
        },
      ),
    );
  });

  it('puts a packet captured before the anchor before it', () => {
    expect(labMsOf(BigInt(wallAtAnchorMs - 3) * 1_000_000n, anchor)).toBe(2);
  });
});

describe('wireTimelineEvents', () => {
  it('names the new owner of a gratuitous ARP and the unsolicited NA as announcements at their lab time', () => {
    const events = capture([
      {
        offsetUs: 1_000,
        data: encodeFrame(arpRequest({ targetIp: vip, senderIp: ip('198.18.0.100'), senderMac: clientMac })),
      },
      { offsetUs: 2_500_250, data: encodeFrame(gratuitousArp({ ip: vip, mac: nodeBMac, form: 'request' })) },
      {
        offsetUs: 2_500_400,
        data: encodeFrame(
          unsolicitedNeighborAdvertisement({
            target: ip('2001:db8:100::1'),
            mac: nodeBMac,
            source: ip('fe80::b'),
          }),
        ),
      },
    ]);
    const timeline = wireTimelineEvents(events, at, anchor, hostOf);
    expect(timeline.map((e) => [e.source, e.kind])).toEqual([
      ['c1', 'arp'],
      ['node-b', 'arp announce'],
      ['node-b', 'ndp announce'],
    ]);
    expect(timeline.map((e) => e.atMs)).toEqual([6, 2505.25, 2505.4]);
    expect(timeline[1]!.message).toBe(
      'ARP announcement 198.18.100.1 is-at 02:00:00:00:00:0b (gratuitous request) (seen on c1 eth0)',
    );
  });

  it('names an unknown sender by its address', () => {
    const stranger = MacAddress.parse('02:00:00:00:00:99');
    const [e] = wireTimelineEvents(
      capture([{ offsetUs: 0, data: encodeFrame(gratuitousArp({ ip: vip, mac: stranger, form: 'reply' })) }]),
      at,
      anchor,
      hostOf,
    );
    expect(e!.source).toBe('198.18.100.1');
  });

  it('keeps BFD state changes and BGP messages other than keepalives, named by the sender address', () => {
    const bfd = (state: 1 | 3) =>
      ethernet(
        ETHERTYPE_IPV4,
        ipv4('198.18.0.12', '198.18.0.20', 17, udp(49152, 3784, bfdControl({ state }))),
      );
    const bgp = (seq: number, message: Uint8Array) =>
      tcp4Frame('198.18.0.20', '198.18.0.12', {
        srcPort: 179,
        dstPort: 40000,
        seq,
        flags: 'PA',
        payload: message,
      });
    const keepalive = bgpMessage(4);
    const notification = bgpMessage(3, [6, 2]);
    const timeline = wireTimelineEvents(
      capture([
        { offsetUs: 0, data: bfd(1) },
        { offsetUs: 300_000, data: bfd(1) },
        { offsetUs: 600_000, data: bfd(3) },
        { offsetUs: 700_000, data: bgp(1, keepalive) },
        { offsetUs: 800_000, data: bgp(1 + keepalive.length, notification) },
      ]),
      at,
      anchor,
      hostOf,
    );
    expect(timeline.map((e) => [e.atMs, e.source, e.kind])).toEqual([
      [605, 'node-b', 'bfd'],
      [805, 'r1', 'bgp'],
    ]);
    expect(timeline[1]!.message).toMatch(/NOTIFICATION/);
  });
});
