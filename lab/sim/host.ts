import {
  ETHERTYPE_IPV4,
  ETHERTYPE_IPV6,
  type Ipv6Packet,
  NEXT_HEADER_ICMPV6,
  WireError,
  decodeIpv6,
  encodeIpv6,
  isIpv6Multicast,
} from '../../core/l2/wire/index.ts';
import type { IpFamily } from '../../core/net/index.ts';
import type { DatagramAddress, DatagramPort, FramePort } from '../../core/runtime/ports.ts';
import type { ProbeSummary } from '../probes/outage.ts';
import { AddressSet } from './address-set.ts';
import { type Addr, type IpKey, ipKeyAt } from './addresses.ts';
import type { SimContext } from './context.ts';
import {
  SimAddressNotLocalError,
  SimConfigError,
  SimDuplicateError,
  SimUnknownInterfaceError,
} from './errors.ts';
import { type Gate, HOST_GATE } from './gate.ts';
import { type AttachOptions, NetInterface } from './interface.ts';
import { PROTOCOL_UDP, encodeIpv4, parseIpv4 } from './ipv4.ts';
import { ndiscInput } from './ndisc.ts';
import type { NeighbourView } from './neighbour-state.ts';
import { EchoServer, type ProberOptions, runProber } from './probes.ts';
import { SimProcess } from './process.ts';
import { type FrameFilter, SimRawPort } from './raw-port.ts';
import type { Segment } from './segment.ts';
import { SimUdpPort, SocketTable, type UdpStack } from './sockets.ts';
import type { PacketDropReason } from './trace.ts';
import { encodeUdp, udpChecksumValid } from './udp.ts';

/** Linux's default hop limit for unicast (net.ipv6.conf.*.hop_limit). */
const HOP_LIMIT = 64;
/** Offsets in an untagged frame: IPv4 source/destination, IPv6 source/destination. */
const V4_SRC = 26;
const V4_DST = 30;
const V6_SRC = 22;
const V6_DST = 38;

/**
 * An emulated Linux host (a network namespace): interfaces on segments, addresses, a small but honest
 * IPv4/IPv6 stack on real Ethernet frames (ARP and NDP with Linux's neighbour cache, UDP with real
 * headers and checksums), local addresses on lo, UDP and packet sockets, and processes.
 *
 * Routing is connected subnets only, plus an optional default gateway per family; a packet for any local
 * address (weak host model, lo included) is delivered locally; nothing is forwarded. Not modelled: IP
 * fragmentation (frames carry whole datagrams), ICMP errors, link-local addresses, DAD, broadcast and
 * multicast UDP, TCP.
 */
export class Host implements UdpStack {
  private readonly ifaces = new Map<string, NetInterface>();
  private readonly onInterface = new Map<IpKey, NetInterface>();
  private readonly loopback = new AddressSet();
  private readonly sharedLoopback: AddressSet[] = [];
  private readonly sockets: SocketTable;
  private readonly procs = new Map<string, SimProcess>();
  private readonly gateways = new Map<IpFamily, Addr>();
  private ident = 0;

  constructor(
    readonly name: string,
    private readonly ctx: SimContext,
  ) {
    this.sockets = new SocketTable(name);
  }

  /** Adds interface `ifname` on `segment` (by name or object), with its link to the segment's switch. */
  attach(ifname: string, segment: Segment | string, o: AttachOptions = {}): NetInterface {
    if (this.ifaces.has(ifname))
      throw new SimDuplicateError(`host ${this.name} already has an interface ${ifname}`);
    const seg = typeof segment === 'string' ? this.ctx.segment(segment) : segment;
    const iface = new NetInterface(this, ifname, seg, o, this.ctx);
    for (const a of [iface.ipv4, iface.ipv6]) {
      if (a !== undefined && this.isLocalKey(a.addr.key))
        throw new SimDuplicateError(`host ${this.name} already has the address ${a.addr.text}`);
    }
    for (const a of [iface.ipv4, iface.ipv6]) if (a !== undefined) this.onInterface.set(a.addr.key, iface);
    this.ifaces.set(ifname, iface);
    seg.attach(iface.link);
    iface.attached();
    return iface;
  }

  interface(ifname: string): NetInterface {
    const iface = this.ifaces.get(ifname);
    if (iface === undefined) throw new SimUnknownInterfaceError(this.name, ifname);
    return iface;
  }

  interfaces(): NetInterface[] {
    return [...this.ifaces.values()];
  }

  /** An address on lo: delivered locally, never answered in ARP or NDP (how a node holds a service address). */
  addLoopbackAddress(ip: string): void {
    this.loopback.add(ip);
  }

  removeLoopbackAddress(ip: string): boolean {
    return this.loopback.delete(ip);
  }

  /** Every address of `set` on lo, shared with other hosts holding the same set. */
  addLoopbackSet(set: AddressSet): void {
    if (!this.sharedLoopback.includes(set)) this.sharedLoopback.push(set);
  }

  removeLoopbackSet(set: AddressSet): void {
    const i = this.sharedLoopback.indexOf(set);
    if (i >= 0) this.sharedLoopback.splice(i, 1);
  }

  /** Whether `ip` is on one of the interfaces or on lo. */
  isLocalAddress(ip: string): boolean {
    return this.isLocalKey(this.ctx.addresses.parse(ip).key);
  }

  /** Routes what no connected subnet covers via `ip`, which must be on a connected subnet when used. */
  setDefaultGateway(ip: string): void {
    const gw = this.ctx.addresses.parse(ip);
    this.gateways.set(gw.family, gw);
  }

  /**
   * A UDP socket of the host itself, bound to `address` (an interface or lo address, or "0.0.0.0" / "::"
   * for all of one family) and `port` (0: an ephemeral port). Sending resolves the next hop first.
   */
  udp(address: string, port: number): DatagramPort {
    return this.bindUdp(address, port, HOST_GATE);
  }

  /** A packet socket on `ifname`, as the speaker opens with AF_PACKET (see SimRawPort), optionally filtered. */
  rawPort(ifname: string, filter?: FrameFilter): FramePort {
    return this.openRawPort(ifname, HOST_GATE, filter);
  }

  /** The interface's ARP and NDP entries (`ip neigh show dev ifname`), IPv4 first, by address. */
  neighbours(ifname: string): NeighbourView[] {
    const iface = this.interface(ifname);
    return [...iface.arp.list(), ...iface.nd.list()];
  }

  /** One entry, or undefined when the table has none for `ip`. */
  neighbour(ifname: string, ip: string): NeighbourView | undefined {
    const iface = this.interface(ifname);
    const addr = this.ctx.addresses.parse(ip);
    const e = (addr.family === 4 ? iface.arp : iface.nd).get(addr.key);
    return e === undefined ? undefined : { ip: e.addr.text, mac: e.mac?.toString(), state: e.state };
  }

  /** Carrier off: frames are dropped both ways, the switch forgets the port and the neighbours are flushed. */
  linkDown(ifname: string): void {
    this.interface(ifname).link.down();
  }

  linkUp(ifname: string): void {
    this.interface(ifname).link.up();
  }

  /** The running process called `name`, or a new one (also when the previous one was killed: a restart). */
  process(name: string): SimProcess {
    const running = this.procs.get(name);
    if (running !== undefined && running.state !== 'killed') return running;
    const p = new SimProcess(this, name, this.ctx);
    this.procs.set(name, p);
    return p;
  }

  /** The lab's echo server on every local address of both families, outside any process. */
  echoServer(port: number, name: string): EchoServer {
    return new EchoServer([this.udp('0.0.0.0', port), this.udp('::', port)], name);
  }

  /**
   * Probes `target` from an ephemeral port. The promise settles only as virtual time passes: drive the
   * network, e.g. `await network.settle(host.prober({...}), limitMs)`.
   */
  prober(o: ProberOptions): Promise<ProbeSummary> {
    const family = this.ctx.addresses.parse(o.target).family;
    return runProber(this.ctx.clock, this.udp(family === 4 ? '0.0.0.0' : '::', 0), o);
  }

  /** @internal */
  bindUdp(address: string, port: number, gate: Gate): SimUdpPort {
    const addr = this.ctx.addresses.parse(address);
    const wildcard = addr.ip.value === 0n;
    if (!wildcard && !this.isLocalKey(addr.key))
      throw new SimAddressNotLocalError(`${this.name}: ${address} is not an address of this host`);
    if (!(Number.isInteger(port) && port >= 0 && port <= 0xffff))
      throw new SimConfigError(`${this.name}: UDP port ${port} is not within 0..65535`);
    const chosen = port === 0 ? this.sockets.ephemeral(addr.family) : port;
    const socket = new SimUdpPort(this, addr.family, wildcard ? undefined : addr, chosen, gate);
    this.sockets.add(socket);
    gate.adopt(socket);
    return socket;
  }

  /** @internal */
  openRawPort(ifname: string, gate: Gate, filter: FrameFilter | undefined): SimRawPort {
    return new SimRawPort(this.interface(ifname), gate, filter);
  }

  /** @internal */
  isLocalKey(key: IpKey): boolean {
    if (this.onInterface.has(key) || this.loopback.hasKey(key)) return true;
    for (const set of this.sharedLoopback) if (set.hasKey(key)) return true;
    return false;
  }

  /** @internal */
  unbind(socket: SimUdpPort): void {
    this.sockets.remove(socket);
  }

  /** @internal */
  sendUdp(socket: SimUdpPort, to: DatagramAddress, payload: Uint8Array): void {
    const book = this.ctx.addresses;
    let dst: Addr;
    try {
      dst = book.parse(to.address);
    } catch {
      return this.dropped(socket.local.address, to.address, 'bad-destination');
    }
    if (
      dst.family !== socket.family ||
      !unicast(dst) ||
      !(Number.isInteger(to.port) && to.port > 0 && to.port <= 0xffff)
    )
      return this.dropped(socket.local.address, to.address, 'bad-destination');
    const srcPort = socket.local.port;
    if (this.isLocalKey(dst.key)) {
      // A local destination goes through lo, never on a wire.
      const src = socket.bound ?? dst;
      const copy = payload.slice();
      this.ctx.clock.setTimer('sim:loopback', 0, () => this.deliverUdp(src, dst, srcPort, to.port, copy));
      return;
    }
    const route = this.route(dst);
    const src = socket.bound ?? (dst.family === 4 ? route?.iface.ipv4 : route?.iface.ipv6)?.addr;
    if (route === undefined || src === undefined)
      return this.dropped(socket.local.address, dst.text, 'no-route');
    const udp = encodeUdp(src, dst, srcPort, to.port, payload);
    if (dst.family === 4) {
      const packet = encodeIpv4(src.key as number, dst.key as number, PROTOCOL_UDP, this.ident++, udp);
      route.iface.arp.output(route.next, ETHERTYPE_IPV4, packet);
    } else {
      const packet = encodeIpv6({
        trafficClass: 0,
        flowLabel: 0,
        nextHeader: PROTOCOL_UDP,
        hopLimit: HOP_LIMIT,
        src: src.ip,
        dst: dst.ip,
        payload: udp,
      });
      route.iface.nd.output(route.next, ETHERTYPE_IPV6, packet);
    }
  }

  /** @internal */
  ipv4Input(_iface: NetInterface, frame: Uint8Array): void {
    const h = parseIpv4(frame, 14);
    // Not for a local address: dropped, as a host that does not forward does.
    if (h === undefined || !this.isLocalKey(h.dst) || h.protocol !== PROTOCOL_UDP) return;
    const book = this.ctx.addresses;
    this.udpInput(
      book.at(frame, V4_SRC, 4),
      book.at(frame, V4_DST, 4),
      frame.subarray(h.payloadStart, h.payloadEnd),
    );
  }

  /** @internal */
  ipv6Input(iface: NetInterface, frame: Uint8Array): void {
    let packet: Ipv6Packet;
    try {
      packet = decodeIpv6(frame.subarray(14));
    } catch (e) {
      if (e instanceof WireError) return;
      throw e;
    }
    const dst = ipKeyAt(frame, V6_DST, 6);
    if (isIpv6Multicast(packet.dst) ? !iface.joined(dst) : !this.isLocalKey(dst)) return;
    if (packet.nextHeader === NEXT_HEADER_ICMPV6) return ndiscInput(iface, packet);
    if (packet.nextHeader !== PROTOCOL_UDP) return;
    const book = this.ctx.addresses;
    this.udpInput(book.at(frame, V6_SRC, 6), book.at(frame, V6_DST, 6), packet.payload);
  }

  /** @internal A packet the neighbour layer could not send. */
  packetDropped(etherType: number, packet: Uint8Array, reason: PacketDropReason): void {
    if (!this.ctx.tracer.active) return;
    const book = this.ctx.addresses;
    const v4 = etherType === ETHERTYPE_IPV4;
    const src = book.at(packet, v4 ? 12 : 8, v4 ? 4 : 6).text;
    const dst = book.at(packet, v4 ? 16 : 24, v4 ? 4 : 6).text;
    this.dropped(src, dst, reason);
  }

  private udpInput(src: Addr, dst: Addr, udp: Uint8Array): void {
    if (udp.length < 8) return;
    const length = (udp[4]! << 8) | udp[5]!;
    if (length < 8 || length > udp.length) return;
    const datagram = udp.subarray(0, length);
    if (!udpChecksumValid(src, dst, datagram)) return this.dropped(src.text, dst.text, 'bad-checksum');
    const srcPort = (udp[0]! << 8) | udp[1]!;
    const dstPort = (udp[2]! << 8) | udp[3]!;
    this.deliverUdp(src, dst, srcPort, dstPort, datagram.slice(8));
  }

  private deliverUdp(src: Addr, dst: Addr, srcPort: number, dstPort: number, payload: Uint8Array): void {
    const socket = this.sockets.lookup(dst.family, dstPort, dst.key);
    // No socket: Linux answers with ICMP port unreachable, which is not modelled.
    if (socket === undefined) return this.dropped(src.text, `${dst.text} port ${dstPort}`, 'no-socket');
    socket.receive(payload, { address: src.text, port: srcPort });
  }

  /** Connected subnets first (in attach order), then the default gateway of the family. */
  private route(dst: Addr): { iface: NetInterface; next: Addr } | undefined {
    for (const iface of this.ifaces.values()) if (iface.contains(dst)) return { iface, next: dst };
    const gw = this.gateways.get(dst.family);
    if (gw === undefined) return undefined;
    for (const iface of this.ifaces.values()) if (iface.contains(gw)) return { iface, next: gw };
    return undefined;
  }

  private dropped(src: string, dst: string, reason: PacketDropReason): void {
    const { tracer, clock } = this.ctx;
    if (tracer.active)
      tracer.emit({
        kind: 'packet',
        action: 'dropped',
        atMs: clock.now(),
        host: this.name,
        src,
        dst,
        reason,
      });
  }
}

/** Unicast only: broadcast and multicast UDP are not modelled. */
function unicast(a: Addr): boolean {
  if (a.family === 6) return !isIpv6Multicast(a.ip) && a.ip.value !== 0n;
  const v = a.key as number;
  return v >>> 28 !== 0xe && v !== -1 && v !== 0;
}
