import type { IpFamily } from '../../core/net/index.ts';
import type { Clock } from '../../core/runtime/clock.ts';
import type { Addr, IpKey } from './addresses.ts';
import {
  SimAddressInUseError,
  SimConfigError,
  SimConnectTimeoutError,
  SimConnectionRefusedError,
  SimNetworkUnreachableError,
} from './errors.ts';
import type { Closeable, Gate } from './gate.ts';
import { DEFAULT_TTL } from './ipv4.ts';
import { flowHash } from './routes.ts';
import { ACK, FIN, RST, SYN, type TcpSegment, decodeTcp, encodeTcp } from './tcp-segment.ts';
import { SimStream, type TcpWire } from './tcp-stream.ts';

/** What the TCP of a host needs from the rest of its stack. */
export interface TcpHost {
  readonly name: string;
  /** The source address the route to `dst` gives, or undefined when there is no route. */
  sourceFor(dst: Addr): Addr | undefined;
  /** Sends one segment as an IP packet (protocol 6) from `src` to `dst`. */
  sendTcp(src: Addr, dst: Addr, segment: Uint8Array, ttl: number): void;
  /** A segment that failed its checksum. */
  badChecksum(src: Addr, dst: Addr): void;
}

export interface TcpConnectOptions {
  readonly remote: Addr;
  readonly port: number;
  readonly local: Addr | undefined;
  readonly timeoutMs: number;
  readonly ttl: number;
}

/** A listening socket: accepts connections to its port from any address (the session layer filters). */
export class TcpListener implements Closeable {
  private open = true;

  constructor(
    private readonly stack: TcpStack,
    readonly family: IpFamily | undefined,
    readonly address: Addr | undefined,
    readonly port: number,
    readonly gate: Gate,
    private readonly onAccept: (conn: SimStream) => void,
  ) {}

  get isOpen(): boolean {
    return this.open;
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.stack.unlisten(this);
    this.gate.disown(this);
  }

  /** @internal */
  accept(conn: SimStream): void {
    // The process takes it from the accept queue when it runs (after resume, if frozen).
    this.gate.admit(this, () => {
      if (this.open) this.onAccept(conn);
    });
  }
}

/** Linux's ip_local_port_range. */
const EPHEMERAL_FIRST = 32768;
const EPHEMERAL_LAST = 60999;

/**
 * A host's TCP: listeners, connections by their four-tuple, ephemeral ports, and the answer to segments
 * nobody owns (RFC 9293 §3.10.7.1: a RST). Connections live on the host, not in a process: the kernel
 * acknowledges and retransmits for a frozen process, and answers with RST once it has forgotten them.
 */
export class TcpStack implements TcpWire {
  private readonly conns = new Map<string, SimStream>();
  private readonly listeners = new Map<string, TcpListener>();
  private readonly portUse = new Map<number, number>();
  private nextEphemeral = EPHEMERAL_FIRST;

  constructor(
    private readonly host: TcpHost,
    readonly clock: Clock,
    /** Keys the initial sequence numbers (RFC 6528's secret). */
    private readonly secret: number,
  ) {}

  /** `address` undefined: every local address of both families. */
  listen(gate: Gate, port: number, address: Addr | undefined, onAccept: (c: SimStream) => void): TcpListener {
    checkPort(this.host.name, port);
    const families: IpFamily[] = address === undefined ? [4, 6] : [address.family];
    for (const f of families) {
      if (this.listeners.has(listenKey(f, port, address?.key)))
        throw new SimAddressInUseError(
          `${this.host.name}: TCP ${address?.text ?? '*'} port ${port} is already listening`,
        );
    }
    const l = new TcpListener(this, address?.family, address, port, gate, onAccept);
    for (const f of families) {
      this.listeners.set(listenKey(f, port, address?.key), l);
      this.use(f, port, 1);
    }
    gate.adopt(l);
    return l;
  }

  /** @internal */
  unlisten(l: TcpListener): void {
    const families: IpFamily[] = l.family === undefined ? [4, 6] : [l.family];
    for (const f of families) {
      this.listeners.delete(listenKey(f, l.port, l.address?.key));
      this.use(f, l.port, -1);
    }
  }

  connect(gate: Gate, o: TcpConnectOptions): Promise<SimStream> {
    checkPort(this.host.name, o.port);
    if (!(o.timeoutMs > 0)) throw new SimConfigError(`${this.host.name}: timeoutMs must be > 0`);
    if (!(Number.isInteger(o.ttl) && o.ttl >= 1 && o.ttl <= 255))
      throw new SimConfigError(`${this.host.name}: ttl must be within 1..255`);
    const local = o.local ?? this.host.sourceFor(o.remote);
    const where = `${this.host.name}: connect to ${o.remote.text} port ${o.port}`;
    // connect(2) fails at once with ENETUNREACH when no route leads there.
    if (local === undefined) return Promise.reject(new SimNetworkUnreachableError(`${where}: no route`));
    const localPort = this.ephemeral(o.remote.family);
    return new Promise<SimStream>((resolve, reject) => {
      const deadline = this.clock.setTimer('tcp:connect-timeout', o.timeoutMs, () => {
        conn.abort();
        gate.disown(conn);
        gate.admit(conn, () =>
          reject(new SimConnectTimeoutError(`${where}: timed out after ${o.timeoutMs} ms`)),
        );
      });
      const settle = (fn: () => void) => {
        deadline.cancel();
        // The process sees the outcome when it runs; a killed one never does.
        gate.admit(conn, fn);
      };
      const conn = new SimStream(
        {
          local,
          localPort,
          remote: o.remote,
          remotePort: o.port,
          ttl: o.ttl,
          iss: this.iss(local, localPort, o.remote, o.port),
        },
        this,
        gate,
        {
          established: () => settle(() => resolve(conn)),
          failed: (refused) => {
            gate.disown(conn);
            settle(() =>
              reject(
                refused
                  ? new SimConnectionRefusedError(`${where}: connection refused`)
                  : new SimConnectTimeoutError(`${where}: timed out (SYN unanswered)`),
              ),
            );
          },
        },
      );
      this.register(conn);
      gate.adopt(conn);
      conn.start();
    });
  }

  /** A segment for one of this host's addresses. */
  input(src: Addr, dst: Addr, bytes: Uint8Array): void {
    const seg = decodeTcp(src, dst, bytes);
    if (seg === undefined) return this.host.badChecksum(src, dst);
    const conn = this.conns.get(tupleKey(dst.key, seg.dstPort, src.key, seg.srcPort));
    if (conn !== undefined) return conn.input(seg);
    if ((seg.flags & RST) !== 0) return;
    if ((seg.flags & (SYN | ACK | FIN)) === SYN) {
      const l =
        this.listeners.get(listenKey(dst.family, seg.dstPort, dst.key)) ??
        this.listeners.get(listenKey(dst.family, seg.dstPort, undefined));
      if (l !== undefined) return this.passiveOpen(l, src, dst, seg);
    }
    this.refuse(src, dst, seg);
  }

  /** @internal */
  transmit(conn: SimStream, flags: number, seq: number, ack: number, payload: Uint8Array): void {
    const e = conn.ends;
    const segment = encodeTcp(e.local, e.remote, {
      srcPort: e.localPort,
      dstPort: e.remotePort,
      seq,
      ack,
      flags,
      payload,
    });
    this.host.sendTcp(e.local, e.remote, segment, e.ttl);
  }

  /** @internal */
  forget(conn: SimStream): void {
    const e = conn.ends;
    const key = tupleKey(e.local.key, e.localPort, e.remote.key, e.remotePort);
    if (this.conns.get(key) !== conn) return;
    this.conns.delete(key);
    this.use(e.local.family, e.localPort, -1);
  }

  private passiveOpen(l: TcpListener, src: Addr, dst: Addr, syn: TcpSegment): void {
    const conn = new SimStream(
      {
        local: dst,
        localPort: syn.dstPort,
        remote: src,
        remotePort: syn.srcPort,
        ttl: DEFAULT_TTL,
        iss: this.iss(dst, syn.dstPort, src, syn.srcPort),
      },
      this,
      l.gate,
      {
        established: () => {
          // The listener went away during the handshake: inet_csk_listen_stop resets what it held.
          if (!l.isOpen) return conn.abort();
          l.accept(conn);
        },
        failed: () => l.gate.disown(conn),
      },
      syn,
    );
    this.register(conn);
    l.gate.adopt(conn);
    conn.start();
  }

  /** RFC 9293 §3.10.7.1: a segment for no connection is answered with a reset. */
  private refuse(src: Addr, dst: Addr, seg: TcpSegment): void {
    const length = seg.payload.length + ((seg.flags & SYN) !== 0 ? 1 : 0) + ((seg.flags & FIN) !== 0 ? 1 : 0);
    const rst =
      (seg.flags & ACK) !== 0
        ? { seq: seg.ack, ack: 0, flags: RST }
        : { seq: 0, ack: (seg.seq + length) >>> 0, flags: RST | ACK };
    const bytes = encodeTcp(dst, src, { srcPort: seg.dstPort, dstPort: seg.srcPort, payload: EMPTY, ...rst });
    this.host.sendTcp(dst, src, bytes, DEFAULT_TTL);
  }

  private register(conn: SimStream): void {
    const e = conn.ends;
    this.conns.set(tupleKey(e.local.key, e.localPort, e.remote.key, e.remotePort), conn);
    this.use(e.local.family, e.localPort, 1);
  }

  /** RFC 6528: a clock ticking every 4 µs plus a keyed hash of the four-tuple. */
  private iss(local: Addr, localPort: number, remote: Addr, remotePort: number): number {
    const ticks = Math.floor(this.clock.now() * 250);
    return (ticks + flowHash(this.secret, local.key, remote.key, (localPort << 16) | remotePort)) >>> 0;
  }

  private ephemeral(family: IpFamily): number {
    for (let tries = 0; tries <= EPHEMERAL_LAST - EPHEMERAL_FIRST; tries++) {
      const port = this.nextEphemeral;
      this.nextEphemeral = port === EPHEMERAL_LAST ? EPHEMERAL_FIRST : port + 1;
      if (!this.portUse.has(family * 65536 + port)) return port;
    }
    throw new SimAddressInUseError(`${this.host.name}: no ephemeral TCP port is free`);
  }

  private use(family: IpFamily, port: number, delta: number): void {
    const slot = family * 65536 + port;
    const n = (this.portUse.get(slot) ?? 0) + delta;
    if (n > 0) this.portUse.set(slot, n);
    else this.portUse.delete(slot);
  }
}

const EMPTY = new Uint8Array(0);

/** IPv6 keys are 8 code units long, so the parts cannot run into each other. */
function tupleKey(local: IpKey, localPort: number, remote: IpKey, remotePort: number): string {
  return `${local}|${localPort}|${remote}|${remotePort}`;
}

function listenKey(family: IpFamily, port: number, address: IpKey | undefined): string {
  return address === undefined ? `${family}|${port}|*` : `${family}|${port}|${address}`;
}

function checkPort(host: string, port: number): void {
  if (!(Number.isInteger(port) && port >= 1 && port <= 0xffff))
    throw new SimConfigError(`${host}: TCP port ${port} is not within 1..65535`);
}
