import { IpAddress } from '../../net/index.ts';
import { UpdateErrorSubcode } from '../wire-error.ts';
import { attributeError, lengthError, type RawAttribute } from './attribute.ts';

// RFC 4271 §4.3 / §5.1.3 NEXT_HOP, type 3, well-known mandatory (for NLRI in the UPDATE's own NLRI field):
// one IPv4 address.

export const ATTR_NEXT_HOP = 3;

/** Not a host address: 0.0.0.0, and 224.0.0.0/3 (multicast, reserved, limited broadcast). */
function isHostAddress(a: IpAddress): boolean {
  return a.value !== 0n && a.value < 0xe0000000n;
}

export function decodeNextHop(a: RawAttribute): IpAddress {
  // RFC 7606 §7.3: a length other than 4 → treat-as-withdraw.
  if (a.value.length !== 4) throw lengthError(a, 'treat-as-withdraw', '4');
  const address = IpAddress.fromBytes(a.value.slice());
  // RFC 4271 §6.3: a NEXT_HOP that is not a valid IP host address → Invalid NEXT_HOP Attribute, Data =
  // the attribute; RFC 7606 §7.3 handles it as treat-as-withdraw.
  if (!isHostAddress(address)) {
    throw attributeError(
      a,
      UpdateErrorSubcode.invalidNextHopAttribute,
      'treat-as-withdraw',
      `${address.toString()} is not a host address`,
    );
  }
  return address;
}

export function encodeNextHop(address: IpAddress): Uint8Array {
  if (address.family !== 4) throw new Error(`NEXT_HOP ${address.toString()} is not IPv4 (use MP_REACH_NLRI)`);
  return address.toBytes();
}
