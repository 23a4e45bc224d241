import {
  ETHERTYPE_IPV4,
  ETHERTYPE_IPV6,
  IPV6_HEADER_LENGTH,
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
import {
  DEFAULT_TTL,
  IPV4_HEADER_LENGTH,
  PROTOCOL_TCP,
  PROTOCOL_UDP,
  encodeIpv4,
  forwardedIpv4,
  parseIpv4,
  writeIpv4Header,
} from './ipv4.ts';
import { builtByStack, packetWithHeadroom } from './frame-buffer.ts';
import { ndiscInput } from './ndisc.ts';
import { parseIpv6, writeIpv6Header } from './ipv6.ts';
import type { NeighbourView } from './neighbour-state.ts';
import { EchoServer, type ProberOptions, runProber } from './probes.ts';
import { SimProcess } from './process.ts';
import { type FrameFilter, SimRawPort } from './raw-port.ts';
import { RouteTable, multipathIndex } from './routes.ts';
import type { Segment } from './segment.ts';
import { SimUdpPort, SocketTable, type UdpStack } from './sockets.ts';
import { TcpStack } from './tcp-stack.ts';
import type { SimStream } from './tcp-stream.ts';
import type { PacketDropReason } from './trace.ts';
import { UDP_HEADER_LENGTH, udpChecksumValid, writeUdp } from './udp.ts';

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
 * Routing is longest-prefix match over the connected subnets, static routes (ECMP over on-link gateways)
 * and an optional default gateway per family; a packet for any local address (weak host model, lo
 * included) is delivered locally; others are forwarded once `enableForwarding` was called, else dropped.
 * TCP is a model of Linux's (see SimStream). Not modelled: IP fragmentation (frames carry whole
 * datagrams), ICMP errors, link-local addresses, DAD, broadcast and multicast UDP, reverse-path filtering.
 */
export class Host implements UdpStack {
  private readonly ifaces = new Map<string, NetInterface>();
  private readonly onInterface = new Map<IpKey, NetInterface>();
  private readonly loopback = new AddressSet();
  private readonly sharedLoopback: AddressSet[] = [];
  private readonly sockets: SocketTable;
  private readonly procs = new Map<string, SimProcess>();
  private readonly gateways = new Map<IpFamily, Addr>();
  private readonly routeTable: RouteTable;
  private readonly tcp: TcpStack;
  private forwarding = false;
  /** Linux keys its multipath hash with a random per-boot value; drawn from the network's seed at first use. */
  private multipathSeed: number | undefined;
  private ident = 0;

  constructor(
    readonly name: string,
    private readonly ctx: SimContext,
  ) {
    this.sockets = new SocketTable(name);
    this.routeTable = new RouteTable(ctx.addresses, `host ${name}`);
    this.tcp = new TcpStack(
      {
        name,
        sourceFor: (dst) => this.sourceFor(dst),
        sendTcp: (src, dst, segment, ttl) => this.sendTcp(src, dst, segment, ttl),
        badChecksum: (src, dst) => this.dropped(src.text, dst.text, 'bad-checksum'),
      },
      ctx.clock,
      hashText(name),
    );
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
   * net.ipv4.ip_forward=1 and net.ipv6.conf.all.forwarding=1: packets for addresses that are not the
   * host's are routed on, one TTL / hop limit less; one that would reach zero is dropped (traced
   * `ttl-exceeded`; the ICMP time-exceeded Linux sends is not modelled).
   */
  enableForwarding(): void {
    this.forwarding = true;
  }

  /**
   * `ip route replace PREFIX nexthop via A nexthop via B …`: installs or replaces the route for `prefix`
   * (IPv4 or IPv6) through on-link gateways; none removes it. With several, each flow (source and
   * destination address) takes one of them (see multipathIndex). A next hop is used whatever its
   * neighbour entry says (fib_multipath_use_neigh=0), a FAILED one included; a gateway no interface's
   * subnet holds makes the packets that hash to it dropped (`no-route`).
   */
  setRoute(prefix: string, nexthops: readonly string[]): void {
    this.multipathSeed ??= this.ctx.fork().nextUint32();
    this.routeTable.set(prefix, nexthops);
  }

  removeRoute(prefix: string): boolean {
    return this.routeTable.remove(prefix);
  }

  /** The static routes, IPv4 first, by prefix; next hops sorted by address. */
  routes(): { prefix: string; nexthops: string[] }[] {
    return this.routeTable.list();
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
  listenTcp(
    gate: Gate,
    port: number,
    onAccept: (conn: SimStream) => void,
    address: string | undefined,
  ): { close(): void } {
    let bound: Addr | undefined;
    if (address !== undefined) {
      bound = this.ctx.addresses.parse(address);
      if (bound.ip.value === 0n) bound = undefined;
      else if (!this.isLocalKey(bound.key))
        throw new SimAddressNotLocalError(`${this.name}: ${address} is not an address of this host`);
    }
    return this.tcp.listen(gate, port, bound, onAccept);
  }

  /** @internal */
  connectTcp(
    gate: Gate,
    o: { remote: string; port: number; local?: string; timeoutMs: number; ttl?: number },
  ): Promise<SimStream> {
    const book = this.ctx.addresses;
    const remote = book.parse(o.remote);
    if (!unicast(remote)) throw new SimConfigError(`${this.name}: cannot connect to ${o.remote}`);
    let local: Addr | undefined;
    if (o.local !== undefined) {
      local = book.parse(o.local);
      if (local.family !== remote.family)
        throw new SimConfigError(`${this.name}: ${o.local} and ${o.remote} are not of one family`);
      if (!this.isLocalKey(local.key))
        throw new SimAddressNotLocalError(`${this.name}: ${o.local} is not an address of this host`);
    }
    return this.tcp.connect(gate, {
      remote,
      port: o.port,
      local,
      timeoutMs: o.timeoutMs,
      ttl: o.ttl ?? DEFAULT_TTL,
    });
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
    const route = this.route(dst, socket.bound?.key);
    const src = socket.bound ?? (route === undefined ? undefined : ifAddress(route.iface, dst.family));
    if (route === undefined || src === undefined)
      return this.dropped(socket.local.address, dst.text, 'no-route');
    // The datagram is written once, straight into its frame (membership, BFD, the probes).
    const v4 = dst.family === 4;
    const header = v4 ? IPV4_HEADER_LENGTH : IPV6_HEADER_LENGTH;
    const packet = packetWithHeadroom(header + UDP_HEADER_LENGTH + payload.length);
    writeUdp(packet.subarray(header), src, dst, srcPort, to.port, payload);
    if (v4) {
      writeIpv4Header(packet, src.key as number, dst.key as number, PROTOCOL_UDP, this.ident++, DEFAULT_TTL);
      route.iface.arp.output(route.next, ETHERTYPE_IPV4, packet);
    } else {
      writeIpv6Header(packet, src.key as string, dst.key as string, PROTOCOL_UDP, DEFAULT_TTL);
      route.iface.nd.output(route.next, ETHERTYPE_IPV6, packet);
    }
  }

  /** @internal */
  ipv4Input(_iface: NetInterface, frame: Uint8Array): void {
    const h = parseIpv4(frame, 14);
    if (h === undefined) return;
    // Not for a local address: forwarded by a router, dropped by a host.
    if (!this.isLocalKey(h.dst)) {
      if (this.forwarding) this.forward4(frame, h.payloadStart - 14, h.payloadEnd);
      return;
    }
    const payload = frame.subarray(h.payloadStart, h.payloadEnd);
    this.transportInput(frame, 4, h.protocol, payload, builtByStack(frame));
  }

  /** @internal */
  ipv6Input(iface: NetInterface, frame: Uint8Array): void {
    const dst = ipKeyAt(frame, V6_DST, 6);
    // UDP and TCP to a local unicast address are read in place, as ipv4Input does.
    const h = frame[V6_DST] === 0xff ? undefined : parseIpv6(frame, 14);
    if (
      h !== undefined &&
      (h.nextHeader === PROTOCOL_UDP || h.nextHeader === PROTOCOL_TCP) &&
      this.isLocalKey(dst)
    ) {
      const payload = frame.subarray(h.payloadStart, h.payloadEnd);
      return this.transportInput(frame, 6, h.nextHeader, payload, builtByStack(frame));
    }
    let packet: Ipv6Packet;
    try {
      packet = decodeIpv6(frame.subarray(14));
    } catch (e) {
      if (e instanceof WireError) return;
      throw e;
    }
    if (isIpv6Multicast(packet.dst)) {
      if (!iface.joined(dst)) return;
    } else if (!this.isLocalKey(dst)) {
      if (this.forwarding) this.forward6(frame, packet);
      return;
    }
    if (packet.nextHeader === NEXT_HEADER_ICMPV6) return ndiscInput(iface, packet);
    this.transportInput(frame, 6, packet.nextHeader, packet.payload, false);
  }

  /** A local packet's UDP or TCP payload to its socket (anything else is dropped); see udpInput for `checked`. */
  private transportInput(
    frame: Uint8Array,
    family: IpFamily,
    protocol: number,
    payload: Uint8Array,
    checked: boolean,
  ): void {
    if (protocol !== PROTOCOL_UDP && protocol !== PROTOCOL_TCP) return;
    const book = this.ctx.addresses;
    const src = book.at(frame, family === 4 ? V4_SRC : V6_SRC, family);
    const dst = book.at(frame, family === 4 ? V4_DST : V6_DST, family);
    if (protocol === PROTOCOL_UDP) this.udpInput(src, dst, payload, checked);
    else this.tcp.input(src, dst, payload);
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

  /** `checked`: the checksum is known good (see builtByStack), so it is not summed again. */
  private udpInput(src: Addr, dst: Addr, udp: Uint8Array, checked: boolean): void {
    if (udp.length < 8) return;
    const length = (udp[4]! << 8) | udp[5]!;
    if (length < 8 || length > udp.length) return;
    const datagram = udp.subarray(0, length);
    if (!checked && !udpChecksumValid(src, dst, datagram))
      return this.dropped(src.text, dst.text, 'bad-checksum');
    const srcPort = (udp[0]! << 8) | udp[1]!;
    const dstPort = (udp[2]! << 8) | udp[3]!;
    // A view, not a copy: frames are not written once sent.
    this.deliverUdp(src, dst, srcPort, dstPort, datagram.subarray(UDP_HEADER_LENGTH));
  }

  private deliverUdp(src: Addr, dst: Addr, srcPort: number, dstPort: number, payload: Uint8Array): void {
    const socket = this.sockets.lookup(dst.family, dstPort, dst.key);
    // No socket: Linux answers with ICMP port unreachable, which is not modelled.
    if (socket === undefined) return this.dropped(src.text, `${dst.text} port ${dstPort}`, 'no-socket');
    socket.receive(payload, { address: src.text, port: srcPort });
  }

  /**
   * fib_lookup: the longest of the connected subnets (the first attached on a tie), the static routes
   * (a connected subnet wins a tie) and the default gateway (/0). `src` feeds the multipath hash; a
   * locally originated packet not yet bound to an address hashes with 0, as Linux's first lookup does.
   */
  private route(dst: Addr, src: IpKey | undefined): Route | undefined {
    let connected: NetInterface | undefined;
    let length = -1;
    for (const iface of this.ifaces.values()) {
      if (!iface.contains(dst)) continue;
      const l = (dst.family === 4 ? iface.ipv4 : iface.ipv6)!.prefix.length;
      if (l > length) {
        connected = iface;
        length = l;
      }
    }
    const r = this.routeTable.size === 0 ? undefined : this.routeTable.lookup(dst);
    if (r !== undefined && r.prefix.length > length) {
      const hops = r.nexthops;
      const gw =
        hops.length === 1 ? hops[0]! : hops[multipathIndex(this.multipathSeed!, src, dst.key, hops.length)]!;
      return this.onLink(gw);
    }
    if (connected !== undefined) return { iface: connected, next: dst };
    const gw = this.gateways.get(dst.family);
    return gw === undefined ? undefined : this.onLink(gw);
  }

  /** The interface whose subnet holds gateway `gw`. */
  private onLink(gw: Addr): Route | undefined {
    for (const iface of this.ifaces.values()) if (iface.contains(gw)) return { iface, next: gw };
    return undefined;
  }

  /** The source address a connection to `dst` gets: the outgoing interface's (or `dst` itself if local). */
  private sourceFor(dst: Addr): Addr | undefined {
    if (this.isLocalKey(dst.key)) return dst;
    const route = this.route(dst, undefined);
    return route === undefined ? undefined : ifAddress(route.iface, dst.family);
  }

  private sendTcp(src: Addr, dst: Addr, segment: Uint8Array, ttl: number): void {
    if (this.isLocalKey(dst.key)) {
      // A local destination goes through lo, never on a wire.
      this.ctx.clock.setTimer('sim:loopback', 0, () => this.tcp.input(src, dst, segment));
      return;
    }
    const route = this.route(dst, src.key);
    if (route === undefined) return this.dropped(src.text, dst.text, 'no-route');
    this.output(route, src, dst, PROTOCOL_TCP, segment, ttl);
  }

  /** ip_output / ip6_output: the IP header, then the neighbour layer of the route's interface. */
  private output(
    route: Route,
    src: Addr,
    dst: Addr,
    protocol: number,
    payload: Uint8Array,
    ttl: number,
  ): void {
    if (dst.family === 4) {
      const packet = encodeIpv4(src.key as number, dst.key as number, protocol, this.ident++, payload, ttl);
      route.iface.arp.output(route.next, ETHERTYPE_IPV4, packet);
    } else {
      const packet = encodeIpv6({
        trafficClass: 0,
        flowLabel: 0,
        nextHeader: protocol,
        hopLimit: ttl,
        src: src.ip,
        dst: dst.ip,
        payload,
      });
      route.iface.nd.output(route.next, ETHERTYPE_IPV6, packet);
    }
  }

  /** ip_forward: one hop less, then the route (the multipath hash sees the packet's own source). */
  private forward4(frame: Uint8Array, headerLength: number, end: number): void {
    const book = this.ctx.addresses;
    const src = book.at(frame, V4_SRC, 4);
    const dst = book.at(frame, V4_DST, 4);
    if (!unicast(dst)) return;
    const packet = forwardedIpv4(frame.subarray(14, end), headerLength);
    if (packet === undefined) return this.dropped(src.text, dst.text, 'ttl-exceeded');
    const route = this.route(dst, src.key);
    if (route === undefined) return this.dropped(src.text, dst.text, 'no-route');
    route.iface.arp.output(route.next, ETHERTYPE_IPV4, packet);
  }

  /** ip6_forward: RFC 8200 §3, the hop limit is decremented by one by each node that forwards the packet. */
  private forward6(frame: Uint8Array, packet: Ipv6Packet): void {
    const book = this.ctx.addresses;
    const src = book.at(frame, V6_SRC, 6);
    const dst = book.at(frame, V6_DST, 6);
    if (packet.hopLimit <= 1) return this.dropped(src.text, dst.text, 'ttl-exceeded');
    const route = this.route(dst, src.key);
    if (route === undefined) return this.dropped(src.text, dst.text, 'no-route');
    route.iface.nd.output(
      route.next,
      ETHERTYPE_IPV6,
      encodeIpv6({ ...packet, hopLimit: packet.hopLimit - 1 }),
    );
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

interface Route {
  readonly iface: NetInterface;
  /** The neighbour the packet goes to: the destination itself on a connected subnet, else a gateway. */
  readonly next: Addr;
}

function ifAddress(iface: NetInterface, family: IpFamily): Addr | undefined {
  return (family === 4 ? iface.ipv4 : iface.ipv6)?.addr;
}

/** A number from the host's name (the TCP initial sequence number key). */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** Unicast only: broadcast and multicast UDP are not modelled. */
function unicast(a: Addr): boolean {
  if (a.family === 6) return !isIpv6Multicast(a.ip) && a.ip.value !== 0n;
  const v = a.key as number;
  return v >>> 28 !== 0xe && v !== -1 && v !== 0;
}
