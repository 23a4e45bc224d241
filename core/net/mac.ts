import { AddressParseError } from './errors.ts';

/** A 48-bit Ethernet MAC address. */
export class MacAddress {
  private constructor(readonly bytes: Uint8Array) {}

  static readonly broadcast = new MacAddress(new Uint8Array(6).fill(0xff));
  static readonly zero = new MacAddress(new Uint8Array(6));

  /** Accepts "02:00:5e:10:00:01", "02-00-5e-10-00-01" or Cisco's "0200.5e10.0001". */
  static parse(text: string): MacAddress {
    const digits = /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){4}$/.test(text)
      ? text.replace(/[:-]/g, '')
      : /^[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}$/.test(text)
        ? text.replace(/\./g, '')
        : undefined;
    if (digits === undefined) {
      throw new AddressParseError(
        text,
        'a MAC address is 6 hex bytes separated by ":" or "-" (or "xxxx.xxxx.xxxx")',
      );
    }
    return new MacAddress(
      Uint8Array.from({ length: 6 }, (_, i) => parseInt(digits.slice(2 * i, 2 * i + 2), 16)),
    );
  }

  static fromBytes(bytes: Uint8Array): MacAddress {
    if (bytes.length !== 6) throw new RangeError(`a MAC address has 6 bytes, not ${bytes.length}`);
    return new MacAddress(bytes.slice());
  }

  get isMulticast(): boolean {
    return ((this.bytes[0] ?? 0) & 1) === 1;
  }

  equals(other: MacAddress): boolean {
    // A plain loop: the emulator compares addresses for every ARP and NDP message a host takes in.
    const a = this.bytes;
    const b = other.bytes;
    for (let i = 0; i < 6; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  toString(): string {
    return Array.from(this.bytes, (b) => b.toString(16).padStart(2, '0')).join(':');
  }
}
