import { IpAddress, MacAddress } from '../../net/index.ts';
import { WireEncodeError, WireError } from './errors.ts';

// Internal helpers shared by the codecs; not part of the public API.

/** A DataView over exactly `bytes`, which may be a window into a larger receive buffer. */
export function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A fresh copy of `bytes[start, end)`: decoded structures must not alias the caller's buffer, which an
 * adapter typically reuses for the next frame.
 */
export function copy(bytes: Uint8Array, start: number, end: number = bytes.length): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  out.set(bytes.subarray(start, end));
  return out;
}

/** Throws `truncated` unless `bytes` holds at least `end` bytes; `what` names the field that is cut. */
export function need(bytes: Uint8Array, end: number, what: string, offset: number): void {
  if (bytes.length < end) {
    throw new WireError('truncated', `${what} needs ${end} bytes, only ${bytes.length} present`, { offset });
  }
}

export function macAt(bytes: Uint8Array, offset: number): MacAddress {
  return MacAddress.fromBytes(bytes.subarray(offset, offset + 6));
}

export function ipAt(bytes: Uint8Array, offset: number, family: 4 | 6): IpAddress {
  return IpAddress.fromBytes(bytes.subarray(offset, offset + (family === 4 ? 4 : 16)));
}

/** Encoder guard: an integer field within [min, max]. */
export function checkInt(value: number, min: number, max: number, field: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new WireEncodeError(
      'invalid-field',
      `${field} must be an integer in [${min}, ${max}], got ${value}`,
    );
  }
}

/** Encoder guard: an address of the expected family. */
export function checkFamily(address: IpAddress, family: 4 | 6, field: string): void {
  if (address.family !== family) {
    throw new WireEncodeError('invalid-field', `${field} must be an IPv${family} address, got ${address}`);
  }
}

/** Concatenates byte arrays. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
