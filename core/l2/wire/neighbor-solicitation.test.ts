import { describe, expect, it } from 'vitest';
import { IpAddress, MacAddress } from '../../net/index.ts';
import { WireEncodeError } from './errors.ts';
import { decodeEthernet } from './ethernet.ts';
import { decodeFrame, encodeFrame } from './frame.ts';
import { decodeIpv6 } from './ipv6.ts';
import {
  decodeNeighborSolicitation,
  encodeNeighborSolicitation,
  neighborSolicitation,
} from './neighbor-solicitation.ts';
import { catchWireError, fixIcmpChecksum, hex } from './test-support.ts';
import { IPV6_AT, NA_SOLICITED, NS, NS_DAD } from './test-vectors.ts';

const VIP = IpAddress.parse('2001:db8::1');
const CLIENT = IpAddress.parse('2001:db8::2');
const SOLICITED = IpAddress.parse('ff02::1:ff00:1');
const UNSPECIFIED = IpAddress.parse('::');
const MAC2 = MacAddress.parse('02:00:00:00:00:02');

/** The IPv6 packet of a vector, edited by `edit`, with its checksum made right again. */
function edited(frame: Uint8Array, edit: (b: Uint8Array) => Uint8Array | void): Uint8Array {
  const b = frame.slice(IPV6_AT);
  return fixIcmpChecksum(edit(b) ?? b);
}
const decode = (ipv6: Uint8Array) => decodeNeighborSolicitation(decodeIpv6(ipv6));

describe('Neighbor Solicitation (RFC 4861 §4.3)', () => {
  it('decodes the vector', () => {
    expect(decode(NS.slice(IPV6_AT))).toEqual({ target: VIP, options: [{ kind: 'source-lla', mac: MAC2 }] });
    expect(decode(NS_DAD.slice(IPV6_AT))).toEqual({ target: VIP, options: [] });
  });

  it('builds the address-resolution NS byte for byte', () => {
    const f = neighborSolicitation({ target: VIP, source: CLIENT, mac: MAC2 });
    expect(encodeFrame(f)).toEqual(NS);
    expect(decodeFrame(NS)).toEqual(f);
  });

  it('encodes the DAD vector', () => {
    expect(
      encodeNeighborSolicitation({ src: UNSPECIFIED, dst: SOLICITED }, { target: VIP, options: [] }),
    ).toEqual(NS_DAD.slice(IPV6_AT));
  });

  it('ignores the reserved bits (§4.3: MUST be ignored by the receiver) and unknown options (§4.6)', () => {
    const ip = edited(NS, (b) => {
      b.set(hex('de ad be ef'), 44);
      // Replace the SLLA with an unknown option type 200 of one unit.
      b.set(hex('c8 01 01 02 03 04 05 06'), 64);
    });
    expect(decode(ip)).toEqual({
      target: VIP,
      options: [{ kind: 'opaque', type: 200, bytes: hex('01 02 03 04 05 06') }],
    });
  });

  describe('validation (RFC 4861 §7.1.1)', () => {
    it.each([0, 1, 64, 254])('hop limit %i is refused', (hop) => {
      const e = catchWireError(() => decode(edited(NS, (b) => void (b[7] = hop))));
      expect([e.reason, e.offset, e.rule]).toEqual(['bad-hop-limit', 7, 'RFC 4861 §7.1.1']);
    });

    it('a bad checksum is refused', () => {
      const b = NS.slice(IPV6_AT);
      b[43] = (b[43] ?? 0) ^ 0xff;
      expect(catchWireError(() => decode(b)).reason).toBe('bad-checksum');
    });

    it('ICMP code 1 is refused', () => {
      const e = catchWireError(() => decode(edited(NS, (b) => void (b[41] = 1))));
      expect([e.reason, e.offset]).toEqual(['bad-icmp-code', 41]);
    });

    it('an ICMP length under 24 is refused', () => {
      const e = catchWireError(() => decode(edited(NS_DAD, (b) => ((b[5] = 20), b.subarray(0, 60)))));
      expect(e.reason).toBe('bad-icmp-length');
    });

    it('an option of length zero is refused', () => {
      const e = catchWireError(() => decode(edited(NS, (b) => void (b[65] = 0))));
      expect([e.reason, e.offset]).toEqual(['option-length-zero', 65]);
    });

    it('a multicast target is refused', () => {
      const e = catchWireError(() => decode(edited(NS, (b) => void b.set(SOLICITED.toBytes(), 48))));
      expect([e.reason, e.offset]).toEqual(['target-multicast', 48]);
    });

    it('a DAD NS (from ::) must go to a solicited-node address', () => {
      const e = catchWireError(() => decode(edited(NS_DAD, (b) => void b.set(CLIENT.toBytes(), 24))));
      expect([e.reason, e.offset, e.rule]).toEqual(['dad-not-solicited-node', 24, 'RFC 4861 §7.1.1']);
    });

    it('a DAD NS (from ::) must not carry a source link-layer address', () => {
      const e = catchWireError(() => decode(edited(NS, (b) => void b.set(UNSPECIFIED.toBytes(), 8))));
      expect(e.reason).toBe('dad-has-source-lla');
    });

    it('an NA handed to the NS decoder is refused by type', () => {
      expect(catchWireError(() => decode(NA_SOLICITED.slice(IPV6_AT))).reason).toBe('bad-icmp-type');
    });

    it('a packet that is not ICMPv6 is refused', () => {
      const p = decodeIpv6(NS.slice(IPV6_AT));
      expect(catchWireError(() => decodeNeighborSolicitation({ ...p, nextHeader: 17 })).reason).toBe(
        'bad-next-header',
      );
    });
  });

  it('refuses to encode what it would refuse to decode', () => {
    const slla = [{ kind: 'source-lla', mac: MAC2 }] as const;
    const cases = [
      () => encodeNeighborSolicitation({ src: CLIENT, dst: SOLICITED }, { target: SOLICITED, options: [] }),
      () => encodeNeighborSolicitation({ src: UNSPECIFIED, dst: SOLICITED }, { target: VIP, options: slla }),
      () => encodeNeighborSolicitation({ src: UNSPECIFIED, dst: VIP }, { target: VIP, options: [] }),
      () =>
        encodeNeighborSolicitation(
          { src: CLIENT, dst: SOLICITED },
          { target: IpAddress.parse('198.18.0.1'), options: [] },
        ),
    ];
    for (const c of cases) expect(c).toThrow(WireEncodeError);
  });

  it('decodes an NS sent on a VLAN', () => {
    const tagged = new Uint8Array(NS.length + 4);
    tagged.set(NS.subarray(0, 12));
    tagged.set(hex('81 00 00 64'), 12);
    tagged.set(NS.subarray(12), 16);
    const f = decodeFrame(tagged);
    expect(f.kind).toBe('ns');
    expect(decodeEthernet(tagged).vlan?.vid).toBe(100);
    expect(encodeFrame(f)).toEqual(tagged);
  });
});
