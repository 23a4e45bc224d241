import { IpAddress, type IpFamily } from './address.ts';
import { AddressParseError } from './errors.ts';
import { Prefix } from './prefix.ts';

/** An inclusive range of addresses of one family, first ≤ last. */
export class AddressRange {
  private constructor(
    readonly first: IpAddress,
    readonly last: IpAddress,
  ) {}

  static of(first: IpAddress, last: IpAddress): AddressRange {
    if (first.family !== last.family)
      throw new RangeError(`range mixes IPv${first.family} and IPv${last.family}`);
    if (first.value > last.value) throw new RangeError(`range start ${first} is after its end ${last}`);
    return new AddressRange(first, last);
  }

  /**
   * Parses one entry of an IPAddressPool's `addresses`: a CIDR ("198.18.0.0/24") or a range
   * ("198.18.0.10-198.18.0.20", spaces around the dash allowed, as MetalLB accepts them).
   */
  static parse(text: string): AddressRange {
    if (text.includes('/')) return Prefix.parse(text.trim()).toRange();
    const parts = text.split('-');
    if (parts.length !== 2) {
      throw new AddressParseError(text, 'expected a CIDR ("a/n") or a range ("first-last")');
    }
    const first = IpAddress.parse((parts[0] ?? '').trim());
    const last = IpAddress.parse((parts[1] ?? '').trim());
    if (first.family !== last.family)
      throw new AddressParseError(text, 'the two ends are of different families');
    if (first.value > last.value) throw new AddressParseError(text, `start ${first} is after end ${last}`);
    return new AddressRange(first, last);
  }

  get family(): IpFamily {
    return this.first.family;
  }

  get size(): bigint {
    return this.last.value - this.first.value + 1n;
  }

  contains(address: IpAddress): boolean {
    return (
      address.family === this.family && address.value >= this.first.value && address.value <= this.last.value
    );
  }

  containsRange(other: AddressRange): boolean {
    return this.contains(other.first) && this.contains(other.last);
  }

  overlaps(other: AddressRange): boolean {
    return (
      other.family === this.family &&
      this.first.value <= other.last.value &&
      other.first.value <= this.last.value
    );
  }

  /** The fewest CIDR prefixes that cover exactly this range, in address order. */
  toPrefixes(): Prefix[] {
    const bits = this.first.bits;
    const out: Prefix[] = [];
    let start = this.first.value;
    const end = this.last.value;
    while (start <= end) {
      // The largest aligned block starting at `start` that does not run past `end`.
      let hostBits = start === 0n ? bits : trailingZeros(start);
      while (hostBits > 0 && start + (1n << BigInt(hostBits)) - 1n > end) hostBits--;
      out.push(Prefix.of(IpAddress.of(this.family, start), bits - hostBits));
      start += 1n << BigInt(hostBits);
    }
    return out;
  }

  equals(other: AddressRange): boolean {
    return this.first.equals(other.first) && this.last.equals(other.last);
  }

  toString(): string {
    return `${this.first}-${this.last}`;
  }
}

function trailingZeros(v: bigint): number {
  let n = 0;
  while ((v & 1n) === 0n) {
    v >>= 1n;
    n++;
  }
  return n;
}
