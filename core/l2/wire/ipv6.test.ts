import { describe, expect, it } from 'vitest';
import { IpAddress } from '../../net/index.ts';
import { internetChecksum } from './checksum.ts';
import { WireEncodeError } from './errors.ts';
import { decodeIcmpv6, encodeIcmpv6, icmpv6Checksum } from './icmpv6.ts';
import { type Ipv6Packet, decodeIpv6, encodeIpv6, pseudoHeader } from './ipv6.ts';
import { catchWireError, hex, referenceChecksum } from './test-support.ts';
import { ICMP_CHECKSUM_AT, IPV6_AT, NA_SOLICITED, NA_UNSOLICITED, NS, NS_DAD } from './test-vectors.ts';

const ip6 = (frame: Uint8Array): Uint8Array => frame.slice(IPV6_AT);

describe('IPv6 header (RFC 8200 §3)', () => {
  it('decodes the NS vector header', () => {
    const p = decodeIpv6(ip6(NS));
    expect(p.trafficClass).toBe(0);
    expect(p.flowLabel).toBe(0);
    expect(p.nextHeader).toBe(58);
    expect(p.hopLimit).toBe(255);
    expect(p.src).toEqual(IpAddress.parse('2001:db8::2'));
    expect(p.dst).toEqual(IpAddress.parse('ff02::1:ff00:1'));
    expect(p.payload.length).toBe(32);
  });

  it('reads traffic class and flow label across their nibble boundaries', () => {
    const b = ip6(NS);
    b.set(hex('6a bc de f1'), 0);
    const p = decodeIpv6(b);
    expect([p.trafficClass, p.flowLabel]).toEqual([0xab, 0xcdef1]);
    expect(encodeIpv6(p)).toEqual(b);
  });

  it('drops bytes beyond the payload length (Ethernet padding)', () => {
    const b = new Uint8Array(NS_DAD.length - IPV6_AT + 9);
    b.set(ip6(NS_DAD));
    b.fill(0xaa, NS_DAD.length - IPV6_AT);
    const p = decodeIpv6(b);
    expect(p.payload.length).toBe(24);
    expect(encodeIpv6(p)).toEqual(ip6(NS_DAD));
  });

  it('refuses a short header, a wrong version and an overlong payload length', () => {
    expect(catchWireError(() => decodeIpv6(ip6(NS).subarray(0, 39))).reason).toBe('truncated');
    const v4 = ip6(NS);
    v4[0] = 0x45;
    expect(catchWireError(() => decodeIpv6(v4)).reason).toBe('bad-version');
    const e = catchWireError(() => decodeIpv6(ip6(NS).subarray(0, 40 + 31)));
    expect([e.reason, e.offset, e.rule]).toEqual(['bad-payload-length', 4, 'RFC 8200 §3']);
  });

  it.each([0, 43, 44, 50, 51, 60, 135, 139, 140, 253, 254])(
    'refuses extension header %i as unsupported',
    (nh) => {
      const b = ip6(NS);
      b[6] = nh;
      const e = catchWireError(() => decodeIpv6(b));
      expect([e.reason, e.offset]).toEqual(['unsupported', 6]);
    },
  );

  it('carries other upper layers (UDP, no next header) as opaque payload', () => {
    for (const nh of [17, 59]) {
      const b = ip6(NS);
      b[6] = nh;
      expect(decodeIpv6(b).nextHeader).toBe(nh);
    }
  });

  it('refuses to encode out-of-range or wrong-family fields', () => {
    const p: Ipv6Packet = decodeIpv6(ip6(NS));
    for (const bad of [
      { ...p, flowLabel: 0x100000 },
      { ...p, trafficClass: 256 },
      { ...p, hopLimit: -1 },
      { ...p, nextHeader: 0 },
      { ...p, src: IpAddress.parse('198.18.0.1') },
      { ...p, payload: new Uint8Array(65536) },
    ]) {
      expect(() => encodeIpv6(bad)).toThrow(WireEncodeError);
    }
  });
});

describe('ICMPv6 checksum (RFC 4443 §2.3 with the RFC 8200 §8.1 pseudo-header)', () => {
  it.each([
    ['NS', NS, 0x1c27],
    ['DAD NS', NS_DAD, 0x4ced],
    ['solicited NA', NA_SOLICITED, 0x8a73],
    ['unsolicited NA', NA_UNSOLICITED, 0xf92a],
  ])('%s: the vector, an independent sum and the codec agree', (_name, frame, expected) => {
    const p = decodeIpv6(ip6(frame));
    const stored = ((frame[ICMP_CHECKSUM_AT] ?? 0) << 8) | (frame[ICMP_CHECKSUM_AT + 1] ?? 0);
    expect(stored).toBe(expected);

    // Independent: pseudo-header laid out by hand, message with the checksum field zeroed.
    const zeroed = Uint8Array.from(p.payload);
    zeroed[2] = 0;
    zeroed[3] = 0;
    const pseudo = [...p.src.toBytes(), ...p.dst.toBytes(), 0, 0, 0, zeroed.length, 0, 0, 0, 58];
    expect(referenceChecksum(Uint8Array.from([...pseudo, ...zeroed]))).toBe(expected);

    expect(icmpv6Checksum(p.src, p.dst, p.payload)).toBe(expected);
    expect(pseudoHeader(p.src, p.dst, 58, zeroed.length)).toEqual(Uint8Array.from(pseudo));
  });

  it('verifies on decode and refuses a flipped bit', () => {
    const p = decodeIpv6(ip6(NS));
    expect(decodeIcmpv6(p).type).toBe(135);
    const bad = ip6(NS);
    bad[40 + 20] = (bad[40 + 20] ?? 0) ^ 0x01;
    const e = catchWireError(() => decodeIcmpv6(decodeIpv6(bad)));
    expect([e.reason, e.offset, e.rule]).toEqual(['bad-checksum', 42, 'RFC 4443 §2.3']);
  });

  it('covers the addresses: the same message from another source fails', () => {
    const p = decodeIpv6(ip6(NS));
    const moved = { ...p, src: IpAddress.parse('2001:db8::3') };
    expect(catchWireError(() => decodeIcmpv6(moved)).reason).toBe('bad-checksum');
  });

  it('encodes with the checksum filled in', () => {
    const p = decodeIpv6(ip6(NA_UNSOLICITED));
    const m = decodeIcmpv6(p);
    expect(encodeIcmpv6(p.src, p.dst, m)).toEqual(p.payload);
  });

  it('refuses a non-ICMPv6 packet and a message shorter than its header', () => {
    const p = decodeIpv6(ip6(NS));
    expect(catchWireError(() => decodeIcmpv6({ ...p, nextHeader: 17 })).reason).toBe('bad-next-header');
    expect(catchWireError(() => decodeIcmpv6({ ...p, payload: hex('87 00 00') })).reason).toBe('truncated');
  });

  it('internetChecksum matches the reference on odd lengths and carries', () => {
    for (const data of [
      hex(''),
      hex('ff'),
      hex('ff ff ff ff 01'),
      hex('00 01 f2 03 f4 f5 f6 f7'),
      new Uint8Array(999).fill(0xff),
    ]) {
      expect(internetChecksum(data)).toBe(referenceChecksum(data));
    }
  });
});
