import { WireError } from './errors.ts';

// Helpers for the tests in this directory; written without the codec so they can check it.

/** "ff ff 02 ..." → bytes; whitespace and "|" are only for the reader. */
export function hex(text: string): Uint8Array {
  const digits = text.replace(/[\s|]/g, '');
  if (!/^([0-9a-f]{2})*$/i.test(digits)) throw new Error(`bad hex vector: ${text}`);
  return Uint8Array.from({ length: digits.length / 2 }, (_, i) =>
    parseInt(digits.slice(2 * i, 2 * i + 2), 16),
  );
}

/** Runs `f` and returns the WireError it throws; fails the test on success or on any other exception. */
export function catchWireError(f: () => unknown): WireError {
  try {
    f();
  } catch (e) {
    if (e instanceof WireError) return e;
    throw e;
  }
  throw new Error('expected a WireError, but nothing was thrown');
}

/**
 * An Internet checksum written independently of checksum.ts: collect 16-bit words into a plain array,
 * add them with a bigint, fold with modulo arithmetic (x mod 0xffff is the one's complement sum, with 0xffff
 * standing for zero). Returns the value the checksum field must hold for `data` (field zeroed).
 */
export function referenceChecksum(data: Uint8Array): number {
  const words: number[] = [];
  for (let i = 0; i < data.length; i += 2) words.push((data[i] ?? 0) * 256 + (data[i + 1] ?? 0));
  const total = words.reduce((acc, w) => acc + BigInt(w), 0n);
  let folded = Number(total % 0xffffn);
  if (folded === 0 && total !== 0n) folded = 0xffff;
  return 0xffff - folded;
}

/**
 * Rewrites the ICMPv6 checksum of an IPv6 packet (fixed header only, as bytes) so that a test can break one
 * rule at a time without tripping the checksum check first. Uses referenceChecksum, not the codec.
 */
export function fixIcmpChecksum(packet: Uint8Array): Uint8Array {
  const out = Uint8Array.from(packet);
  const length = ((out[4] ?? 0) << 8) | (out[5] ?? 0);
  out[42] = 0;
  out[43] = 0;
  const pseudo = [...out.subarray(8, 40), 0, 0, length >> 8, length & 0xff, 0, 0, 0, 58];
  const sum = referenceChecksum(Uint8Array.from([...pseudo, ...out.subarray(40, 40 + length)]));
  out[42] = sum >> 8;
  out[43] = sum & 0xff;
  return out;
}
