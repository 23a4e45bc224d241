import type { IpFamily } from '../../core/net/index.ts';
import type { DatagramAddress, DatagramPort } from '../../core/runtime/ports.ts';
import type { Addr, IpKey } from './addresses.ts';
import { SimAddressInUseError } from './errors.ts';
import type { Gate } from './gate.ts';

/** What a socket needs from its host's stack. */
export interface UdpStack {
  readonly name: string;
  sendUdp(socket: SimUdpPort, to: DatagramAddress, payload: Uint8Array): void;
  unbind(socket: SimUdpPort): void;
}

/**
 * A UDP socket of the emulated stack, bound to one local address (or the wildcard of its family, which
 * receives for every local address, service addresses on lo included, and sends from the address the
 * route picks).
 */
export class SimUdpPort implements DatagramPort {
  readonly local: DatagramAddress;
  private readonly listeners = new Set<(payload: Uint8Array, from: DatagramAddress) => void>();
  private closed = false;

  constructor(
    private readonly stack: UdpStack,
    readonly family: IpFamily,
    /** Undefined for the wildcard address. */
    readonly bound: Addr | undefined,
    port: number,
    private readonly gate: Gate,
  ) {
    this.local = { address: bound?.text ?? (family === 4 ? '0.0.0.0' : '::'), port };
  }

  send(to: DatagramAddress, payload: Uint8Array): void {
    if (this.closed || !this.gate.canSend) return;
    this.stack.sendUdp(this, to, payload);
  }

  onMessage(listener: (payload: Uint8Array, from: DatagramAddress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.stack.unbind(this);
    this.gate.disown(this);
  }

  /** @internal */
  receive(payload: Uint8Array, from: DatagramAddress): void {
    this.gate.admit(this, () => {
      for (const l of this.listeners) l(payload, from);
    });
  }
}

interface Binding {
  readonly byAddress: Map<IpKey, SimUdpPort>;
  wildcard: SimUdpPort | undefined;
}

/** Linux's ip_local_port_range. */
const EPHEMERAL_FIRST = 32768;
const EPHEMERAL_LAST = 60999;

/** A host's bound UDP sockets by family and port; a datagram goes to the exact address's socket, else the wildcard. */
export class SocketTable {
  private readonly bindings = new Map<number, Binding>();
  private nextEphemeral = EPHEMERAL_FIRST;

  constructor(private readonly host: string) {}

  add(socket: SimUdpPort): void {
    const key = slot(socket.family, socket.local.port);
    let b = this.bindings.get(key);
    if (b === undefined) this.bindings.set(key, (b = { byAddress: new Map(), wildcard: undefined }));
    const taken = socket.bound === undefined ? b.wildcard : b.byAddress.get(socket.bound.key);
    if (taken !== undefined) {
      throw new SimAddressInUseError(
        `${this.host}: ${socket.local.address} port ${socket.local.port} is already bound`,
      );
    }
    if (socket.bound === undefined) b.wildcard = socket;
    else b.byAddress.set(socket.bound.key, socket);
  }

  remove(socket: SimUdpPort): void {
    const b = this.bindings.get(slot(socket.family, socket.local.port));
    if (b === undefined) return;
    if (b.wildcard === socket) b.wildcard = undefined;
    else if (socket.bound !== undefined && b.byAddress.get(socket.bound.key) === socket)
      b.byAddress.delete(socket.bound.key);
  }

  lookup(family: IpFamily, port: number, dst: IpKey): SimUdpPort | undefined {
    const b = this.bindings.get(slot(family, port));
    return b === undefined ? undefined : (b.byAddress.get(dst) ?? b.wildcard);
  }

  /** The next port from the ephemeral range with nothing bound on it for `family`. */
  ephemeral(family: IpFamily): number {
    for (let tries = 0; tries <= EPHEMERAL_LAST - EPHEMERAL_FIRST; tries++) {
      const port = this.nextEphemeral;
      this.nextEphemeral = port === EPHEMERAL_LAST ? EPHEMERAL_FIRST : port + 1;
      const b = this.bindings.get(slot(family, port));
      if (b === undefined || (b.wildcard === undefined && b.byAddress.size === 0)) return port;
    }
    throw new SimAddressInUseError(`${this.host}: no ephemeral UDP port is free`);
  }
}

function slot(family: IpFamily, port: number): number {
  return family * 65536 + port;
}
