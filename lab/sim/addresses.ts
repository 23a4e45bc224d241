import { IpAddress, type IpFamily } from '../../core/net/index.ts';

/**
 * A map key for an address, read straight from frame bytes without building an IpAddress (a bigint): the
 * IPv4 value as a signed 32-bit integer (a small integer to V8, so it neither allocates nor hashes as a
 * double), IPv6 as a string of eight 16-bit code units. The two never collide.
 */
export type IpKey = number | string;

export interface Addr {
  readonly text: string;
  readonly ip: IpAddress;
  readonly family: IpFamily;
  readonly key: IpKey;
}

export function ipKeyAt(bytes: Uint8Array, at: number, family: IpFamily): IpKey {
  if (family === 4) {
    return (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  }
  let key = '';
  for (let i = at; i < at + 16; i += 2) key += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
  return key;
}

export function ipKeyOf(ip: IpAddress): IpKey {
  return ipKeyAt(ip.toBytes(), 0, ip.family);
}

/** Whether the 6 bytes at `at` in `a` and at `bt` in `b` are the same MAC address. */
export function macEquals(a: Uint8Array, at: number, b: Uint8Array, bt: number): boolean {
  return (
    a[at] === b[bt] &&
    a[at + 1] === b[bt + 1] &&
    a[at + 2] === b[bt + 2] &&
    a[at + 3] === b[bt + 3] &&
    a[at + 4] === b[bt + 4] &&
    a[at + 5] === b[bt + 5]
  );
}

/** Every address the network has seen, by text and by key, so hot paths parse nothing twice. */
export class AddressBook {
  private readonly byText = new Map<string, Addr>();
  private readonly byKey = new Map<IpKey, Addr>();

  /** Throws AddressParseError for text that is not an address. */
  parse(text: string): Addr {
    const known = this.byText.get(text);
    if (known !== undefined) return known;
    const addr = this.of(IpAddress.parse(text));
    this.byText.set(text, addr);
    return addr;
  }

  at(bytes: Uint8Array, at: number, family: IpFamily): Addr {
    const key = ipKeyAt(bytes, at, family);
    return (
      this.byKey.get(key) ??
      this.remember(IpAddress.fromBytes(bytes.subarray(at, at + (family === 4 ? 4 : 16))), key)
    );
  }

  of(ip: IpAddress): Addr {
    const key = ipKeyOf(ip);
    return this.byKey.get(key) ?? this.remember(ip, key);
  }

  private remember(ip: IpAddress, key: IpKey): Addr {
    const addr: Addr = { text: ip.toString(), ip, family: ip.family, key };
    this.byKey.set(key, addr);
    this.byText.set(addr.text, addr);
    return addr;
  }
}
