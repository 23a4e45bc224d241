import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpAddress, MacAddress } from '../../net/index.ts';
import { type ArpFrame, decodeArp } from './arp.ts';
import { WireEncodeError, WireError } from './errors.ts';
import { type EthernetHeader, type VlanTag, decodeEthernet, withVlan } from './ethernet.ts';
import { type Frame, type OtherFrame, decodeFrame, encodeFrame } from './frame.ts';
import { decodeIcmpv6 } from './icmpv6.ts';
import { ALL_NODES, solicitedNodeMulticast } from './ipv6-addresses.ts';
import { type Ipv6Packet, decodeIpv6 } from './ipv6.ts';
import { type NdpOption, decodeNdpOptions } from './ndp-options.ts';
import { type NeighborAdvertisementFrame, decodeNeighborAdvertisement } from './neighbor-advertisement.ts';
import { type NeighborSolicitationFrame, decodeNeighborSolicitation } from './neighbor-solicitation.ts';
import { fixIcmpChecksum } from './test-support.ts';
import {
  ARP_REQUEST_VLAN,
  GARP_REPLY,
  GARP_REQUEST,
  NA_SOLICITED,
  NA_UNSOLICITED,
  NS,
  NS_DAD,
} from './test-vectors.ts';

// Three properties (brief §8): (a) arbitrary bytes decode or raise WireError, nothing else; (b) every valid
// structure survives encode → decode unchanged and re-encodes to the same bytes; (c) valid frames that are
// flipped, cut or extended still raise nothing but WireError, and whatever decodes re-encodes cleanly.

// LBLAB_FUZZ_RUNS raises the count for a longer soak (e.g. 100000) without editing the test.
const RUNS = { numRuns: Number(process.env['LBLAB_FUZZ_RUNS'] ?? 2000) };
/** Generous per-test time: about 0.5 ms per run is typical, slow CI runners get ten times that. */
const TIMEOUT = Math.max(20_000, RUNS.numRuns * 5);

/** Runs `decode`; any exception other than a WireError fails the property. */
function onlyWireErrors<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

// ---- lab-only building blocks: 02:xx MACs, 198.18.0.0/15, 2001:db8::/32 ----

const mac = fc
  .uint8Array({ minLength: 5, maxLength: 5 })
  .map((b) => MacAddress.fromBytes(Uint8Array.of(0x02, ...b)));
const anyMac = fc.oneof(mac, fc.constant(MacAddress.broadcast), fc.constant(MacAddress.zero));
const v4 = fc
  .bigInt(0n, (1n << 17n) - 1n)
  .map((n) => IpAddress.of(4, IpAddress.parse('198.18.0.0').value + n));
const DOC6 = IpAddress.parse('2001:db8::').value;
const v6 = fc.bigInt(0n, (1n << 96n) - 1n).map((n) => IpAddress.of(6, DOC6 + n));
const vlan: fc.Arbitrary<VlanTag | undefined> = fc.option(
  fc.record({
    pcp: fc.integer({ min: 0, max: 7 }),
    dei: fc.boolean(),
    vid: fc.integer({ min: 0, max: 4095 }),
  }),
  { nil: undefined },
);
const ethernet: fc.Arbitrary<EthernetHeader> = fc
  .tuple(anyMac, mac, vlan)
  .map(([dst, src, tag]) => withVlan({ dst, src }, tag));

const option: fc.Arbitrary<NdpOption> = fc.oneof(
  mac.map((m) => ({ kind: 'source-lla' as const, mac: m })),
  mac.map((m) => ({ kind: 'target-lla' as const, mac: m })),
  fc
    .record({
      type: fc.integer({ min: 3, max: 255 }),
      bytes: fc
        .integer({ min: 1, max: 4 })
        .chain((units) => fc.uint8Array({ minLength: units * 8 - 2, maxLength: units * 8 - 2 })),
    })
    .map((o) => ({ kind: 'opaque' as const, ...o })),
);
const options = fc.array(option, { maxLength: 4 });

const arpFrame: fc.Arbitrary<ArpFrame> = fc.record({
  kind: fc.constant('arp' as const),
  ethernet,
  arp: fc.record({
    op: fc.constantFrom('request' as const, 'reply' as const),
    senderMac: anyMac,
    senderIp: v4,
    targetMac: anyMac,
    targetIp: v4,
  }),
});

const nsFrame: fc.Arbitrary<NeighborSolicitationFrame> = fc.oneof(
  // Resolution or unicast probe from a lab address.
  fc
    .record({
      kind: fc.constant('ns' as const),
      ethernet,
      target: v6,
      src: v6,
      dstKind: fc.constantFrom('solicited', 'unicast'),
      opts: options,
    })
    .map(({ kind, ethernet: eth, target, src, dstKind, opts }) => ({
      kind,
      ethernet: eth,
      ipv6: { src, dst: dstKind === 'solicited' ? solicitedNodeMulticast(target) : target },
      ns: { target, options: opts },
    })),
  // Duplicate Address Detection: from ::, to the solicited-node group, no SLLA (RFC 4861 §7.1.1).
  fc.record({ ethernet, target: v6, opts: options }).map(({ ethernet: eth, target, opts }) => ({
    kind: 'ns' as const,
    ethernet: eth,
    ipv6: { src: IpAddress.parse('::'), dst: solicitedNodeMulticast(target) },
    ns: { target, options: opts.filter((o) => o.kind !== 'source-lla') },
  })),
);

const naFrame: fc.Arbitrary<NeighborAdvertisementFrame> = fc
  .record({
    ethernet,
    src: v6,
    dst: fc.oneof(v6, fc.constant(ALL_NODES)),
    router: fc.boolean(),
    solicited: fc.boolean(),
    override: fc.boolean(),
    target: v6,
    opts: options,
  })
  .map(({ ethernet: eth, src, dst, router, solicited, override, target, opts }) => ({
    kind: 'na' as const,
    ethernet: eth,
    ipv6: { src, dst },
    // RFC 4861 §7.1.2: S must be clear towards a multicast destination.
    na: { router, solicited: solicited && !dst.equals(ALL_NODES), override, target, options: opts },
  }));

const otherFrame: fc.Arbitrary<OtherFrame> = fc
  .record({
    header: ethernet,
    etherType: fc
      .integer({ min: 0, max: 0xffff })
      .filter((t) => ![0x0806, 0x86dd, 0x8100, 0x88a8].includes(t)),
    // At least the 46 bytes of the minimum frame, so decoding finds no padding to add to the payload.
    payload: fc.uint8Array({ minLength: 46, maxLength: 120 }),
  })
  .map(({ header, etherType, payload }) => ({
    kind: 'other' as const,
    ethernet: { ...header, etherType, payload },
  }));

const frame: fc.Arbitrary<Frame> = fc.oneof(arpFrame, nsFrame, naFrame, otherFrame);

/** An Ethernet + IPv6 + ICMPv6 NS/NA skeleton around random bytes, with a correct checksum, to get deep. */
const ndpShaped = fc
  .record({
    type: fc.constantFrom(135, 136),
    code: fc.constantFrom(0, 0, 0, 1),
    hop: fc.constantFrom(255, 255, 255, 64),
    src: fc.oneof(v6, fc.constant(IpAddress.parse('::'))),
    dst: fc.oneof(v6, fc.constant(ALL_NODES), v6.map(solicitedNodeMulticast)),
    body: fc.uint8Array({ maxLength: 80 }),
  })
  .map(({ type, code, hop, src, dst, body }) => {
    const icmp = Uint8Array.of(type, code, 0, 0, ...body);
    const ip = new Uint8Array(40 + icmp.length);
    ip.set([0x60, 0, 0, 0, icmp.length >> 8, icmp.length & 0xff, 58, hop]);
    ip.set(src.toBytes(), 8);
    ip.set(dst.toBytes(), 24);
    ip.set(icmp, 40);
    const eth = Uint8Array.of(...new Uint8Array(12).fill(2), 0x86, 0xdd);
    return Uint8Array.of(...eth, ...fixIcmpChecksum(ip));
  });

describe('fuzz (a): arbitrary bytes decode or raise WireError', () => {
  it(
    'decodeFrame',
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 200 }), (b) => void onlyWireErrors(() => decodeFrame(b))),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'decodeFrame on Ethernet/IPv6/ICMPv6 skeletons carrying random NS/NA bodies',
    () => {
      fc.assert(
        fc.property(ndpShaped, (b) => void onlyWireErrors(() => decodeFrame(b))),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'each decoder on its own',
    () => {
      const decoders: ((b: Uint8Array) => unknown)[] = [
        decodeEthernet,
        decodeArp,
        decodeIpv6,
        decodeNdpOptions,
        (b) => decodeIcmpv6(decodeIpv6(b)),
        (b) => decodeNeighborSolicitation(decodeIpv6(b)),
        (b) => decodeNeighborAdvertisement(decodeIpv6(b)),
      ];
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 120 }), (b) => {
          for (const d of decoders) onlyWireErrors(() => d(b));
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'NS/NA decoders on arbitrary IPv6 packet structures',
    () => {
      const packet: fc.Arbitrary<Ipv6Packet> = fc.record({
        trafficClass: fc.integer({ min: 0, max: 255 }),
        flowLabel: fc.integer({ min: 0, max: 0xfffff }),
        nextHeader: fc.constantFrom(58, 58, 17),
        hopLimit: fc.constantFrom(255, 255, 1),
        src: fc.oneof(v6, fc.constant(IpAddress.parse('::'))),
        dst: fc.oneof(v6, fc.constant(ALL_NODES)),
        payload: fc.uint8Array({ maxLength: 64 }),
      });
      fc.assert(
        fc.property(packet, (p) => {
          onlyWireErrors(() => decodeNeighborSolicitation(p));
          onlyWireErrors(() => decodeNeighborAdvertisement(p));
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );
});

describe('fuzz (b): valid structures round-trip', () => {
  it(
    'decode(encode(f)) equals f, and encode(decode(bytes)) equals bytes',
    () => {
      fc.assert(
        fc.property(frame, (f) => {
          const bytes = encodeFrame(f);
          expect(bytes.length).toBeGreaterThanOrEqual(f.ethernet.vlan === undefined ? 60 : 64);
          const back = decodeFrame(bytes);
          expect(back).toEqual(f);
          expect(encodeFrame(back)).toEqual(bytes);
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );
});

describe('fuzz (c): mutated valid frames', () => {
  const vectors = [GARP_REQUEST, GARP_REPLY, ARP_REQUEST_VLAN, NS, NS_DAD, NA_SOLICITED, NA_UNSOLICITED];
  const seed = fc.oneof(fc.constantFrom(...vectors), frame.map(encodeFrame));

  type Mutation =
    | { op: 'flip'; at: number; bit: number }
    | { op: 'set'; at: number; value: number }
    | { op: 'truncate'; at: number }
    | { op: 'extend'; bytes: Uint8Array };
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({
      op: fc.constant('set' as const),
      at: fc.nat(),
      value: fc.constantFrom(0, 1, 0x3a, 0x80, 0xff),
    }),
    fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('extend' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 24 }) }),
  );

  function apply(bytes: Uint8Array, m: Mutation): Uint8Array {
    const b = bytes.slice();
    switch (m.op) {
      case 'flip':
        b[m.at % b.length] = (b[m.at % b.length] ?? 0) ^ (1 << m.bit);
        return b;
      case 'set':
        b[m.at % b.length] = m.value;
        return b;
      case 'truncate':
        return b.slice(0, m.at % b.length);
      case 'extend':
        return Uint8Array.of(...b, ...m.bytes);
    }
  }

  /** Re-fixes the ICMPv6 checksum of an untagged IPv6 frame so a mutation reaches the NDP rules. */
  function refixed(b: Uint8Array): Uint8Array {
    if (b.length < 14 + 44 || b[12] !== 0x86 || b[13] !== 0xdd) return b;
    const ip = b.subarray(14);
    const length = ((ip[4] ?? 0) << 8) | (ip[5] ?? 0);
    if (40 + length > ip.length || length < 4) return b;
    return Uint8Array.of(...b.subarray(0, 14), ...fixIcmpChecksum(ip));
  }

  it(
    'raise nothing but WireError, and what decodes re-encodes and decodes the same',
    () => {
      fc.assert(
        fc.property(
          seed,
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          fc.boolean(),
          (start, ms, fix) => {
            const mutated = ms.reduce(apply, start);
            const bytes = fix ? refixed(mutated) : mutated;
            const decoded = onlyWireErrors(() => decodeFrame(bytes));
            if (decoded === undefined) return;
            let again: Uint8Array;
            try {
              again = encodeFrame(decoded);
            } catch (e) {
              if (e instanceof WireEncodeError)
                throw new Error(`decoded frame did not re-encode: ${e.message}`, { cause: e });
              throw e;
            }
            const third = decodeFrame(again);
            expect(encodeFrame(third)).toEqual(again);
            // An 'other' frame shorter than the minimum gains its padding in the payload; the rest is exact.
            if (decoded.kind !== 'other') expect(third).toEqual(decoded);
          },
        ),
        RUNS,
      );
    },
    TIMEOUT,
  );
});
