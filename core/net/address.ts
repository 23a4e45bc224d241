import { AddressParseError } from './errors.ts';

export type IpFamily = 4 | 6;

export const familyBits = (family: IpFamily): number => (family === 4 ? 32 : 128);

/**
 * Each address's text, written once: the announcer keys its tables by it, thousands of addresses on every
 * change, and formatting a bigint is microseconds. Kept beside the object, not in it, so equal addresses
 * stay equal field by field.
 */
const texts = new WeakMap<IpAddress, string>();

/** An IPv4 or IPv6 address held as a bigint, so arithmetic works the same for both families. */
export class IpAddress {
  private constructor(
    readonly family: IpFamily,
    readonly value: bigint,
  ) {}

  static of(family: IpFamily, value: bigint): IpAddress {
    if (value < 0n || value >= 1n << BigInt(familyBits(family))) {
      throw new RangeError(`value ${value} does not fit an IPv${family} address`);
    }
    return new IpAddress(family, value);
  }

  static parse(text: string): IpAddress {
    return text.includes(':') ? parseV6(text) : new IpAddress(4, parseV4(text, text));
  }

  get bits(): number {
    return familyBits(this.family);
  }

  /** The address `delta` further on; throws RangeError when that leaves the family's space. */
  add(delta: bigint): IpAddress {
    return IpAddress.of(this.family, this.value + delta);
  }

  compare(other: IpAddress): number {
    if (this.family !== other.family) return this.family - other.family;
    return this.value < other.value ? -1 : this.value > other.value ? 1 : 0;
  }

  equals(other: IpAddress): boolean {
    return this.family === other.family && this.value === other.value;
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(this.bits / 8);
    let v = this.value;
    for (let i = out.length - 1; i >= 0; i--) {
      out[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    return out;
  }

  static fromBytes(bytes: Uint8Array): IpAddress {
    if (bytes.length !== 4 && bytes.length !== 16)
      throw new RangeError(`an address has 4 or 16 bytes, not ${bytes.length}`);
    let v = 0n;
    for (const b of bytes) v = (v << 8n) | BigInt(b);
    return new IpAddress(bytes.length === 4 ? 4 : 6, v);
  }

  toString(): string {
    let text = texts.get(this);
    if (text === undefined) {
      text = this.family === 4 ? formatV4(this.value) : formatV6(this.value);
      texts.set(this, text);
    }
    return text;
  }
}

function parseV4(text: string, whole: string): bigint {
  const parts = text.split('.');
  if (parts.length !== 4)
    throw new AddressParseError(whole, `an IPv4 address has 4 dotted parts, found ${parts.length}`);
  let v = 0n;
  for (const [i, p] of parts.entries()) {
    if (!/^\d{1,3}$/.test(p))
      throw new AddressParseError(whole, `part ${i + 1} (${JSON.stringify(p)}) is not a number`);
    // Leading zeros are ambiguous (octal in some parsers), so they are refused as Go's net.ParseIP does.
    if (p.length > 1 && p.startsWith('0'))
      throw new AddressParseError(whole, `part ${i + 1} has a leading zero`);
    const n = Number(p);
    if (n > 255) throw new AddressParseError(whole, `part ${i + 1} (${n}) is above 255`);
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseV6(text: string): IpAddress {
  if (text.includes('%')) throw new AddressParseError(text, 'zone indexes are not allowed');
  const halves = text.split('::');
  if (halves.length > 2) throw new AddressParseError(text, '"::" may appear only once');
  const groups = (half: string): bigint[] => {
    if (half === '') return [];
    const out: bigint[] = [];
    const parts = half.split(':');
    for (const [i, p] of parts.entries()) {
      if (p.includes('.')) {
        if (i !== parts.length - 1 || half !== halves[halves.length - 1]) {
          throw new AddressParseError(text, 'an embedded IPv4 address must come last');
        }
        const v4 = parseV4(p, text);
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) {
        out.push(BigInt(`0x${p}`));
      } else {
        throw new AddressParseError(text, `group ${JSON.stringify(p)} is not 1 to 4 hex digits`);
      }
    }
    return out;
  };
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  const present = head.length + tail.length;
  if (halves.length === 1 && present !== 8)
    throw new AddressParseError(text, `an IPv6 address has 8 groups, found ${present}`);
  if (halves.length === 2 && present > 7)
    throw new AddressParseError(text, '"::" must stand for at least one group');
  const all = [...head, ...Array<bigint>(8 - present).fill(0n), ...tail];
  return IpAddress.of(
    6,
    all.reduce((acc, g) => (acc << 16n) | g, 0n),
  );
}

function formatV4(v: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
}

/** RFC 5952 §4: lower case, no leading zeros, the longest run (≥ 2) of zero groups shortened to "::". */
function formatV6(v: bigint): string {
  const g = Array.from({ length: 8 }, (_, i) => Number((v >> BigInt(112 - 16 * i)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(':');
  if (bestStart < 0) return hex(g);
  return `${hex(g.slice(0, bestStart))}::${hex(g.slice(bestStart + bestLen))}`;
}
