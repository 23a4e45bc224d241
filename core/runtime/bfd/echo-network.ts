// BFD Echo packets on a real Linux node (RFC 5881 §4). Out: each echo as a whole Ethernet frame on the
// raw (AF_PACKET) port of the session's interface, IPv4 from and to our own address, to the peer's MAC
// from the kernel's neighbour table; the peer's forwarding plane routes it back to us. In: a UDP socket
// on port 3785 of every address, whose kernel filter checks the TTL, like the Control packets' sockets.
//
// What the node must allow, on top of what forwarding the peer's echoes takes (see BfdSession):
// net.ipv4.conf.<interface>.accept_local=1. A looped echo arrives from our own address, which the kernel
// otherwise drops as a martian source before any socket sees it (strict rp_filter is fine). Sending needs
// CAP_NET_RAW, as the Layer-2 announcer's raw ports do. net.ipv4.conf.<interface>.send_redirects=0 is
// worth setting too: forwarding the peer's echoes back out the interface they came in on makes the kernel
// answer some with ICMP Redirects (see echo-frame.ts).
import type { Socket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import type { BfdEchoNetwork, BfdEchoPath } from '../../bfd/echo/network.ts';
import { BFD_ECHO_PORT } from '../../bfd/ports.ts';
import { IpAddress } from '../../net/index.ts';
import { AfPacketPort } from '../af-packet-port.ts';
import type { FramePort } from '../ports.ts';
import { BfdEchoAcceptLocalError, BfdEchoInterfaceError } from './echo-errors.ts';
import { encodeEchoFrame } from './echo-frame.ts';
import { ArpNeighbours } from './echo-neighbours.ts';
import { BfdNetworkClosedError, BfdOptionError } from './errors.ts';
import { ttlFilter } from './ttl-filter.ts';
import { openReceiver } from './udp-network.ts';

export interface AfPacketEchoNetworkOptions {
  /**
   * Names the interface that has a local address, asked at each open (the speaker's BFD worker reads
   * os.networkInterfaces(): see echo-interface.ts).
   */
  interfaceOf: (localAddress: string) => string | undefined;
  /** Opens the raw port of an interface; default AfPacketPort.open. */
  openPort?: (interfaceName: string) => FramePort;
  /** Where the peers' MACs come from; default the kernel's table (/proc/net/arp). */
  neighbours?: ArpNeighbours;
  /** Whether the kernel accepts packets from a local address on the interface; default the sysctls. */
  acceptsLocal?: (interfaceName: string) => Promise<boolean>;
}

type EchoListener = Parameters<BfdEchoNetwork['onEcho']>[0];

/**
 * An echo left with TTL 255 (echo-frame.ts) and was forwarded once, by the peer: it comes back with 254.
 * Accepting no less keeps senders beyond the link from feeding a session forged echoes (the reasoning of
 * RFC 5881 §5 and RFC 5082 for Control packets); 255 is let through for a peer that loops echoes in
 * software without decrementing.
 */
const LOOPED_MINIMUM_TTL = 254;
/**
 * How often the neighbour table is read again while echoes run: a peer whose MAC changed (a replaced NIC,
 * a VRRP address moving) is followed within a second, well inside the time the session would take to
 * come back up after the echoes sent to the old MAC failed it.
 */
const NEIGHBOUR_REFRESH_MS = 1000;

export class AfPacketEchoNetwork implements BfdEchoNetwork {
  private readonly interfaceOf: (localAddress: string) => string | undefined;
  private readonly openPort: (interfaceName: string) => FramePort;
  private readonly neighbours: ArpNeighbours;
  private readonly acceptsLocal: (interfaceName: string) => Promise<boolean>;
  private readonly listeners = new Set<EchoListener>();
  /** One raw port per interface, shared by its sessions. */
  private readonly ports = new Map<string, { port: FramePort; users: number }>();
  private readonly paths = new Set<EchoPath>();
  private receiver: Socket | undefined;
  private refreshing: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private closed = false;

  constructor(options: AfPacketEchoNetworkOptions) {
    this.interfaceOf = options.interfaceOf;
    this.openPort = options.openPort ?? ((name) => AfPacketPort.open(name));
    this.neighbours = options.neighbours ?? new ArpNeighbours();
    this.acceptsLocal = options.acceptsLocal ?? kernelAcceptsLocal;
  }

  /**
   * Opens a session's echo path, and the receive socket on the first. Rejects with BfdOptionError (not
   * IPv4), BfdEchoInterfaceError, BfdSocketError (EADDRINUSE: something else holds UDP port 3785),
   * AfPacketError (EPERM: no CAP_NET_RAW), NativeAddonMissingError or BfdNetworkClosedError.
   */
  async open(spec: { localAddress: string; peerAddress: string }): Promise<BfdEchoPath> {
    if (this.closed) throw new BfdNetworkClosedError();
    const local = IpAddress.parse(spec.localAddress);
    const peer = IpAddress.parse(spec.peerAddress);
    if (local.family !== 4 || peer.family !== 4) {
      throw new BfdOptionError('localAddress', 'BFD echoes are sent over IPv4 only');
    }
    const interfaceName = this.interfaceOf(local.toString());
    if (interfaceName === undefined) throw new BfdEchoInterfaceError(local.toString());
    // Refused loudly here rather than a session that comes up and fails its echoes forever.
    if (!(await this.acceptsLocal(interfaceName))) throw new BfdEchoAcceptLocalError(interfaceName);
    this.openReceiver();
    const port = this.acquire(interfaceName);
    const path = new EchoPath(
      port,
      interfaceName,
      local,
      peer.toString(),
      this.neighbours,
      () => void this.refreshNeighbours(),
      (p) => this.release(p, interfaceName),
    );
    this.paths.add(path);
    this.refreshing ??= setInterval(() => void this.refreshNeighbours(), NEIGHBOUR_REFRESH_MS).unref();
    await this.refreshNeighbours();
    return path;
  }

  onEcho(listener: EchoListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes every path, raw port and the receive socket; open() rejects from then on. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    for (const path of [...this.paths]) path.close();
    const receiver = this.receiver;
    this.receiver = undefined;
    if (receiver !== undefined) await new Promise<void>((resolve) => receiver.close(resolve));
  }

  /** Reads the neighbour table, unless a read is already under way. */
  private refreshNeighbours(): Promise<void> {
    this.reading ??= this.neighbours.refresh().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** UDP port 3785 on the wildcard address, shared by every session: echoes find theirs by the payload. */
  private openReceiver(): void {
    if (this.receiver !== undefined) return;
    const { socket } = openReceiver(
      4,
      BFD_ECHO_PORT,
      ttlFilter(4, LOOPED_MINIMUM_TTL, []),
      `receiving BFD echoes on UDP port ${BFD_ECHO_PORT}`,
    );
    socket.on('message', (msg: Buffer, rinfo) => {
      for (const l of this.listeners) l(msg, { address: rinfo.address, port: rinfo.port });
    });
    this.receiver = socket;
  }

  private acquire(interfaceName: string): FramePort {
    const held = this.ports.get(interfaceName);
    if (held !== undefined) {
      held.users++;
      return held.port;
    }
    const port = this.openPort(interfaceName);
    this.ports.set(interfaceName, { port, users: 1 });
    return port;
  }

  private release(path: EchoPath, interfaceName: string): void {
    this.paths.delete(path);
    const held = this.ports.get(interfaceName);
    if (held !== undefined && --held.users === 0) {
      this.ports.delete(interfaceName);
      held.port.close();
    }
    if (this.paths.size === 0) {
      clearInterval(this.refreshing);
      this.refreshing = undefined;
    }
  }
}

class EchoPath implements BfdEchoPath {
  private closed = false;
  private identification = 0;

  constructor(
    private readonly port: FramePort,
    private readonly interfaceName: string,
    private readonly local: IpAddress,
    private readonly peer: string,
    private readonly neighbours: ArpNeighbours,
    private readonly missed: () => void,
    private readonly onClose: (path: EchoPath) => void,
  ) {}

  send(payload: Uint8Array): void {
    if (this.closed) return;
    // Not resolved when the table was last read (a session comes Up within a second of its first Control
    // packet, which is when the kernel resolved the peer): the table is read again at once, so only this
    // echo is lost. If the kernel cannot resolve the peer either, every echo is, and the session fails.
    const mac = this.neighbours.lookup(this.interfaceName, this.peer);
    if (mac === undefined) return this.missed();
    const frame = encodeEchoFrame({
      src: this.port.mac,
      dst: mac,
      address: this.local,
      identification: this.identification++,
      payload,
    });
    try {
      this.port.send(frame);
    } catch {
      // ENETDOWN, ENOBUFS: a lost echo, as above.
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
  }
}

/** The kernel takes accept_local from conf.all or the interface's own conf (IN_DEV_ORCONF). */
async function kernelAcceptsLocal(interfaceName: string): Promise<boolean> {
  const read = (conf: string) =>
    readFile(`/proc/sys/net/ipv4/conf/${conf}/accept_local`, 'utf8').then(
      (v) => v.trim() === '1',
      () => false,
    );
  return (await read('all')) || (await read(interfaceName));
}
