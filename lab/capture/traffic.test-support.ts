// A short capture with every kind of event the decoder gives, for the tests that compare ways of reading it.
import { ETHERTYPE_IPV4, ETHERTYPE_IPV6, arpRequest, encodeFrame } from '../../core/l2/wire/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { PcapngWriter, pcapFile } from './capture-files.test-support.ts';
import {
  KEEPALIVE,
  MAC_A,
  bfdControl,
  bgpOpen,
  ethernet,
  ipv4,
  ipv6,
  tcp4Frame,
  udp,
} from './packets.test-support.ts';

/** 2026-11-21T04:12:33Z */
export const TRAFFIC_SECONDS = 1_795_234_353;

const open = bgpOpen({ as: 64513, id: '198.18.0.11' });
const speaker = (seq: number, flags: string, payload?: Uint8Array) =>
  tcp4Frame('198.18.0.11', '198.18.0.10', { srcPort: 40000, dstPort: 179, seq, flags, payload });

/**
 * ARP, a BGP connect and an OPEN split over two segments, a KEEPALIVE after a hole in the stream (so the
 * end of the capture has a stream gap to report), an IP fragment (a note), BFD over IPv4 and IPv6.
 */
export const TRAFFIC: readonly Uint8Array[] = [
  encodeFrame(
    arpRequest({
      targetIp: IpAddress.parse('198.18.0.10'),
      senderIp: IpAddress.parse('198.18.0.11'),
      senderMac: MAC_A,
    }),
  ),
  speaker(100, 'S'),
  speaker(101, 'PA', open.subarray(0, 10)),
  speaker(111, 'PA', open.subarray(10)),
  speaker(101 + open.length + 19, 'PA', KEEPALIVE),
  ethernet(
    ETHERTYPE_IPV4,
    ipv4('198.18.0.1', '198.18.0.2', 17, udp(1, 2, new Uint8Array(8)), { flags: 0x2000 }),
  ),
  ethernet(ETHERTYPE_IPV4, ipv4('198.18.0.1', '198.18.0.2', 17, udp(49152, 3784, bfdControl({ state: 1 })))),
  ethernet(
    ETHERTYPE_IPV6,
    ipv6('2001:db8::1', '2001:db8::2', 17, udp(49152, 3784, bfdControl({ state: 3, your: 9 })), 255),
  ),
];

/** TRAFFIC as classic pcap, a packet every 1.5 ms. */
export function trafficPcap(o: { nano?: boolean; littleEndian?: boolean } = {}): Uint8Array {
  const unit = o.nano ? 1_000_000 : 1000;
  return pcapFile(
    TRAFFIC.map((data, i) => ({ seconds: TRAFFIC_SECONDS, fraction: Math.round(i * 1.5 * unit), data })),
    o,
  );
}

/** TRAFFIC as pcapng, written by the test writer and read by lblab's own pcapng reader. */
export function trafficPcapng(o: { nano?: boolean } = {}): Uint8Array {
  const perSecond = o.nano ? 1_000_000_000n : 1_000_000n;
  const unit = o.nano ? 1_000_000 : 1000;
  const w = new PcapngWriter().section().interface({ tsresol: o.nano ? 9 : 6 });
  TRAFFIC.forEach((data, i) =>
    w.packet(0, BigInt(TRAFFIC_SECONDS) * perSecond + BigInt(Math.round(i * 1.5 * unit)), data),
  );
  return w.done();
}
