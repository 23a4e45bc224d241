// BFD over real UDP sockets, single-hop (RFC 5881) and multihop (RFC 5883), IPv4 and IPv6. Sessions
// send from sockets of their own; packets are received on shared sockets bound to the wildcard address
// on ports 3784 and 4784, one per family, opened with the first session that needs them. Linux only:
// the sockets are created by the native addon core/runtime/native/udp_options.c, which attaches the
// kernel filter that checks received TTLs before Node ever reads a packet.
import { type RemoteInfo, type Socket, createSocket } from 'node:dgram';
import {
  BFD_MULTI_HOP_PORT as MULTIHOP_PORT,
  BFD_SINGLE_HOP_PORT as SINGLE_HOP_PORT,
} from '../../bfd/ports.ts';
import type { IpAddress, IpFamily } from '../../net/index.ts';
import { BfdNetworkClosedError, BfdSourcePortsExhaustedError } from './errors.ts';
import { errnoOf, socketError, udpAddon } from './native.ts';
import type { BfdNetwork, BfdPath } from '../../bfd/engine/network.ts';
import { SINGLE_HOP_TTL, type UdpBfdOpenSpec, checkMinimumTtl, checkOpenSpec } from './open-spec.ts';
import { SourcePorts } from './source-ports.ts';
import { DROP_ALL, type SockFilter, type TtlRule, flatten, ttlFilter } from './ttl-filter.ts';

export interface UdpBfdNetworkOptions {
  /**
   * The lowest TTL / hop limit accepted on multihop sessions that do not set their own (MetalLB's
   * BFDProfile `minimumTtl`, whose default is 254: one router between the peers). 1 to 255.
   */
  minimumTtl?: number;
}

/** A session's sending side; `sourcePort` is the one all its packets leave from (RFC 5881 §4). */
export interface UdpBfdPath extends BfdPath {
  readonly sourcePort: number;
}

type PacketListener = (bytes: Uint8Array, from: { address: string; port: number }, multihop: boolean) => void;

/** RFC 5881 §5 (and RFC 5883 §5, whose encapsulation is RFC 5881's): packets MUST be sent with 255. */
const SEND_TTL = 255;
const DEFAULT_MINIMUM_TTL = 254;

/** One of the four shared receive sockets and the per-session TTL rules its filter carries. */
interface Receiver {
  readonly family: IpFamily;
  readonly multihop: boolean;
  readonly fd: number;
  readonly socket: Socket;
  readonly rules: Map<UdpPath, TtlRule>;
}

export class UdpBfdNetwork implements BfdNetwork {
  private readonly defaultMinimumTtl: number;
  private readonly listeners = new Set<PacketListener>();
  private readonly receivers = new Map<string, Receiver>();
  private readonly paths = new Set<UdpPath>();
  private readonly ports = new SourcePorts();
  private closed = false;

  /** Throws BfdOptionError when minimumTtl is not 1 to 255. */
  constructor(options: UdpBfdNetworkOptions = {}) {
    this.defaultMinimumTtl = checkMinimumTtl('minimumTtl', options.minimumTtl ?? DEFAULT_MINIMUM_TTL);
  }

  /**
   * Opens the sending side of a session, and the receive socket of its kind and family if this is the
   * first such session. Rejects with BfdOptionError (a bad address or minimumTtl), NativeAddonMissingError,
   * BfdSocketError (EADDRINUSE: another BFD implementation holds 3784 or 4784; EADDRNOTAVAIL:
   * localAddress is not on this host), BfdSourcePortsExhaustedError, BfdFilterTooLargeError or
   * BfdNetworkClosedError.
   */
  async open(spec: UdpBfdOpenSpec): Promise<UdpBfdPath> {
    if (this.closed) throw new BfdNetworkClosedError();
    const plan = checkOpenSpec(spec);
    const receiver = this.receiver(plan.local.family, plan.multihop);
    // RFC 5883 has no fixed TTL to check across routers; the minimum is local policy in the manner of
    // GTSM (RFC 5082 §3), per session, so the shared socket's filter carries a rule for each session
    // whose minimum differs from the default. Built before the socket opens: too many rules fail here.
    const rule =
      plan.minimumTtl === undefined
        ? undefined
        : { local: plan.local, peer: plan.peer, minimumTtl: plan.minimumTtl };
    const filter = rule && this.filterFor(receiver, [...receiver.rules.values(), rule]);
    const { port, result: socket } = this.bindSourcePort(plan.local);
    const path = new UdpPath(socket, port, plan.peer, plan.multihop, (p) => this.forget(p, receiver));
    this.paths.add(path);
    if (rule && filter) {
      receiver.rules.set(path, rule);
      try {
        this.applyFilter(receiver, filter);
      } catch (e) {
        path.close();
        throw e;
      }
    }
    return path;
  }

  onPacket(listener: PacketListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes every session's socket and the receive sockets; open() rejects from then on. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    for (const path of [...this.paths]) path.close();
    const receivers = [...this.receivers.values()];
    this.receivers.clear();
    await Promise.all(receivers.map((r) => new Promise<void>((resolve) => r.socket.close(resolve))));
  }

  /** The receive socket for a kind and family, opened on first use. */
  private receiver(family: IpFamily, multihop: boolean): Receiver {
    const key = `${family}/${multihop ? 'multihop' : 'single-hop'}`;
    const existing = this.receivers.get(key);
    if (existing !== undefined) return existing;
    const port = multihop ? MULTIHOP_PORT : SINGLE_HOP_PORT;
    const rules = new Map<UdpPath, TtlRule>();
    const { fd, socket } = openReceiver(
      family,
      port,
      this.filterFor({ family, multihop }, []),
      `receiving BFD on UDP port ${port} (IPv${family})`,
    );
    socket.on('message', (msg: Buffer, rinfo: RemoteInfo) => {
      for (const l of this.listeners) l(msg, { address: rinfo.address, port: rinfo.port }, multihop);
    });
    const receiver = { family, multihop, fd, socket, rules };
    this.receivers.set(key, receiver);
    return receiver;
  }

  /**
   * Single-hop, RFC 5881 §5: without authentication, received packets MUST be discarded unless their
   * TTL / hop limit is 255; with it they MAY be, so this network always does. Multihop: the sessions'
   * rules, then the network's default minimum.
   */
  private filterFor(
    receiver: Pick<Receiver, 'family' | 'multihop'>,
    rules: readonly TtlRule[],
  ): SockFilter[] {
    return receiver.multihop
      ? ttlFilter(receiver.family, this.defaultMinimumTtl, rules)
      : ttlFilter(receiver.family, SINGLE_HOP_TTL, []);
  }

  private applyFilter(receiver: Receiver, filter: SockFilter[]): void {
    try {
      udpAddon().setFilter(receiver.fd, flatten(filter));
    } catch (e) {
      throw socketError(`updating the TTL filter of BFD port ${MULTIHOP_PORT}`, e);
    }
  }

  /**
   * A socket for one session: RFC 5881 §4, a source port of its own from 49152-65535, kept for all its
   * packets; bound to the session's local address; TTL 255. It never reads: its filter drops all.
   */
  private bindSourcePort(local: IpAddress): { port: number; result: Socket } {
    const addon = udpAddon();
    const at = `sending BFD from ${local.toString()}`;
    const taken = this.ports.take((port) => {
      try {
        return addon.open(local.toBytes(), port, SEND_TTL, flatten(DROP_ALL));
      } catch (e) {
        // Another socket of this host holds the port on this address: try the next one.
        if (errnoOf(e) === 'EADDRINUSE') return undefined;
        const hint =
          errnoOf(e) === 'EADDRNOTAVAIL' ? ` (${local.toString()} is not an address of this host)` : '';
        throw socketError(at, e, hint);
      }
    });
    if (taken === undefined) throw new BfdSourcePortsExhaustedError(local.toString());
    try {
      return { port: taken.port, result: adopt(taken.result, local.family, at) };
    } catch (e) {
      this.ports.release(taken.port);
      throw e;
    }
  }

  private forget(path: UdpPath, receiver: Receiver): void {
    this.paths.delete(path);
    this.ports.release(path.sourcePort);
    // Once the network is closing, its receive sockets go too: no filter left to update.
    if (!receiver.rules.delete(path) || this.closed) return;
    try {
      this.applyFilter(receiver, this.filterFor(receiver, [...receiver.rules.values()]));
    } catch {
      // The old filter stays, with the closed session's rule: packets between its two addresses are
      // held to its minimum until the next open or close of a multihop session rewrites the filter.
    }
  }
}

/**
 * A receiving socket on the wildcard address of `family` and `port`, its TTL `filter` attached before
 * bind() so no packet is ever queued unchecked, handed to Node. The Control packet receivers here and
 * the echo receiver (echo-network.ts) open theirs the same way. Read errors are at worst lost packets,
 * which the sessions' detection timers notice.
 */
export function openReceiver(
  family: IpFamily,
  port: number,
  filter: readonly SockFilter[],
  what: string,
): { fd: number; socket: Socket } {
  let fd: number;
  try {
    fd = udpAddon().open(new Uint8Array(family === 4 ? 4 : 16), port, 0, flatten(filter));
  } catch (e) {
    const hint =
      errnoOf(e) === 'EADDRINUSE'
        ? ` (another BFD implementation, e.g. FRR's bfdd, holds the port in this network namespace)`
        : '';
    throw socketError(what, e, hint);
  }
  const socket = adopt(fd, family, what);
  socket.on('error', () => undefined);
  return { fd, socket };
}

/** Hands a bound socket to Node, which reads, sends and closes it from then on; closes it on failure. */
function adopt(fd: number, family: IpFamily, what: string): Socket {
  const socket = createSocket({ type: family === 4 ? 'udp4' : 'udp6' });
  try {
    // exclusive: in a cluster worker, Node would otherwise ask the primary process for the socket.
    socket.bind({ fd, exclusive: true });
  } catch (e) {
    // Node took the fd only if bind succeeded: it is still ours to close, and the handle has none.
    udpAddon().close(fd);
    socket.close();
    throw socketError(what, e);
  }
  return socket;
}

class UdpPath implements UdpBfdPath {
  private closed = false;
  private readonly peer: string;
  private readonly port: number;

  constructor(
    private readonly socket: Socket,
    readonly sourcePort: number,
    peer: IpAddress,
    multihop: boolean,
    private readonly onClose: (path: UdpPath) => void,
  ) {
    this.peer = peer.toString();
    // RFC 5881 §4: single-hop packets MUST go to port 3784; RFC 5883 §5: multihop ones to 4784.
    this.port = multihop ? MULTIHOP_PORT : SINGLE_HOP_PORT;
    // Send failures are reported to send's callback; nothing else can fail on a socket that never reads.
    socket.on('error', () => undefined);
  }

  send(bytes: Uint8Array): void {
    // A session's timer may fire once more after it closed its path: nothing to send it on.
    if (this.closed) return;
    // A failed send (no route, a full buffer) is a lost packet: the peer's detection timer, not an
    // exception, deals with it.
    this.socket.send(bytes, this.port, this.peer, () => undefined);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
    this.socket.close();
  }
}
