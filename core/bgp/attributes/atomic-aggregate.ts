import { lengthError, type RawAttribute } from './attribute.ts';

// RFC 4271 §4.3 / §5.1.6 ATOMIC_AGGREGATE, type 6, well-known discretionary, length 0.

export const ATTR_ATOMIC_AGGREGATE = 6;

export function decodeAtomicAggregate(a: RawAttribute): true {
  // RFC 7606 §7.6: a length other than 0 → attribute discard.
  if (a.value.length !== 0) throw lengthError(a, 'attribute-discard', '0');
  return true;
}

export function encodeAtomicAggregate(): Uint8Array {
  return new Uint8Array(0);
}
