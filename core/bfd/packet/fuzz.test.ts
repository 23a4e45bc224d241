import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authenticationFailure, signControlPacket, type SigningKey } from './auth.ts';
import { decodeControlPacket, encodeControlPacket } from './control-packet.ts';
import { BfdPacketError } from './packet-error.ts';
import { BFD_STATES, type AuthSection, type ControlPacket } from './types.ts';

// Properties of the codec: (a) any bytes decode or raise BfdPacketError, nothing else, and what decodes
// re-encodes to the same packet; (b) every valid packet survives encode → decode unchanged; (c) every
// signed packet passes with its key, and checking any bytes returns a reason rather than throwing.

// LBLAB_FUZZ_RUNS raises the count for a longer soak without editing the test.
const RUNS = { numRuns: Number(process.env['LBLAB_FUZZ_RUNS'] ?? 2000) };
const TIMEOUT = Math.max(30_000, RUNS.numRuns * 10);

const u8 = fc.integer({ min: 0, max: 0xff });
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const octets = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const DIGEST_TYPES = ['keyed-md5', 'meticulous-keyed-md5', 'keyed-sha1', 'meticulous-keyed-sha1'] as const;
const digestSize = (type: (typeof DIGEST_TYPES)[number]) => (type.endsWith('md5') ? 16 : 20);

const authSection: fc.Arbitrary<AuthSection> = fc.oneof(
  fc.record({ type: fc.constant('simple-password' as const), keyId: u8, password: octets(1, 16) }),
  fc.constantFrom(...DIGEST_TYPES).chain((type) =>
    fc.record({
      type: fc.constant(type),
      keyId: u8,
      sequence: u32,
      digest: octets(digestSize(type), digestSize(type)),
    }),
  ),
);

/** Packets RFC 5880 allows to be sent: what encodeControlPacket must accept and decode must give back. */
const validPacket: fc.Arbitrary<ControlPacket> = fc
  .record({
    diagnostic: fc.integer({ min: 0, max: 31 }),
    state: fc.constantFrom(...BFD_STATES),
    pollFinal: fc.constantFrom<[boolean, boolean]>([false, false], [true, false], [false, true]),
    controlPlaneIndependent: fc.boolean(),
    demand: fc.boolean(),
    detectMultiplier: fc.integer({ min: 1, max: 255 }),
    myDiscriminator: fc.integer({ min: 1, max: 0xffffffff }),
    yourDiscriminator: u32,
    desiredMinTxIntervalUs: u32,
    requiredMinRxIntervalUs: u32,
    requiredMinEchoRxIntervalUs: u32,
    auth: fc.option(authSection, { nil: undefined }),
  })
  .map(({ pollFinal: [poll, final], auth, ...rest }) => ({
    version: 1 as const,
    ...rest,
    // §6.8.6: Your Discriminator may be zero only in Down and AdminDown.
    yourDiscriminator:
      rest.state === 'init' || rest.state === 'up' ? rest.yourDiscriminator || 1 : rest.yourDiscriminator,
    poll,
    final,
    multipoint: false,
    ...(auth === undefined ? {} : { auth }),
  }));

/** Valid packets with octets changed, cut or added, and raw bytes with version 1 and a fitting Length. */
const suspectBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  octets(0, 64),
  octets(24, 64).map((b) => {
    b[0] = (1 << 5) | (b[0]! & 0x1f);
    b[3] = b.length;
    return b;
  }),
  fc
    .tuple(validPacket, fc.array(fc.tuple(fc.nat(), u8), { maxLength: 4 }), fc.integer({ min: -8, max: 8 }))
    .map(([p, edits, grow]) => {
      const b = encodeControlPacket(p);
      for (const [at, value] of edits) b[at % b.length] = value;
      return grow < 0
        ? b.subarray(0, b.length + grow)
        : new Uint8Array([...b, ...new Array<number>(grow).fill(0)]);
    }),
);

/** Runs `decode`; any exception other than a BfdPacketError fails the property. */
function onlyPacketErrors(bytes: Uint8Array): ControlPacket | undefined {
  try {
    return decodeControlPacket(bytes);
  } catch (e) {
    if (e instanceof BfdPacketError) return undefined;
    throw e;
  }
}

describe('BFD codec properties', () => {
  it(
    'decodes any bytes or raises BfdPacketError, and what decodes re-encodes to the same packet',
    () => {
      let decoded = 0;
      fc.assert(
        fc.property(suspectBytes, (bytes) => {
          const p = onlyPacketErrors(bytes);
          // §6.5 forbids sending Poll and Final together, but §6.8.6 does not discard such a packet.
          if (p === undefined || (p.poll && p.final)) return;
          decoded++;
          expect(decodeControlPacket(encodeControlPacket(p))).toEqual(p);
        }),
        RUNS,
      );
      // The generator must reach past the checks often enough for the second half to mean something.
      expect(decoded).toBeGreaterThan(RUNS.numRuns / 10);
    },
    TIMEOUT,
  );

  it(
    'gives back every valid packet unchanged',
    () => {
      fc.assert(
        fc.property(validPacket, (p) => {
          expect(decodeControlPacket(encodeControlPacket(p))).toEqual(p);
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  const signingKey: fc.Arbitrary<SigningKey> = fc.oneof(
    fc.record({ type: fc.constant('simple-password' as const), keyId: u8, key: octets(1, 16) }),
    fc
      .constantFrom(...DIGEST_TYPES)
      .chain((type) =>
        fc.record({ type: fc.constant(type), keyId: u8, key: octets(1, digestSize(type)), sequence: u32 }),
      ),
  );

  it(
    'passes every signed packet with its key, and only returns reasons for other bytes',
    () => {
      fc.assert(
        fc.property(validPacket, signingKey, suspectBytes, (p, k, other) => {
          const signed = signControlPacket(p, k);
          expect(authenticationFailure(signed, k)).toBeUndefined();
          const failure = authenticationFailure(other, k);
          expect(failure === undefined || typeof failure === 'string').toBe(true);
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );
});
