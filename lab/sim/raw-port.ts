import type { MacAddress } from '../../core/net/index.ts';
import type { FramePort } from '../../core/runtime/ports.ts';
import type { AddressSet } from './address-set.ts';
import type { Gate } from './gate.ts';
import type { NetInterface } from './interface.ts';

/**
 * An extra socket filter, as a BPF program attached to the socket would be: frames it rejects are never
 * copied, queued or delivered. A filter that passes exactly the frames naming an address of `owned`
 * (ownedAddressFilter) says so, and the switch then skips hosts whose sockets would reject a frame.
 */
export type FrameFilter = ((frame: Uint8Array) => boolean) & { readonly owned?: AddressSet };

/**
 * What the speaker's AF_PACKET socket gives it (core/runtime/af-packet-port.ts): a copy of every ARP and
 * ICMPv6 frame arriving on the interface (not the host's own outgoing ones), with all-multicast on while
 * it is open; frames it sends go on the wire as they are, bypassing the stack.
 */
export class SimRawPort implements FramePort {
  private readonly listeners = new Set<(frame: Uint8Array) => void>();
  private closed = false;

  constructor(
    private readonly iface: NetInterface,
    private readonly gate: Gate,
    private readonly filter: FrameFilter | undefined,
  ) {
    iface.addTap(this);
    gate.adopt(this);
  }

  get name(): string {
    return this.iface.name;
  }

  get mac(): MacAddress {
    return this.iface.mac;
  }

  /** @internal */
  get owned(): AddressSet | undefined {
    return this.filter?.owned;
  }

  send(frame: Uint8Array): void {
    if (this.closed || !this.gate.canSend) return;
    this.iface.transmit(Uint8Array.from(frame));
  }

  onFrame(listener: (frame: Uint8Array) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.iface.removeTap(this);
    this.gate.disown(this);
  }

  /** @internal Each socket gets its own copy, as the kernel gives each its own buffer. */
  deliver(frame: Uint8Array): void {
    if (this.filter !== undefined && !this.filter(frame)) return;
    const copy = frame.slice();
    this.gate.admit(this, () => {
      for (const l of this.listeners) l(copy);
    });
  }
}
