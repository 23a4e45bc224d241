import { AddressParseError, Prefix, netmask } from '../../core/net/index.ts';
import type { Addr, AddressBook, IpKey } from './addresses.ts';
import { SimConfigError } from './errors.ts';

/** One static route: a prefix and its on-link gateways, sorted by address. */
export interface StaticRoute {
  readonly prefix: Prefix;
  readonly nexthops: readonly Addr[];
  /** IPv4 only: network and mask as signed integers, like IPv4 keys, for a lookup without bigints. */
  readonly net4: number;
  readonly mask4: number;
}

/**
 * A host's static routes (`ip route replace PREFIX nexthop via A nexthop via B`), longest prefix first.
 * Connected subnets and the default gateway are the host's; it compares their lengths with `lookup`'s.
 */
export class RouteTable {
  private readonly byText = new Map<string, StaticRoute>();
  /**
   * Per family, longest prefix first: the first that contains an address is its longest match. Sorted
   * again at the first lookup after a change, not at each change: a router installing thousands of
   * routes in one go would otherwise sort the whole table once per route.
   */
  private ordered: StaticRoute[] | undefined = [];

  constructor(
    private readonly book: AddressBook,
    private readonly where: string,
  ) {}

  get size(): number {
    return this.byText.size;
  }

  /** Installs or replaces the route for `prefix`; no next hops removes it. */
  set(prefix: string, nexthops: readonly string[]): void {
    const p = this.parsePrefix(prefix);
    if (nexthops.length === 0) return void this.remove(prefix);
    const hops = new Map<IpKey, Addr>();
    for (const text of nexthops) {
      let a: Addr;
      try {
        a = this.book.parse(text);
      } catch (e) {
        if (e instanceof AddressParseError)
          throw this.bad(`next hop ${JSON.stringify(text)} is not an address`);
        throw e;
      }
      if (a.family !== p.family) throw this.bad(`next hop ${text} is not IPv${p.family} like ${prefix}`);
      hops.set(a.key, a);
    }
    // Sorted so the order callers give does not change which flow takes which next hop (zebra also
    // hands the kernel its nexthop groups sorted).
    const sorted = [...hops.values()].sort((a, b) =>
      a.ip.value < b.ip.value ? -1 : a.ip.value > b.ip.value ? 1 : 0,
    );
    const v4 = p.family === 4;
    this.byText.set(p.toString(), {
      prefix: p,
      nexthops: sorted,
      net4: v4 ? Number(p.network.value) | 0 : 0,
      mask4: v4 ? Number(netmask(32, p.length)) | 0 : 0,
    });
    this.ordered = undefined;
  }

  remove(prefix: string): boolean {
    const removed = this.byText.delete(this.parsePrefix(prefix).toString());
    if (removed) this.ordered = undefined;
    return removed;
  }

  /** Every route, IPv4 first, by network then length. */
  list(): { prefix: string; nexthops: string[] }[] {
    return [...this.byText.values()]
      .sort(
        (a, b) =>
          a.prefix.family - b.prefix.family ||
          (a.prefix.network.value < b.prefix.network.value
            ? -1
            : a.prefix.network.value > b.prefix.network.value
              ? 1
              : 0) ||
          a.prefix.length - b.prefix.length,
      )
      .map((r) => ({ prefix: r.prefix.toString(), nexthops: r.nexthops.map((h) => h.text) }));
  }

  /** The longest static route containing `dst`, or undefined. */
  lookup(dst: Addr): StaticRoute | undefined {
    this.ordered ??= [...this.byText.values()].sort((a, b) => b.prefix.length - a.prefix.length);
    if (dst.family === 4) {
      const v = dst.key as number;
      for (const r of this.ordered) if (r.prefix.family === 4 && (v & r.mask4) === r.net4) return r;
      return undefined;
    }
    for (const r of this.ordered) if (r.prefix.family === 6 && r.prefix.contains(dst.ip)) return r;
    return undefined;
  }

  private parsePrefix(text: string): Prefix {
    try {
      return Prefix.parse(text);
    } catch (e) {
      if (e instanceof AddressParseError) throw this.bad(`route ${JSON.stringify(text)}: ${e.message}`);
      throw e;
    }
  }

  private bad(why: string): SimConfigError {
    return new SimConfigError(`${this.where}: ${why}`);
  }
}

/**
 * Which of `n` next hops a flow takes, as Linux does with fib_multipath_hash_policy=0: a hash of the
 * source and destination addresses only (so one client→VIP flow keeps its next hop while the set is
 * unchanged), mapped by hash-threshold (fib_select_multipath: next hop i owns the i-th equal slice of
 * the 31-bit hash space), so removing one next hop can move flows that did not use it. Linux mixes a
 * random per-boot key into the hash; here it is `seed`. For IPv6, Linux's policy 0 also hashes the flow
 * label and the next header; the emulator sends flow label 0 and leaves the protocol out, so both
 * families hash the same fields.
 */
export function multipathIndex(seed: number, src: IpKey | undefined, dst: IpKey, n: number): number {
  const hash31 = flowHash(seed, src ?? 0, dst, 0) >>> 1;
  return Math.min(n - 1, Math.floor((hash31 * n) / 0x8000_0000));
}

/** A keyed 32-bit hash of two addresses and a number (MurmurHash3's rounds and finaliser), unsigned. */
export function flowHash(seed: number, a: IpKey, b: IpKey, extra: number): number {
  let h = mix(mixKey(mixKey(seed | 0, a), b), extra);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function mixKey(h: number, key: IpKey): number {
  if (typeof key === 'number') return mix(h, key);
  for (let i = 0; i < key.length; i += 2) h = mix(h, (key.charCodeAt(i) << 16) | key.charCodeAt(i + 1));
  return h;
}

/** One round of MurmurHash3's 32-bit body. */
function mix(h: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}
