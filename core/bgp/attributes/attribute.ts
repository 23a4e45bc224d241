import { checkUint, UINT16_MAX, UINT8_MAX, type Writer } from '../messages/bytes.ts';
import { BgpWireError, ErrorCode, type ErrorHandling, UpdateErrorSubcode } from '../wire-error.ts';

// RFC 4271 §4.3 path attribute:
//   Attr. Flags (1) | Attr. Type Code (1) | Attr. Length (1, or 2 with Extended Length) | Attr. Value

/** RFC 4271 §4.3 attribute flag bits; the low four are unused (sent as zero, ignored on receipt). */
export const AttrFlag = {
  optional: 0x80,
  transitive: 0x40,
  partial: 0x20,
  extendedLength: 0x10,
} as const;

/** The flag bits that mean something once the attribute is parsed (the Extended Length bit is framing). */
export const MEANINGFUL_FLAGS = AttrFlag.optional | AttrFlag.transitive | AttrFlag.partial;

/** An attribute as found in the UPDATE, before its value is interpreted. */
export interface RawAttribute {
  flags: number;
  type: number;
  value: Uint8Array;
  /** The whole attribute (flags, type, length, value): RFC 4271 §6.3 puts it in most errors' Data. */
  raw: Uint8Array;
}

/** An UPDATE Message Error about one attribute; Data defaults to the attribute (RFC 4271 §6.3). */
export function attributeError(
  a: RawAttribute,
  subcode: number,
  handling: ErrorHandling,
  reason: string,
  data: Uint8Array = a.raw,
): BgpWireError {
  return new BgpWireError(
    `path attribute ${a.type}: ${reason}`,
    ErrorCode.updateMessage,
    subcode,
    data.slice(),
    handling,
  );
}

/** RFC 4271 §6.3: an attribute whose length conflicts with its type → Attribute Length Error. */
export function lengthError(a: RawAttribute, handling: ErrorHandling, expected: string): BgpWireError {
  return attributeError(
    a,
    UpdateErrorSubcode.attributeLengthError,
    handling,
    `length ${a.value.length}, expected ${expected}`,
  );
}

/** Writes one attribute, choosing the Extended Length form only when the value needs it. */
export function writeAttribute(w: Writer, flags: number, type: number, value: Uint8Array): void {
  checkUint(type, UINT8_MAX, 'attribute type');
  if (value.length > UINT16_MAX)
    throw new Error(`attribute ${type} value of ${value.length} octets is too long`);
  const extended = value.length > UINT8_MAX;
  const f = (flags & MEANINGFUL_FLAGS) | (extended ? AttrFlag.extendedLength : 0);
  w.u8(f).u8(type);
  if (extended) w.u16(value.length);
  else w.u8(value.length);
  w.bytes(value);
}

/** Octets `writeAttribute` uses for a value of `length` octets. */
export function attributeBytes(length: number): number {
  return (length > UINT8_MAX ? 4 : 3) + length;
}

export function u32At(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

export function u32Bytes(v: number, what: string): Uint8Array {
  checkUint(v, 0xffffffff, what);
  return Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}
