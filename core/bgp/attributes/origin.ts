import { UpdateErrorSubcode } from '../wire-error.ts';
import { attributeError, lengthError, type RawAttribute } from './attribute.ts';

// RFC 4271 §4.3 / §5.1.1 ORIGIN, type 1, well-known mandatory, one octet: 0 IGP, 1 EGP, 2 INCOMPLETE.

export const ATTR_ORIGIN = 1;

export type Origin = 'igp' | 'egp' | 'incomplete';

const ORIGINS: readonly Origin[] = ['igp', 'egp', 'incomplete'];

export function decodeOrigin(a: RawAttribute): Origin {
  // RFC 7606 §7.1: a length other than 1, or an undefined value, is malformed → treat-as-withdraw.
  if (a.value.length !== 1) throw lengthError(a, 'treat-as-withdraw', '1');
  const origin = ORIGINS[a.value[0]!];
  if (origin === undefined) {
    // RFC 4271 §6.3: an undefined ORIGIN value → Invalid ORIGIN Attribute, Data = the attribute.
    throw attributeError(
      a,
      UpdateErrorSubcode.invalidOriginAttribute,
      'treat-as-withdraw',
      `undefined ORIGIN ${a.value[0]}`,
    );
  }
  return origin;
}

export function encodeOrigin(o: Origin): Uint8Array {
  const v = ORIGINS.indexOf(o);
  if (v < 0) throw new Error(`ORIGIN ${String(o)} is not igp, egp or incomplete`);
  return Uint8Array.of(v);
}
