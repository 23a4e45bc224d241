import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BfdPacketError } from '../packet/packet-error.ts';
import { ECHO_PAYLOAD_BYTES, decodeEchoPayload, encodeEchoPayload } from './payload.ts';

const RUNS = { numRuns: Number(process.env['LBLAB_FUZZ_RUNS'] ?? 2000) };
const u32 = fc.integer({ min: 0, max: 0xffffffff });

describe('lblab echo payload (RFC 5880 §5: the payload is a local matter)', () => {
  it('round-trips every discriminator, token and sequence', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0xffffffff }), u32, u32, (discriminator, token, sequence) => {
        const p = { discriminator, token, sequence };
        const bytes = encodeEchoPayload(p);
        expect(bytes).toHaveLength(ECHO_PAYLOAD_BYTES);
        expect(decodeEchoPayload(bytes)).toEqual(p);
      }),
      RUNS,
    );
  });

  it('decodes any bytes or throws BfdPacketError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        try {
          const p = decodeEchoPayload(bytes);
          expect(encodeEchoPayload(p)).toEqual(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(BfdPacketError);
        }
      }),
      RUNS,
    );
  });

  it("refuses a zero discriminator both ways, and another implementation's echo", () => {
    expect(() => encodeEchoPayload({ discriminator: 0, token: 1, sequence: 1 })).toThrow(BfdPacketError);
    const zero = encodeEchoPayload({ discriminator: 1, token: 1, sequence: 1 });
    zero.fill(0, 4, 8);
    expect(() => decodeEchoPayload(zero)).toThrow(/discriminator is zero/);
    // FRR's IPv4 echo: version 1, length 24 and its discriminator, then the time it was sent.
    const frr = new Uint8Array(24);
    frr.set([1, 24, 0, 0, 0, 0, 0, 7]);
    expect(() => decodeEchoPayload(frr)).toThrow(BfdPacketError);
  });
});
