import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../net/index.ts';
import type { Capability } from '../capabilities/capability.ts';
import type { AsPathSegment } from '../attributes/as-path.ts';
import type { PathAttributes } from '../attributes/path-attributes.ts';
import { BgpWireError } from '../wire-error.ts';
import type { CodecContext } from './context.ts';
import { type BgpMessage, decodeMessage, encodeMessage } from './message.ts';
import type { UpdateMessage } from './update.ts';
import { FOUR, message, TWO } from './test-support.ts';

// Three properties (issue 5, item 8): (a) any bytes decode or raise BgpWireError, nothing else; (b) every
// valid message survives encode → decode unchanged, for both AS number widths; (c) valid messages with
// flipped bytes, cut or grown bodies and edited length fields still raise nothing but BgpWireError, and
// what decodes cleanly re-encodes to a message that decodes to the same thing.

// LBLAB_FUZZ_RUNS raises the count for a longer soak (e.g. 100000) without editing the test.
const RUNS = { numRuns: Number(process.env['LBLAB_FUZZ_RUNS'] ?? 2000) };
const TIMEOUT = Math.max(30_000, RUNS.numRuns * 10);

/** Runs `decode`; any exception other than a BgpWireError fails the property. */
function onlyWireErrors<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch (e) {
    if (e instanceof BgpWireError) return undefined;
    throw e;
  }
}

// ---- building blocks: lab addresses (198.18.0.0/15, 2001:db8::/32) ----

const u8 = fc.integer({ min: 0, max: 0xff });
const u16 = fc.integer({ min: 0, max: 0xffff });
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const asn = fc.oneof(fc.integer({ min: 1, max: 0xffff }), fc.integer({ min: 0x10000, max: 0xffffffff }));
const LAB4 = IpAddress.parse('198.18.0.0').value;
const LAB6 = IpAddress.parse('2001:db8::').value;
const v4 = fc.bigInt(1n, (1n << 17n) - 1n).map((n) => IpAddress.of(4, LAB4 + n));
const v6 = fc.bigInt(1n, (1n << 96n) - 1n).map((n) => IpAddress.of(6, LAB6 + n));
const linkLocal = fc.bigInt(1n, (1n << 64n) - 1n).map((n) => IpAddress.of(6, (0xfe80n << 112n) + n));
const v4Prefix = fc.tuple(v4, fc.integer({ min: 0, max: 32 })).map(([a, l]) => Prefix.of(a, l));
const v6Prefix = fc.tuple(v6, fc.integer({ min: 0, max: 128 })).map(([a, l]) => Prefix.of(a, l));
const bytes = (max: number) => fc.uint8Array({ maxLength: max });

const KNOWN_CAPABILITIES = [1, 2, 64, 65, 70];
const capability: fc.Arbitrary<Capability> = fc.oneof(
  fc.record({ code: fc.constant('multiprotocol' as const), afi: u16, safi: u8 }),
  fc.record({ code: fc.constant('four-octet-as' as const), asn }),
  fc.constant({ code: 'route-refresh' as const }),
  fc.constant({ code: 'enhanced-route-refresh' as const }),
  fc.record({
    code: fc.constant('graceful-restart' as const),
    restarting: fc.boolean(),
    notification: fc.boolean(),
    restartTimeSec: fc.integer({ min: 0, max: 4095 }),
    families: fc.array(fc.record({ afi: u16, safi: u8, forwardingPreserved: fc.boolean() }), {
      maxLength: 4,
    }),
  }),
  fc.record({
    code: fc.constant('unknown' as const),
    type: u8.filter((t) => !KNOWN_CAPABILITIES.includes(t)),
    value: bytes(16),
  }),
);

const open: fc.Arbitrary<BgpMessage> = fc.record({
  type: fc.constant('open' as const),
  version: fc.constant(4),
  myAs: fc.integer({ min: 1, max: 0xffff }),
  holdTimeSec: fc.oneof(fc.constant(0), fc.integer({ min: 3, max: 0xffff })),
  bgpId: v4,
  capabilities: fc.array(capability, { maxLength: 8 }),
});

const segment = (types: AsPathSegment['type'][], as = asn): fc.Arbitrary<AsPathSegment> =>
  fc.record({ type: fc.constantFrom(...types), asns: fc.array(as, { minLength: 1, maxLength: 8 }) });

/**
 * An AS path that survives a 2-octet session. AS4_PATH carries no confederation segments (RFC 6793
 * §4.2.2), so their AS numbers must fit 2 octets; and RFC 6793 §4.2.3 keeps only leading confederation
 * segments when it rebuilds the path, so they come first.
 */
const asPath = (ctx: CodecContext): fc.Arbitrary<AsPathSegment[]> =>
  ctx.fourOctetAs
    ? fc.array(segment(['sequence', 'set', 'confed-sequence', 'confed-set']), { maxLength: 5 })
    : fc
        .tuple(
          fc.array(segment(['confed-sequence', 'confed-set'], fc.integer({ min: 1, max: 0xffff })), {
            maxLength: 2,
          }),
          fc.array(segment(['sequence', 'set']), { maxLength: 4 }),
        )
        .map(([confed, rest]) => [...confed, ...rest]);

const KNOWN_ATTRIBUTES = [1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 17, 18, 32];
const largeCommunity = fc.record({ globalAdmin: u32, localData1: u32, localData2: u32 });
const keyOf = (c: { globalAdmin: number; localData1: number; localData2: number }) =>
  `${c.globalAdmin}:${c.localData1}:${c.localData2}`;

const attributes = (ctx: CodecContext): fc.Arbitrary<PathAttributes> =>
  fc
    .record(
      {
        origin: fc.constantFrom('igp' as const, 'egp' as const, 'incomplete' as const),
        asPath: asPath(ctx),
        nextHop: v4,
        med: u32,
        localPref: u32,
        atomicAggregate: fc.constant(true),
        aggregator: fc.record({ asn: fc.oneof(u32, fc.constant(23456)), address: v4 }),
        communities: fc.array(u32, { minLength: 1, maxLength: 8 }),
        largeCommunities: fc.uniqueArray(largeCommunity, { minLength: 1, maxLength: 5, selector: keyOf }),
        mpReach: fc.oneof(
          fc.record({
            afi: fc.constant(2),
            safi: fc.constant(1),
            nextHops: fc.oneof(
              v6.map((a) => [a]),
              fc.tuple(v6, linkLocal).map(([g, l]) => [g, l]),
            ),
            nlri: fc.array(v6Prefix, { maxLength: 10 }),
          }),
          fc.record({
            afi: fc.constant(1),
            safi: fc.constant(1),
            nextHops: v4.map((a) => [a]),
            nlri: fc.array(v4Prefix, { maxLength: 10 }),
          }),
        ),
        mpUnreach: fc.record({
          afi: fc.constant(2),
          safi: fc.constant(1),
          withdrawn: fc.array(v6Prefix, { maxLength: 10 }),
        }),
        // What a decoder hands on: optional transitive, Partial already set (RFC 4271 §5).
        unknown: fc
          .uniqueArray(
            fc.record({
              flags: fc.constant(0xe0),
              type: u8.filter((t) => !KNOWN_ATTRIBUTES.includes(t)),
              value: bytes(20),
            }),
            { minLength: 1, maxLength: 3, selector: (u) => u.type },
            // The encoder sends attributes in type order (RFC 4271 §5).
          )
          .map((us) => us.sort((x, y) => x.type - y.type)),
      },
      { requiredKeys: [] },
    )
    // RFC 6793 §4.2.3: an AGGREGATOR naming a real 2-octet AS makes the receiver ignore AS4_PATH, so a
    // 2-octet session cannot carry both that and a path with 4-octet AS numbers.
    .filter(
      (a) =>
        ctx.fourOctetAs ||
        a.aggregator === undefined ||
        a.aggregator.asn > 0xffff ||
        !(a.asPath ?? []).some((s) => s.asns.some((n) => n > 0xffff)),
    );

const updateMessage = (ctx: CodecContext): fc.Arbitrary<BgpMessage> =>
  fc
    .record({
      type: fc.constant('update' as const),
      withdrawn: fc.array(v4Prefix, { maxLength: 10 }),
      attributes: attributes(ctx),
      nlri: fc.array(v4Prefix, { maxLength: 10 }),
    })
    .map((u): UpdateMessage => {
      // Routes need the well-known mandatory attributes, or the decoder rightly treats them as withdrawn.
      const a = { ...u.attributes };
      if (u.nlri.length > 0 || (a.mpReach?.nlri.length ?? 0) > 0) {
        a.origin ??= 'igp';
        a.asPath ??= [];
      }
      if (u.nlri.length > 0) a.nextHop ??= IpAddress.parse('198.18.0.1');
      return { ...u, attributes: a };
    });

const anyMessage = (ctx: CodecContext): fc.Arbitrary<BgpMessage> =>
  fc.oneof(
    open,
    updateMessage(ctx),
    fc.record({ type: fc.constant('notification' as const), code: u8, subcode: u8, data: bytes(40) }),
    fc.constant({ type: 'keepalive' as const }),
    fc.record({ type: fc.constant('route-refresh' as const), afi: u16, safi: u8, subtype: u8 }),
  );

const ctxArb = fc.constantFrom(FOUR, TWO);

// ---- mutations of valid messages ----

type Mutation =
  | { kind: 'flip'; at: number[]; values: number[] }
  | { kind: 'cut'; keep: number; fixLength: boolean }
  | { kind: 'grow'; extra: Uint8Array; fixLength: boolean }
  | { kind: 'length'; at: number; delta: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    values: fc.array(u8, { minLength: 4, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('cut' as const), keep: fc.nat(), fixLength: fc.boolean() }),
  fc.record({
    kind: fc.constant('grow' as const),
    extra: fc.uint8Array({ minLength: 1, maxLength: 40 }),
    fixLength: fc.boolean(),
  }),
  // A one- or two-octet length field nudged up or down: the positions are anywhere after the marker.
  fc.record({ kind: fc.constant('length' as const), at: fc.nat(), delta: fc.integer({ min: -4, max: 4 }) }),
);

function setLength(b: Uint8Array): void {
  if (b.length >= 18) {
    b[16] = (b.length >> 8) & 0xff;
    b[17] = b.length & 0xff;
  }
}

function mutate(original: Uint8Array, m: Mutation): Uint8Array {
  switch (m.kind) {
    case 'flip': {
      const b = original.slice();
      // Mostly after the marker, so the decoders past the header see the damage.
      m.at.forEach((at, i) => (b[16 + (at % (b.length - 16))] = m.values[i]!));
      return b;
    }
    case 'cut': {
      const b = original.slice(0, m.keep % (original.length + 1));
      if (m.fixLength) setLength(b);
      return b;
    }
    case 'grow': {
      const b = new Uint8Array([...original, ...m.extra]);
      if (m.fixLength) setLength(b);
      return b;
    }
    case 'length': {
      const b = original.slice();
      const at = 16 + (m.at % (b.length - 16));
      b[at] = (b[at]! + m.delta) & 0xff;
      return b;
    }
  }
}

/**
 * A decoded UPDATE as it comes back after being passed on: unknown transitive attributes get Partial
 * and, like all attributes, are sent in type order (RFC 4271 §5).
 */
function passedOn(m: BgpMessage): BgpMessage {
  if (m.type !== 'update' || m.attributes.unknown === undefined) return m;
  const unknown = m.attributes.unknown
    .map((u) => ({ ...u, flags: u.flags | 0x20 }))
    .sort((x, y) => x.type - y.type);
  return { ...m, attributes: { ...m.attributes, unknown } };
}

describe('BGP codec fuzz', () => {
  it(
    'random bytes decode or raise BgpWireError, nothing else',
    () => {
      fc.assert(
        fc.property(bytes(200), ctxArb, (b, ctx) => {
          onlyWireErrors(() => decodeMessage(b, ctx));
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'random bodies behind a valid header decode or raise BgpWireError, nothing else',
    () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 7 }), bytes(300), ctxArb, (type, body, ctx) => {
          onlyWireErrors(() => decodeMessage(message(type, body), ctx));
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'UPDATEs built from random attribute TLVs decode or raise BgpWireError, nothing else',
    () => {
      // Well-formed framing (flags, known type codes, consistent lengths) with random values reaches the
      // per-attribute decoders far more often than random bytes do.
      const tlv = fc
        .tuple(
          fc.constantFrom(0x40, 0x80, 0xc0, 0xe0, 0x50, 0x00),
          fc.oneof(fc.constantFrom(...KNOWN_ATTRIBUTES), u8),
          bytes(40),
        )
        .map(([flags, type, value]) =>
          flags & 0x10
            ? [flags, type, value.length >> 8, value.length & 0xff, ...value]
            : [flags, type, value.length, ...value],
        );
      fc.assert(
        fc.property(fc.array(tlv, { maxLength: 8 }), bytes(30), ctxArb, (tlvs, nlri, ctx) => {
          const attrs = tlvs.flat();
          const body = new Uint8Array([0, 0, attrs.length >> 8, attrs.length & 0xff, ...attrs, ...nlri]);
          const m = onlyWireErrors(() => decodeMessage(message(2, body), ctx));
          if (m !== undefined) expect(m.type).toBe('update');
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'every valid message survives encode → decode unchanged',
    () => {
      fc.assert(
        fc.property(
          ctxArb.chain((ctx) => fc.tuple(fc.constant(ctx), anyMessage(ctx))),
          ([ctx, m]) => {
            expect(decodeMessage(encodeMessage(m, ctx), ctx)).toEqual(m);
          },
        ),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'mutated valid messages decode or raise BgpWireError; clean decodes re-encode to the same message',
    () => {
      fc.assert(
        fc.property(
          ctxArb.chain((ctx) => fc.tuple(fc.constant(ctx), anyMessage(ctx), mutation)),
          ([ctx, m, mut]) => {
            const damaged = mutate(encodeMessage(m, ctx), mut);
            const decoded = onlyWireErrors(() => decodeMessage(damaged, ctx));
            if (decoded === undefined || !ctx.fourOctetAs) return;
            if (
              decoded.type === 'update' &&
              (decoded.treatAsWithdraw !== undefined || decoded.discarded !== undefined)
            )
              return;
            expect(decodeMessage(encodeMessage(decoded, ctx), ctx)).toEqual(passedOn(decoded));
          },
        ),
        RUNS,
      );
    },
    TIMEOUT,
  );
});
