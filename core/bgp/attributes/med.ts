import { lengthError, type RawAttribute, u32At, u32Bytes } from './attribute.ts';

// RFC 4271 §4.3 / §5.1.4 MULTI_EXIT_DISC, type 4, optional non-transitive, a 4-octet unsigned integer.

export const ATTR_MED = 4;

export function decodeMed(a: RawAttribute): number {
  // RFC 7606 §7.4: a length other than 4 → treat-as-withdraw.
  if (a.value.length !== 4) throw lengthError(a, 'treat-as-withdraw', '4');
  return u32At(a.value, 0);
}

export function encodeMed(med: number): Uint8Array {
  return u32Bytes(med, 'MULTI_EXIT_DISC');
}
