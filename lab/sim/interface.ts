import {
  ALL_NODES,
  ALL_NODES_MAC,
  ETHERTYPE_ARP,
  ETHERTYPE_IPV4,
  ETHERTYPE_IPV6,
  ETHERTYPE_VLAN,
  encodeEthernet,
  solicitedNodeMac,
  solicitedNodeMulticast,
} from '../../core/l2/wire/index.ts';
import { IpAddress, type IpFamily, MacAddress, Prefix, netmask } from '../../core/net/index.ts';
import { type Addr, type AddressBook, type IpKey, ipKeyOf, macEquals } from './addresses.ts';
import { arpInput, arpSolicit } from './arp.ts';
import { claimFrame } from './frame-buffer.ts';
import type { SimContext } from './context.ts';
import { SimConfigError } from './errors.ts';
import type { Host } from './host.ts';
import { type Impairment, impairment } from './impairment.ts';
import { Link, type LinkEndpoint } from './link.ts';
import { LINUX_NEIGHBOUR_DEFAULTS, type NeighbourParams } from './neighbour-params.ts';
import { NeighbourTable } from './neighbour-table.ts';
import { ndiscSolicit } from './ndisc.ts';
import type { SimRawPort } from './raw-port.ts';
import type { Segment } from './segment.ts';

export interface AttachOptions {
  /** Default: the next address from 02:00:00:00:00:01 on, network-wide. */
  mac?: string;
  /** The address with its connected subnet, e.g. "198.18.0.11/24". */
  ipv4?: string;
  ipv6?: string;
  /** This host's link into the segment, both directions (default: the network's link defaults). */
  impairment?: Partial<Impairment>;
  /** Neighbour-table parameters other than Linux's defaults, for both families. */
  neighbour?: Partial<NeighbourParams>;
}

export interface IfAddress {
  readonly addr: Addr;
  readonly prefix: Prefix;
}

const BROADCAST = new Uint8Array(6).fill(0xff);
const ALL_NODES_KEY = ipKeyOf(ALL_NODES);
const ICMPV6 = 58;
// Module-local copies: read once per frame on the hottest path.
const ARP = ETHERTYPE_ARP;
const IPV4 = ETHERTYPE_IPV4;
const IPV6 = ETHERTYPE_IPV6;
const VLAN = ETHERTYPE_VLAN;

/**
 * One network interface of a host: its MAC and addresses, the NIC's receive filter, the packet taps
 * (AF_PACKET sockets) and the ARP and NDP neighbour tables, plus the link to its switch port.
 */
export class NetInterface implements LinkEndpoint {
  readonly mac: MacAddress;
  readonly ipv4: IfAddress | undefined;
  readonly ipv6: IfAddress | undefined;
  readonly link: Link;
  /** @internal */
  readonly arp: NeighbourTable;
  /** @internal */
  readonly nd: NeighbourTable;
  private readonly taps = new Set<SimRawPort>();
  private readonly tapWatches = new Map<SimRawPort, () => void>();
  private readonly net4: number;
  private readonly mask4: number;
  private readonly solicitedKey: IpKey | undefined;
  private readonly solicitedMac: Uint8Array | undefined;

  constructor(
    readonly host: Host,
    readonly name: string,
    segment: Segment,
    o: AttachOptions,
    private readonly ctx: SimContext,
  ) {
    const where = `${host.name}:${name}`;
    this.mac = o.mac === undefined ? ctx.allocateMac() : MacAddress.parse(o.mac);
    this.ipv4 = o.ipv4 === undefined ? undefined : ifAddress(ctx.addresses, o.ipv4, 4, where);
    this.ipv6 = o.ipv6 === undefined ? undefined : ifAddress(ctx.addresses, o.ipv6, 6, where);
    // Signed, like IPv4 keys.
    this.net4 = this.ipv4 === undefined ? 0 : Number(this.ipv4.prefix.network.value) | 0;
    this.mask4 = this.ipv4 === undefined ? 0 : Number(netmask(32, this.ipv4.prefix.length)) | 0;
    // The IPv6 stack joins the solicited-node group of each of its addresses (RFC 4861 §7.2.1).
    const v6 = this.ipv6?.addr.ip;
    this.solicitedKey = v6 === undefined ? undefined : ipKeyOf(solicitedNodeMulticast(v6));
    this.solicitedMac = v6 === undefined ? undefined : solicitedNodeMac(v6).bytes;

    const params = { ...LINUX_NEIGHBOUR_DEFAULTS, ...o.neighbour };
    const dropped = host.packetDropped.bind(host);
    const transmit = this.transmitPacket.bind(this);
    // The switch learns which addresses this port cares about from the tables (see Interest).
    const index = {
      add: (key: IpKey) => segment.interest.add(key, this.link),
      remove: (key: IpKey) => segment.interest.remove(key, this.link),
    };
    this.arp = new NeighbourTable(ctx, host.name, name, params, ctx.fork(), index, {
      solicit: (target, unicast) => arpSolicit(this, target, unicast),
      transmit,
      dropped,
    });
    this.nd = new NeighbourTable(ctx, host.name, name, params, ctx.fork(), index, {
      solicit: (target, unicast) => ndiscSolicit(this, target, unicast),
      transmit,
      dropped,
    });
    const impaired =
      o.impairment === undefined ? ctx.linkDefaults : impairment(o.impairment, `link ${where}`);
    this.link = new Link(ctx, host.name, name, segment, this, ctx.fork(), impaired, segment.nextIndex);
  }

  /** @internal */
  get addresses(): AddressBook {
    return this.ctx.addresses;
  }

  /** @internal */
  now(): number {
    return this.ctx.clock.now();
  }

  /** @internal Whether `addr` is on this interface's connected subnet. */
  contains(addr: Addr): boolean {
    if (addr.family === 4)
      return this.ipv4 !== undefined && ((addr.key as number) & this.mask4) === this.net4;
    return this.ipv6 !== undefined && this.ipv6.prefix.contains(addr.ip);
  }

  /** @internal Whether the IPv6 stack listens to multicast group `key` here. */
  joined(key: IpKey): boolean {
    return key === ALL_NODES_KEY || key === this.solicitedKey;
  }

  /** Broadcast, all-nodes, or the solicited-node group of our IPv6 address. */
  private joinedMac(frame: Uint8Array): boolean {
    return (
      macEquals(frame, 0, BROADCAST, 0) ||
      macEquals(frame, 0, ALL_NODES_MAC.bytes, 0) ||
      (this.solicitedMac !== undefined && macEquals(frame, 0, this.solicitedMac, 0))
    );
  }

  /** @internal A frame from the link: the NIC filter, then the taps, then the protocols. */
  receive(frame: Uint8Array): void {
    if (!this.accepts(frame)) return;
    this.traceDelivered(frame);
    const type = (frame[12]! << 8) | frame[13]!;
    // Packet sockets see a frame before the protocols do (__netif_receive_skb_core runs ptype_all first).
    if (this.taps.size > 0 && tapped(frame, type)) for (const tap of this.taps) tap.deliver(frame);
    if (type === ARP) arpInput(this, frame);
    else if (type === IPV4) this.host.ipv4Input(this, frame);
    else if (type === IPV6) this.host.ipv6Input(this, frame);
  }

  /** @internal A frame this host has no use for (see Interest): it arrives, and nothing comes of it. */
  ignore(frame: Uint8Array): void {
    if (this.accepts(frame)) this.traceDelivered(frame);
  }

  /** The NIC's receive filter. */
  private accepts(frame: Uint8Array): boolean {
    if (frame.length < 14) return false;
    // Multicast passes for the groups the stack joined, or all of it once a packet socket asked for
    // all-multicast (the speaker's AF_PACKET port does, to hear NS for service addresses).
    if ((frame[0]! & 1) !== 0) return this.taps.size > 0 || this.joinedMac(frame);
    return macEquals(frame, 0, this.mac.bytes, 0);
  }

  private traceDelivered(frame: Uint8Array): void {
    const { tracer, clock } = this.ctx;
    if (tracer.active) {
      tracer.emit({
        kind: 'frame',
        action: 'delivered',
        atMs: clock.now(),
        host: this.host.name,
        ifname: this.name,
        bytes: frame,
      });
    }
  }

  /** @internal */
  carrierChanged(up: boolean): void {
    if (up) return;
    this.arp.flush('carrier down');
    this.nd.flush('carrier down');
  }

  /** @internal Puts a whole frame on the wire (what the stack and packet sockets both end in). */
  transmit(frame: Uint8Array): void {
    if (!this.link.isUp) return this.link.dropped(frame, 'link-down');
    const { tracer, clock } = this.ctx;
    if (tracer.active) {
      tracer.emit({
        kind: 'frame',
        action: 'sent',
        atMs: clock.now(),
        host: this.host.name,
        ifname: this.name,
        bytes: frame,
      });
    }
    this.link.toSwitch(frame);
  }

  /** @internal */
  transmitPacket(mac: MacAddress, etherType: number, packet: Uint8Array): void {
    const frame = claimFrame(packet);
    if (frame === undefined)
      return this.transmit(encodeEthernet({ dst: mac, src: this.mac, etherType, payload: packet }));
    // The same bytes encodeEthernet writes (no VLAN tag in the emulator), in the packet's own buffer.
    frame.set(mac.bytes, 0);
    frame.set(this.mac.bytes, 6);
    frame[12] = etherType >> 8;
    frame[13] = etherType & 0xff;
    this.transmit(frame);
  }

  /** @internal */
  addTap(tap: SimRawPort): void {
    this.taps.add(tap);
    const interest = this.link.segment.interest;
    const owned = tap.owned;
    if (owned === undefined) return interest.addEverything(this.link);
    // A socket filtered to what the speaker owns cares about exactly those addresses, as they change.
    for (const key of owned.keys()) interest.add(key, this.link);
    const stop = owned.watch((key, added) =>
      added ? interest.add(key, this.link) : interest.remove(key, this.link),
    );
    this.tapWatches.set(tap, stop);
  }

  /** @internal */
  removeTap(tap: SimRawPort): void {
    if (!this.taps.delete(tap)) return;
    const interest = this.link.segment.interest;
    const owned = tap.owned;
    if (owned === undefined) return interest.removeEverything(this.link);
    this.tapWatches.get(tap)?.();
    this.tapWatches.delete(tap);
    for (const key of owned.keys()) interest.remove(key, this.link);
  }

  /** @internal Called once the port is on its segment: the switch learns the addresses it answers for. */
  attached(): void {
    for (const a of [this.ipv4, this.ipv6])
      if (a !== undefined) this.link.segment.interest.add(a.addr.key, this.link);
  }
}

/**
 * What the speaker's AF_PACKET socket filter passes (core/runtime/native/af_packet.c): ARP, or IPv6 whose
 * next header is ICMPv6, with one 802.1Q tag looked through as the kernel does.
 */
function tapped(frame: Uint8Array, type: number): boolean {
  let at = 12;
  if (type === VLAN) {
    if (frame.length < 18) return false;
    at = 16;
    type = (frame[16]! << 8) | frame[17]!;
  }
  return type === ARP || (type === IPV6 && frame[at + 8] === ICMPV6);
}

function ifAddress(book: AddressBook, text: string, family: IpFamily, where: string): IfAddress {
  const slash = text.indexOf('/');
  const fail = (why: string) => new SimConfigError(`${where}: ${JSON.stringify(text)} ${why}`);
  if (slash < 0) throw fail('needs a prefix length, e.g. "198.18.0.11/24"');
  const ip = IpAddress.parse(text.slice(0, slash));
  if (ip.family !== family) throw fail(`is not an IPv${family} address`);
  return { addr: book.of(ip), prefix: Prefix.parse(text) };
}
