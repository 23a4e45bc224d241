import { describe, expect, it } from 'vitest';
import { BFD_ECHO_PORT } from '../../bfd/ports.ts';
import { ETHERTYPE_IPV4, decodeEthernet, internetChecksum } from '../../l2/wire/index.ts';
import { IpAddress } from '../../net/index.ts';
import { MacAddress } from '../../net/mac.ts';
import { ECHO_SEND_TTL, encodeEchoFrame } from './echo-frame.ts';

const ours = MacAddress.parse('02:00:00:00:00:01');
const peers = MacAddress.parse('02:00:00:00:00:02');
const address = IpAddress.parse('198.18.0.2');

describe('echo frame (RFC 5881 §4)', () => {
  it("goes to the peer's MAC with our address as IPv4 source and destination, UDP 3785, TTL 255", () => {
    const payload = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
    const frame = decodeEthernet(
      encodeEchoFrame({ src: ours, dst: peers, address, identification: 7, payload }),
    );
    expect([frame.dst.toString(), frame.src.toString(), frame.etherType]).toEqual([
      peers.toString(),
      ours.toString(),
      ETHERTYPE_IPV4,
    ]);
    const ip = frame.payload;
    const v = new DataView(ip.buffer, ip.byteOffset, ip.byteLength);
    const total = v.getUint16(2);
    expect([ip[0], total, v.getUint16(4), ip[8], ip[9]]).toEqual([0x45, 20 + 8 + 16, 7, ECHO_SEND_TTL, 17]);
    expect(IpAddress.fromBytes(ip.subarray(12, 16)).toString()).toBe('198.18.0.2');
    expect(IpAddress.fromBytes(ip.subarray(16, 20)).toString()).toBe('198.18.0.2');
    // A header with its checksum filled in sums to zero (RFC 1071).
    expect(internetChecksum(ip.subarray(0, 20))).toBe(0);
    const udp = ip.subarray(20, total);
    expect([v.getUint16(20), v.getUint16(22), v.getUint16(24)]).toEqual([BFD_ECHO_PORT, BFD_ECHO_PORT, 24]);
    expect(udp.subarray(8)).toEqual(payload);
    const pseudo = new Uint8Array([...ip.subarray(12, 20), 0, 17, 0, udp.length, ...udp]);
    expect(internetChecksum(pseudo)).toBe(0);
  });

  it('refuses an IPv6 address', () => {
    const v6 = IpAddress.parse('2001:db8::2');
    expect(() =>
      encodeEchoFrame({ src: ours, dst: peers, address: v6, identification: 0, payload: new Uint8Array(16) }),
    ).toThrow(RangeError);
  });
});
