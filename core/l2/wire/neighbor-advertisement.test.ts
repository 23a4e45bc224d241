import { describe, expect, it } from 'vitest';
import { IpAddress, MacAddress } from '../../net/index.ts';
import { WireEncodeError } from './errors.ts';
import { decodeFrame, encodeFrame } from './frame.ts';
import { ALL_NODES, ALL_NODES_MAC } from './ipv6-addresses.ts';
import { decodeIpv6 } from './ipv6.ts';
import {
  type NeighborAdvertisement,
  decodeNeighborAdvertisement,
  encodeNeighborAdvertisement,
  solicitedNeighborAdvertisement,
  unsolicitedNeighborAdvertisement,
} from './neighbor-advertisement.ts';
import { type NeighborSolicitationFrame, neighborSolicitation } from './neighbor-solicitation.ts';
import { catchWireError, fixIcmpChecksum } from './test-support.ts';
import { IPV6_AT, NA_SOLICITED, NA_UNSOLICITED, NS, NS_DAD } from './test-vectors.ts';

const VIP = IpAddress.parse('2001:db8::1');
const CLIENT = IpAddress.parse('2001:db8::2');
const LINK_LOCAL = IpAddress.parse('fe80::1');
const MAC1 = MacAddress.parse('02:00:00:00:00:01');
const MAC2 = MacAddress.parse('02:00:00:00:00:02');
const MAC3 = MacAddress.parse('02:00:00:00:00:03');

function edited(frame: Uint8Array, edit: (b: Uint8Array) => void): Uint8Array {
  const b = frame.slice(IPV6_AT);
  edit(b);
  return fixIcmpChecksum(b);
}
const decode = (ipv6: Uint8Array) => decodeNeighborAdvertisement(decodeIpv6(ipv6));
const asNs = (bytes: Uint8Array): NeighborSolicitationFrame => {
  const f = decodeFrame(bytes);
  if (f.kind !== 'ns') throw new Error(`expected an NS, got ${f.kind}`);
  return f;
};

describe('Neighbor Advertisement (RFC 4861 §4.4)', () => {
  it('decodes the flags, target and options of both vectors', () => {
    const tlla = [{ kind: 'target-lla', mac: MAC1 }];
    expect(decode(NA_SOLICITED.slice(IPV6_AT))).toEqual({
      router: false,
      solicited: true,
      override: true,
      target: VIP,
      options: tlla,
    });
    expect(decode(NA_UNSOLICITED.slice(IPV6_AT))).toEqual({
      router: false,
      solicited: false,
      override: true,
      target: VIP,
      options: tlla,
    });
  });

  it('reads the Router flag and ignores the 29 reserved bits (§4.4: MUST be ignored)', () => {
    const na = decode(edited(NA_SOLICITED, (b) => b.set([0x9f, 0xff, 0xff, 0xff], 44)));
    expect([na.router, na.solicited, na.override]).toEqual([true, false, false]);
  });

  it('builds the unsolicited takeover NA byte for byte: ff02::1, O set, S clear', () => {
    const f = unsolicitedNeighborAdvertisement({ target: VIP, mac: MAC1 });
    expect(f.ethernet.dst).toEqual(ALL_NODES_MAC);
    expect(f.ipv6.dst).toEqual(ALL_NODES);
    expect(encodeFrame(f)).toEqual(NA_UNSOLICITED);
    expect(decodeFrame(NA_UNSOLICITED)).toEqual(f);
  });

  it('the unsolicited NA can come from the link-local address and on a VLAN', () => {
    const vlan = { pcp: 0, dei: false, vid: 42 };
    const f = unsolicitedNeighborAdvertisement({ target: VIP, mac: MAC1, source: LINK_LOCAL, vlan });
    expect(f.ipv6.src).toEqual(LINK_LOCAL);
    expect(decodeFrame(encodeFrame(f))).toEqual(f);
  });

  it('answers the NS vector byte for byte: unicast to its SLLA, S and O set', () => {
    const reply = solicitedNeighborAdvertisement({ solicitation: asNs(NS), mac: MAC1 });
    expect(encodeFrame(reply)).toEqual(NA_SOLICITED);
  });

  it('answers a DAD NS to all-nodes with S clear (§7.2.4: MUST)', () => {
    const reply = solicitedNeighborAdvertisement({ solicitation: asNs(NS_DAD), mac: MAC1 });
    expect(reply.ipv6.dst).toEqual(ALL_NODES);
    expect(reply.ethernet.dst).toEqual(ALL_NODES_MAC);
    expect(reply.na.solicited).toBe(false);
    expect(decodeFrame(encodeFrame(reply))).toEqual(reply);
  });

  it('answers an NS without SLLA at its Ethernet source, on its VLAN, with the chosen flags', () => {
    const base = neighborSolicitation({ target: VIP, source: CLIENT, mac: MAC2 });
    const ns: NeighborSolicitationFrame = {
      ...base,
      ethernet: { dst: MAC1, src: MAC3, vlan: { pcp: 3, dei: false, vid: 7 } },
      ipv6: { src: CLIENT, dst: VIP },
      ns: { target: VIP, options: [] },
    };
    const reply = solicitedNeighborAdvertisement({
      solicitation: ns,
      mac: MAC1,
      source: LINK_LOCAL,
      override: false,
    });
    expect(reply.ethernet).toEqual({ dst: MAC3, src: MAC1, vlan: { pcp: 3, dei: false, vid: 7 } });
    expect(reply.ipv6).toEqual({ src: LINK_LOCAL, dst: CLIENT });
    expect(reply.na).toMatchObject({ solicited: true, override: false, router: false });
    expect(reply.na.options).toEqual([{ kind: 'target-lla', mac: MAC1 }]);
  });

  describe('validation (RFC 4861 §7.1.2)', () => {
    it('hop limit 254 is refused', () => {
      const e = catchWireError(() => decode(edited(NA_UNSOLICITED, (b) => void (b[7] = 254))));
      expect([e.reason, e.rule]).toEqual(['bad-hop-limit', 'RFC 4861 §7.1.2']);
    });

    it('a bad checksum is refused', () => {
      const b = NA_SOLICITED.slice(IPV6_AT);
      b[50] = (b[50] ?? 0) ^ 0x10;
      expect(catchWireError(() => decode(b)).reason).toBe('bad-checksum');
    });

    it('ICMP code 255 is refused', () => {
      expect(catchWireError(() => decode(edited(NA_SOLICITED, (b) => void (b[41] = 255)))).reason).toBe(
        'bad-icmp-code',
      );
    });

    it('an ICMP length under 24 is refused', () => {
      const b = NA_SOLICITED.slice(IPV6_AT, IPV6_AT + 40 + 23);
      b[5] = 23;
      expect(catchWireError(() => decode(fixIcmpChecksum(b))).reason).toBe('bad-icmp-length');
    });

    it('an option of length zero is refused', () => {
      const e = catchWireError(() => decode(edited(NA_SOLICITED, (b) => void (b[65] = 0))));
      expect([e.reason, e.rule]).toEqual(['option-length-zero', 'RFC 4861 §7.1.2']);
    });

    it('a multicast target is refused', () => {
      const e = catchWireError(() => decode(edited(NA_SOLICITED, (b) => b.set(ALL_NODES.toBytes(), 48))));
      expect(e.reason).toBe('target-multicast');
    });

    it('S set on a multicast destination is refused', () => {
      const e = catchWireError(() => decode(edited(NA_UNSOLICITED, (b) => void (b[44] = 0x60))));
      expect([e.reason, e.offset, e.rule]).toEqual(['solicited-to-multicast', 44, 'RFC 4861 §7.1.2']);
    });

    it('an NS handed to the NA decoder is refused by type', () => {
      expect(catchWireError(() => decode(NS.slice(IPV6_AT))).reason).toBe('bad-icmp-type');
    });
  });

  it('refuses to encode what it would refuse to decode', () => {
    const na: NeighborAdvertisement = {
      router: false,
      solicited: true,
      override: true,
      target: VIP,
      options: [],
    };
    expect(() => encodeNeighborAdvertisement({ src: VIP, dst: ALL_NODES }, na)).toThrow(WireEncodeError);
    expect(() =>
      encodeNeighborAdvertisement({ src: VIP, dst: CLIENT }, { ...na, target: ALL_NODES }),
    ).toThrow(WireEncodeError);
  });
});
