import { describe, expect, it } from 'vitest';
import {
  ETHERTYPE_ARP,
  ETHERTYPE_IPV6,
  arpReply,
  arpRequest,
  encodeArp,
  encodeEthernet,
  encodeFrame,
  encodeIcmpv6,
  encodeNdpOptions,
  gratuitousArp,
  neighborSolicitation,
  solicitedNeighborAdvertisement,
  unsolicitedNeighborAdvertisement,
  type NeighborSolicitationFrame,
} from '../../core/l2/wire/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { CaptureDecoder } from './capture-decoder.ts';
import { pcapFile } from './capture-files.test-support.ts';
import type { CaptureEvent } from './events.ts';
import { LINKTYPE_LINUX_SLL } from './link-layer.ts';
import { MAC_A, MAC_B, ethernet, ipv6, sll } from './packets.test-support.ts';

const ip = IpAddress.parse;

function decode(frames: readonly Uint8Array[], linkType = 1): CaptureEvent[] {
  const file = pcapFile(
    frames.map((data, i) => ({ seconds: 1_795_234_353, fraction: i, data })),
    { linkType },
  );
  return [...new CaptureDecoder(file, 'l2.pcap').events()];
}

const vip = ip('198.18.100.1');
const request = arpRequest({ targetIp: vip, senderIp: ip('198.18.0.1'), senderMac: MAC_A });

describe('ARP events (decoded by core/l2/wire)', () => {
  it('summarises requests, replies and gratuitous announcements', () => {
    const events = decode([
      encodeFrame(request),
      encodeFrame(arpReply(request, MAC_B)),
      encodeFrame(gratuitousArp({ ip: vip, mac: MAC_B, form: 'request' })),
      encodeFrame(gratuitousArp({ ip: vip, mac: MAC_B, form: 'reply' })),
      encodeFrame({ ...request, arp: { ...request.arp, senderIp: ip('0.0.0.0') } }),
      encodeFrame({ ...request, ethernet: { ...request.ethernet, vlan: { pcp: 0, dei: false, vid: 42 } } }),
    ]);
    expect(events.map((e) => [e.protocol, e.src, e.dst, e.summary])).toEqual([
      [
        'arp',
        '198.18.0.1',
        '198.18.100.1',
        'ARP request who-has 198.18.100.1 tell 198.18.0.1 (02:00:00:00:00:0a)',
      ],
      ['arp', '198.18.100.1', '198.18.0.1', 'ARP reply 198.18.100.1 is-at 02:00:00:00:00:0b'],
      [
        'arp',
        '198.18.100.1',
        '198.18.100.1',
        'ARP announcement 198.18.100.1 is-at 02:00:00:00:00:0b (gratuitous request)',
      ],
      ['arp', '198.18.100.1', '198.18.100.1', 'ARP reply 198.18.100.1 is-at 02:00:00:00:00:0b (gratuitous)'],
      ['arp', '0.0.0.0', '198.18.100.1', 'ARP probe who-has 198.18.100.1 (from 02:00:00:00:00:0a)'],
      [
        'arp',
        '198.18.0.1',
        '198.18.100.1',
        'ARP request who-has 198.18.100.1 tell 198.18.0.1 (02:00:00:00:00:0a)',
      ],
    ]);
  });

  it('reads ARP from a Linux cooked capture, and reports a malformed one with its frame offset', () => {
    const arp = encodeArp(request.arp);
    const wrongHardware = Uint8Array.from(arp);
    wrongHardware[1] = 6;
    const events = decode([sll(ETHERTYPE_ARP, arp), sll(ETHERTYPE_ARP, wrongHardware)], LINKTYPE_LINUX_SLL);
    expect(events[0]!.summary).toBe('ARP request who-has 198.18.100.1 tell 198.18.0.1 (02:00:00:00:00:0a)');
    expect(events[1]!.summary).toBe(
      'ARP malformed: unsupported at byte 16: ARP hardware type 6 is not Ethernet (1) (RFC 826)',
    );
    expect(events[1]!.details).toEqual({
      kind: 'malformed',
      error: 'unsupported at byte 16: ARP hardware type 6 is not Ethernet (1) (RFC 826)',
      offset: 16,
    });
  });
});

describe('NDP events', () => {
  const target = ip('2001:db8::100');
  const ns: NeighborSolicitationFrame = neighborSolicitation({
    target,
    source: ip('2001:db8::1'),
    mac: MAC_A,
  });

  it('summarises NS, NA (solicited and unsolicited) and DAD probes', () => {
    const events = decode([
      encodeFrame(ns),
      encodeFrame(solicitedNeighborAdvertisement({ solicitation: ns, mac: MAC_B })),
      encodeFrame(unsolicitedNeighborAdvertisement({ target, mac: MAC_B })),
      encodeFrame({ ...ns, ipv6: { ...ns.ipv6, src: ip('::') }, ns: { target, options: [] } }),
    ]);
    expect(events.map((e) => [e.protocol, e.src, e.dst, e.summary])).toEqual([
      [
        'ndp',
        '2001:db8::1',
        'ff02::1:ff00:100',
        'NDP NS who-has 2001:db8::100 from 2001:db8::1 (02:00:00:00:00:0a)',
      ],
      [
        'ndp',
        '2001:db8::100',
        '2001:db8::1',
        'NDP NA 2001:db8::100 is-at 02:00:00:00:00:0b (solicited, override) to 2001:db8::1',
      ],
      [
        'ndp',
        '2001:db8::100',
        'ff02::1',
        'NDP NA 2001:db8::100 is-at 02:00:00:00:00:0b (override) to ff02::1',
      ],
      ['ndp', '::', 'ff02::1:ff00:100', 'NDP NS duplicate-address probe for 2001:db8::100'],
    ]);
    expect(events[0]!.details).toEqual({ kind: 'ns', ns: ns.ns });
  });

  it('decodes router solicitations and advertisements with their prefixes', () => {
    const router = ip('fe80::1');
    const rsBody = new Uint8Array([0, 0, 0, 0, ...encodeNdpOptions([{ kind: 'source-lla', mac: MAC_A }])]);
    const rs = encodeIcmpv6(ip('fe80::2'), ip('ff02::2'), { type: 133, code: 0, body: rsBody });
    const prefixOption = new Uint8Array(30);
    prefixOption[0] = 64;
    prefixOption[1] = 0xc0;
    new DataView(prefixOption.buffer).setUint32(2, 2592000);
    new DataView(prefixOption.buffer).setUint32(6, 604800);
    prefixOption.set(ip('2001:db8:1::').toBytes(), 14);
    const raBody = new Uint8Array([
      64,
      0x40,
      0x07,
      0x08,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      ...encodeNdpOptions([{ kind: 'opaque', type: 3, bytes: prefixOption }]),
    ]);
    const ra = encodeIcmpv6(router, ip('ff02::1'), { type: 134, code: 0, body: raBody });
    const events = decode([
      ethernet(ETHERTYPE_IPV6, ipv6('fe80::2', 'ff02::2', 58, rs, 255)),
      ethernet(ETHERTYPE_IPV6, ipv6('fe80::1', 'ff02::1', 58, ra, 255)),
      ethernet(
        ETHERTYPE_IPV6,
        ipv6(
          '2001:db8::1',
          'ff02::1',
          58,
          encodeIcmpv6(ip('2001:db8::1'), ip('ff02::1'), { type: 134, code: 0, body: raBody }),
          255,
        ),
      ),
    ]);
    expect(events.map((e) => e.summary)).toEqual([
      'NDP RS from fe80::2 (02:00:00:00:00:0a)',
      'NDP RA from fe80::1 router-lifetime 1800s other-config prefix 2001:db8:1::/64',
      'NDP malformed: unsupported at byte 22: RA from 2001:db8::1, which is not link-local (RFC 4861 §6.1.2)',
    ]);
  });

  it('reports an NS whose checksum does not verify, as the announcer would drop it', () => {
    const frame = encodeFrame(ns);
    frame[frame.length - 1]! ^= 0xff;
    const [event] = decode([frame]);
    expect(event!.protocol).toBe('ndp');
    expect(event!.summary).toBe(
      'NDP malformed: bad-checksum at byte 56: ICMPv6 checksum does not verify (RFC 4443 §2.3)',
    );
  });

  it('ignores IPv6 traffic that is not NDP', () => {
    const echo = encodeIcmpv6(ip('2001:db8::1'), ip('2001:db8::2'), {
      type: 128,
      code: 0,
      body: new Uint8Array(4),
    });
    const frame = encodeEthernet({
      src: MAC_A,
      dst: MAC_B,
      etherType: ETHERTYPE_IPV6,
      payload: ipv6('2001:db8::1', '2001:db8::2', 58, echo),
    });
    expect(decode([frame])).toEqual([]);
  });
});
