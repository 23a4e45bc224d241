import { ETHERTYPE_ARP, ETHERTYPE_IPV6 } from '../../core/l2/wire/index.ts';
import { type IpKey, ipKeyAt } from './addresses.ts';
import type { Link } from './link.ts';

const ARP = ETHERTYPE_ARP;
const IPV6 = ETHERTYPE_IPV6;
const ICMPV6 = 58;
const NS = 135;
const NA = 136;

/**
 * The addresses a flooded ARP or NS/NA frame is about (ARP sender and target; NDP target and source), or
 * undefined for any other frame. Only untagged frames to a broadcast or multicast MAC are keyed.
 */
export function resolutionKeys(frame: Uint8Array): readonly [IpKey, IpKey] | undefined {
  if ((frame[0]! & 1) === 0) return undefined;
  const type = (frame[12]! << 8) | frame[13]!;
  if (type === ARP) return frame.length >= 42 ? [ipKeyAt(frame, 28, 4), ipKeyAt(frame, 38, 4)] : undefined;
  if (type !== IPV6 || frame.length < 78 || frame[20] !== ICMPV6) return undefined;
  const icmp = frame[54];
  return icmp === NS || icmp === NA ? [ipKeyAt(frame, 62, 6), ipKeyAt(frame, 22, 6)] : undefined;
}

/**
 * Which ports of a segment can do anything with a flooded ARP or NDP frame, by the addresses it names.
 * A host acts on one only if it names an address of the receiving interface (a request or solicitation
 * to answer), an address its neighbour table holds (an entry to update: arp_accept=0 and RFC 4861
 * §7.2.5 create nothing), or an address a filtered packet socket owns; or if it has a packet socket
 * that sees every frame. Every other host would drop the frame unseen, so the switch need not hand it
 * over: on a 2000-host segment an ARP broadcast then costs its few interested hosts, not 2000 lookups
 * in 2000 tables. The index over-approximates (a FAILED entry still counts); it must never miss.
 */
export class Interest {
  private readonly byAddress = new Map<IpKey, Map<Link, number>>();
  private readonly everything = new Map<Link, number>();

  add(key: IpKey, link: Link): void {
    let links = this.byAddress.get(key);
    if (links === undefined) this.byAddress.set(key, (links = new Map()));
    links.set(link, (links.get(link) ?? 0) + 1);
  }

  remove(key: IpKey, link: Link): void {
    const links = this.byAddress.get(key);
    const n = links?.get(link);
    if (links === undefined || n === undefined) return;
    if (n > 1) links.set(link, n - 1);
    else if (links.delete(link) && links.size === 0) this.byAddress.delete(key);
  }

  /** A packet socket without an address filter on `link`: it sees every ARP and ICMPv6 frame. */
  addEverything(link: Link): void {
    this.everything.set(link, (this.everything.get(link) ?? 0) + 1);
  }

  removeEverything(link: Link): void {
    const n = this.everything.get(link) ?? 0;
    if (n > 1) this.everything.set(link, n - 1);
    else this.everything.delete(link);
  }

  /**
   * Whether so many ports see everything that walking the group is cheaper than collecting and sorting
   * recipients (packet sockets without address filters on most hosts).
   */
  isBroad(groupSize: number): boolean {
    return this.everything.size * 4 > groupSize;
  }

  wants(link: Link, keys: readonly [IpKey, IpKey]): boolean {
    return (
      this.everything.has(link) ||
      this.byAddress.get(keys[0])?.has(link) === true ||
      this.byAddress.get(keys[1])?.has(link) === true
    );
  }

  /** Every port interested in `keys`, in attach order (so delivery order never depends on the index). */
  recipients(keys: readonly [IpKey, IpKey]): Link[] {
    const out = new Set<Link>(this.everything.keys());
    for (const key of keys) for (const link of this.byAddress.get(key)?.keys() ?? []) out.add(link);
    return [...out].sort((a, b) => a.index - b.index);
  }
}
