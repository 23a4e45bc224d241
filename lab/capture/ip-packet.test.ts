import { describe, expect, it } from 'vitest';
import { ETHERTYPE_IPV4, ETHERTYPE_IPV6 } from '../../core/l2/wire/index.ts';
import { CaptureDecoder } from './capture-decoder.ts';
import { pcapFile } from './capture-files.test-support.ts';
import { PacketDecodeError } from './errors.ts';
import { ipPacket } from './ip-packet.ts';
import { KEEPALIVE, bfdControl, concat, ethernet, ipv4, ipv6, tcp, udp } from './packets.test-support.ts';

describe('IP layer', () => {
  it('bounds the payload by the IP length, not by Ethernet padding', () => {
    const packet = concat([ipv4('198.18.0.1', '198.18.0.2', 17, new Uint8Array(4)), new Uint8Array(10)]);
    const p = ipPacket(ETHERTYPE_IPV4, packet)!;
    expect(p.payload.length).toBe(4);
    expect(p.complete).toBe(true);
    expect([p.src.toString(), p.dst.toString(), p.protocol]).toEqual(['198.18.0.1', '198.18.0.2', 17]);
  });

  it('walks IPv6 extension headers to the upper layer', () => {
    const inner = udp(1, 2, new Uint8Array(0));
    // Hop-by-hop (8 bytes) then destination options (16 bytes), then UDP.
    const hopByHop = Uint8Array.of(60, 0, 1, 4, 0, 0, 0, 0);
    const destination = Uint8Array.of(17, 1, 1, 12, ...new Array<number>(12).fill(0));
    const p = ipPacket(
      ETHERTYPE_IPV6,
      ipv6('2001:db8::1', '2001:db8::2', 0, concat([hopByHop, destination, inner])),
    )!;
    expect(p.protocol).toBe(17);
    expect([...p.payload]).toEqual([...inner]);
  });

  it('flags fragments and snap-length cuts', () => {
    const fragment = ipPacket(
      ETHERTYPE_IPV4,
      ipv4('198.18.0.1', '198.18.0.2', 17, new Uint8Array(8), { flags: 0x2000 }),
    )!;
    expect(fragment.fragment).toBe(true);
    const whole = ipv4('198.18.0.1', '198.18.0.2', 17, new Uint8Array(40));
    expect(ipPacket(ETHERTYPE_IPV4, whole.subarray(0, 30))!.complete).toBe(false);
    expect(() => ipPacket(ETHERTYPE_IPV4, whole.subarray(0, 12))).toThrow(PacketDecodeError);
  });

  it('counts what it skips in the decoder notes', () => {
    const frames = [
      ethernet(
        ETHERTYPE_IPV4,
        ipv4('198.18.0.1', '198.18.0.2', 17, udp(1, 3784, bfdControl({ state: 1 })), { flags: 0x2000 }),
      ),
      ethernet(
        ETHERTYPE_IPV4,
        ipv4('198.18.0.1', '198.18.0.2', 6, tcp({ srcPort: 1, dstPort: 179, seq: 1 })),
      ).subarray(0, 14 + 20 + 16),
      // A BGP segment whose data the snap length cut: the gap is reported when later data arrives.
      ethernet(
        ETHERTYPE_IPV4,
        ipv4('198.18.0.1', '198.18.0.2', 6, tcp({ srcPort: 1, dstPort: 179, seq: 1, payload: KEEPALIVE })),
      ).subarray(0, 14 + 20 + 20 + 5),
      ethernet(
        ETHERTYPE_IPV4,
        ipv4('198.18.0.1', '198.18.0.2', 6, tcp({ srcPort: 1, dstPort: 179, seq: 20, payload: KEEPALIVE })),
      ),
    ];
    const d = new CaptureDecoder(
      pcapFile(frames.map((data) => ({ seconds: 0, fraction: 0, data }))),
      'x.pcap',
    );
    const events = [...d.events()];
    expect(events.map((e) => e.details.kind)).toEqual(['bgp-stream-gap']);
    expect(d.notes()).toEqual([
      '1 packet: IP fragments are not reassembled (first: frame 1)',
      '1 packet: malformed link, IP, TCP or UDP header (first: frame 2: TCP header needs 20 bytes, 16 present)',
      '1 packet: BGP data cut by the capture snap length (first: frame 3)',
    ]);
  });
});
