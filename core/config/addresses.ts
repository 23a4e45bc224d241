/**
 * One entry of an IPAddressPool's `spec.addresses`, read as MetalLB's ParseCIDR reads it: text with a
 * '-' is a range "first-last" (spaces around the ends allowed), anything else a CIDR "network/length".
 */
import { AddressParseError, AddressRange, IpAddress, Prefix } from '../net/index.ts';

export type PoolAddressParse =
  | {
      ok: true;
      range: AddressRange;
      /** Set when a CIDR had host bits, which Go masks off. */ masked?: Prefix;
    }
  | { ok: false; message: string };

export function parsePoolAddress(text: string): PoolAddressParse {
  return text.includes('-') ? parseRange(text) : parseCidr(text);
}

function parseRange(text: string): PoolAddressParse {
  const dash = text.indexOf('-');
  const fail = (reason: string): PoolAddressParse => ({
    ok: false,
    message: `range ${JSON.stringify(text)}: ${reason}`,
  });
  try {
    const first = IpAddress.parse(text.slice(0, dash).trim());
    const last = IpAddress.parse(text.slice(dash + 1).trim());
    if (first.family !== last.family) return fail(`start ${first} and end ${last} are of different families`);
    if (first.value > last.value) return fail(`start ${first} is after end ${last}`);
    return { ok: true, range: AddressRange.of(first, last) };
  } catch (err) {
    if (err instanceof AddressParseError) return fail(reasonOf(err, text));
    throw err;
  }
}

function parseCidr(text: string): PoolAddressParse {
  try {
    const prefix = Prefix.parse(text);
    const address = IpAddress.parse(text.slice(0, text.indexOf('/')));
    return prefix.network.equals(address)
      ? { ok: true, range: prefix.toRange() }
      : { ok: true, range: prefix.toRange(), masked: prefix };
  } catch (err) {
    if (err instanceof AddressParseError)
      return { ok: false, message: `CIDR ${JSON.stringify(text)}: ${reasonOf(err, text)}` };
    throw err;
  }
}

/** The parser's reason, naming the part it failed on when that is not the whole entry. */
function reasonOf(err: AddressParseError, text: string): string {
  return err.input === text ? err.reason : `${JSON.stringify(err.input)}: ${err.reason}`;
}

/** The prefixes MetalLB splits an entry into; a range covers several (3.3.3.2-3.3.3.254 has a /26 among 13). */
export function widestPrefixLength(range: AddressRange): number {
  return Math.min(...range.toPrefixes().map((p) => p.length));
}
