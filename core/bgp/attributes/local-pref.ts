import { lengthError, type RawAttribute, u32At, u32Bytes } from './attribute.ts';

// RFC 4271 §4.3 / §5.1.5 LOCAL_PREF, type 5, well-known, a 4-octet unsigned integer, for internal peers.
// RFC 4271 §5.1.5 and RFC 7606 §7.5: one received from an external peer is ignored (attribute discard);
// the codec does not know the peer's kind, so the session drops it.

export const ATTR_LOCAL_PREF = 5;

export function decodeLocalPref(a: RawAttribute): number {
  // RFC 7606 §7.5: a length other than 4 → treat-as-withdraw.
  if (a.value.length !== 4) throw lengthError(a, 'treat-as-withdraw', '4');
  return u32At(a.value, 0);
}

export function encodeLocalPref(pref: number): Uint8Array {
  return u32Bytes(pref, 'LOCAL_PREF');
}
