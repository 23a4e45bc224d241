import { IpAddress, type IpFamily } from './address.ts';
import { AddressParseError } from './errors.ts';
import { AddressRange } from './range.ts';

/** A CIDR prefix: a network address and a prefix length. Host bits are always zero. */
export class Prefix {
  /** Computed once: `contains` runs for every node and service on every election. */
  private readonly mask: bigint;

  private constructor(
    readonly network: IpAddress,
    readonly length: number,
  ) {
    this.mask = netmask(network.bits, length);
  }

  static of(address: IpAddress, length: number): Prefix {
    if (!Number.isInteger(length) || length < 0 || length > address.bits) {
      throw new RangeError(`prefix length ${length} is outside 0..${address.bits}`);
    }
    return new Prefix(IpAddress.of(address.family, address.value & netmask(address.bits, length)), length);
  }

  /**
   * Parses "a.b.c.d/n" or "x::/n". Like Go's net.ParseCIDR (which MetalLB uses) host bits are masked
   * off; pass `strict` to refuse them instead.
   */
  static parse(text: string, options: { strict?: boolean } = {}): Prefix {
    const slash = text.indexOf('/');
    if (slash < 0) throw new AddressParseError(text, 'a prefix needs "/length"');
    const address = IpAddress.parse(text.slice(0, slash));
    const lenText = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(lenText))
      throw new AddressParseError(text, `prefix length ${JSON.stringify(lenText)} is not a number`);
    const length = Number(lenText);
    if (length > address.bits) {
      throw new AddressParseError(
        text,
        `prefix length ${length} is above ${address.bits} for IPv${address.family}`,
      );
    }
    const prefix = Prefix.of(address, length);
    if (options.strict && !prefix.network.equals(address)) {
      throw new AddressParseError(text, `host bits are set (the network is ${prefix})`);
    }
    return prefix;
  }

  get family(): IpFamily {
    return this.network.family;
  }

  get size(): bigint {
    return 1n << BigInt(this.network.bits - this.length);
  }

  get first(): IpAddress {
    return this.network;
  }

  get last(): IpAddress {
    return this.network.add(this.size - 1n);
  }

  toRange(): AddressRange {
    return AddressRange.of(this.first, this.last);
  }

  contains(address: IpAddress): boolean {
    return address.family === this.family && (address.value & this.mask) === this.network.value;
  }

  equals(other: Prefix): boolean {
    return this.length === other.length && this.network.equals(other.network);
  }

  toString(): string {
    return `${this.network}/${this.length}`;
  }
}

export function netmask(bits: number, length: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return all ^ ((1n << BigInt(bits - length)) - 1n);
}
