import { describe, expect, it } from 'vitest';
import { MacAddress } from '../../net/index.ts';
import { LblabError } from '../../errors/lblab-error.ts';
import { WireError } from './errors.ts';
import { decodeFrame, encodeFrame } from './frame.ts';
import { catchWireError, fixIcmpChecksum, hex } from './test-support.ts';
import { ARP_REQUEST_VLAN, GARP_REQUEST, IPV6_AT, NA_UNSOLICITED, NS } from './test-vectors.ts';

const tag = (frame: Uint8Array): Uint8Array => {
  const out = new Uint8Array(frame.length + 4);
  out.set(frame.subarray(0, 12));
  out.set(hex('81 00 00 0a'), 12);
  out.set(frame.subarray(12), 16);
  return out;
};

/** An NS vector frame with its IPv6 packet edited and the checksum fixed. */
const nsWith = (edit: (ip: Uint8Array) => void): Uint8Array => {
  const ip = NS.slice(IPV6_AT);
  edit(ip);
  const out = NS.slice();
  out.set(fixIcmpChecksum(ip), IPV6_AT);
  return out;
};

describe('decodeFrame', () => {
  it('classifies ARP, NS and NA', () => {
    expect(decodeFrame(GARP_REQUEST).kind).toBe('arp');
    expect(decodeFrame(ARP_REQUEST_VLAN).kind).toBe('arp');
    expect(decodeFrame(NS).kind).toBe('ns');
    expect(decodeFrame(NA_UNSOLICITED).kind).toBe('na');
  });

  it('passes everything else through as other, unchecked', () => {
    const ipv4 = hex(`02 00 00 00 00 01 02 00 00 00 00 02 08 00 45 00 ${'00'.repeat(44)}`);
    const echoWithBadChecksum = nsWith((ip) => void (ip[40] = 128)).map((b, i) =>
      i === IPV6_AT + 42 ? b ^ 1 : b,
    );
    const udp = nsWith((ip) => void (ip[6] = 17));
    const stp = hex(`01 80 c2 00 00 00 02 00 00 00 00 01 00 26 42 42 03 ${'00'.repeat(43)}`);
    for (const bytes of [ipv4, echoWithBadChecksum, udp, stp]) {
      const f = decodeFrame(bytes);
      expect(f.kind).toBe('other');
      expect(encodeFrame(f)).toEqual(bytes);
    }
  });

  it('counts error offsets from the start of the frame, tag included', () => {
    const hop = nsWith((ip) => void (ip[7] = 64));
    expect(catchWireError(() => decodeFrame(hop)).offset).toBe(14 + 7);
    expect(catchWireError(() => decodeFrame(tag(hop))).offset).toBe(18 + 7);
    const opcode = GARP_REQUEST.slice();
    opcode[14 + 7] = 9;
    expect(catchWireError(() => decodeFrame(opcode))).toMatchObject({
      reason: 'unsupported',
      offset: 14 + 6,
    });
  });

  it('refuses an IPv6 packet with an extension header as unsupported', () => {
    const hbh = NS.slice();
    hbh[IPV6_AT + 6] = 0;
    expect(catchWireError(() => decodeFrame(hbh))).toMatchObject({ reason: 'unsupported', offset: 20 });
  });

  it('throws a WireError that is an LblabError with a stable code and a readable message', () => {
    const e = catchWireError(() => decodeFrame(nsWith((ip) => void (ip[7] = 64))));
    expect(e).toBeInstanceOf(LblabError);
    expect(e.code).toBe('L2_WIRE');
    expect(e.name).toBe('WireError');
    expect(e.message).toBe('bad-hop-limit at byte 21: hop limit 64, NDP requires 255 (RFC 4861 §7.1.1)');
  });

  it('rebasing leaves an error without an offset alone', () => {
    const e = new WireError('unsupported', 'x');
    expect(e.rebased(14)).toBe(e);
  });

  it('encodes an other frame with padding', () => {
    const f = {
      kind: 'other' as const,
      ethernet: {
        dst: MacAddress.broadcast,
        src: MacAddress.parse('02:00:00:00:00:01'),
        etherType: 0x88b5,
        payload: hex('01'),
      },
    };
    expect(encodeFrame(f).length).toBe(60);
  });
});
