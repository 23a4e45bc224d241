import { familyBits, IpAddress, type IpFamily, Prefix } from '../../net/index.ts';
import type { BgpWireError } from '../wire-error.ts';
import type { Writer } from './bytes.ts';

// RFC 4271 §4.3 (Withdrawn Routes, NLRI) and RFC 4760 §5 use the same prefix encoding:
//   Length (1 octet, in bits) | Prefix (the fewest whole octets holding Length bits)

/** Octets one prefix takes on the wire. */
export function prefixBytes(p: Prefix): number {
  return 1 + Math.ceil(p.length / 8);
}

/**
 * Decodes a run of prefixes filling `bytes` exactly. `fail` builds the error: RFC 7606 §5.3 makes a
 * length above the family's bits, or a prefix running past the field, a syntax error of the whole field.
 */
export function decodePrefixes(
  bytes: Uint8Array,
  family: IpFamily,
  fail: (reason: string) => BgpWireError,
): Prefix[] {
  const bits = familyBits(family);
  const out: Prefix[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const length = bytes[pos]!;
    if (length > bits) throw fail(`prefix length ${length} is above ${bits} for IPv${family}`);
    const octets = Math.ceil(length / 8);
    if (pos + 1 + octets > bytes.length) {
      throw fail(`a /${length} prefix needs ${octets} octets, ${bytes.length - pos - 1} left`);
    }
    let value = 0n;
    for (let i = 0; i < octets; i++) value = (value << 8n) | BigInt(bytes[pos + 1 + i]!);
    value <<= BigInt(bits - octets * 8);
    // RFC 4271 §4.3: the trailing bits past Length are irrelevant; Prefix.of clears them.
    out.push(Prefix.of(IpAddress.of(family, value), length));
    pos += 1 + octets;
  }
  return out;
}

/** Writes prefixes in the RFC 4271 §4.3 form; throws a plain Error for a prefix of another family. */
export function encodePrefixes(
  w: Writer,
  prefixes: readonly Prefix[],
  family: IpFamily,
  field: string,
): void {
  const bits = familyBits(family);
  for (const p of prefixes) {
    if (p.family !== family) throw new Error(`${field}: ${p.toString()} is not an IPv${family} prefix`);
    const octets = Math.ceil(p.length / 8);
    w.u8(p.length);
    const value = p.network.value >> BigInt(bits - octets * 8);
    for (let i = octets - 1; i >= 0; i--) w.u8(Number((value >> BigInt(8 * i)) & 0xffn));
  }
}
