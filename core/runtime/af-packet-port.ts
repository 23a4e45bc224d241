import { LblabError } from '../errors/lblab-error.ts';
import { MacAddress } from '../net/mac.ts';
import { addonLoader } from './native/addon.ts';
import type { FramePort } from './ports.ts';

/** What the addon exports; `handle` is an opaque native object owned by one port. */
interface AfPacketAddon {
  open(
    interfaceName: string,
    onFrame: (frame: Uint8Array) => void,
  ): { handle: unknown; ifindex: number; mac: Uint8Array };
  send(handle: unknown, frame: Uint8Array): void;
  close(handle: unknown): void;
}

/** A system call on the raw socket failed; `errno` names it, e.g. EPERM when CAP_NET_RAW is missing. */
export class AfPacketError extends LblabError {
  readonly code = 'AF_PACKET';

  constructor(
    readonly interfaceName: string,
    readonly errno: string,
    message: string,
    options: { cause: unknown },
  ) {
    super(`AF_PACKET on ${JSON.stringify(interfaceName)}: ${message}`, options);
  }
}

/** The addon built from core/runtime/native/af_packet.c. */
const loadAddon = addonLoader<AfPacketAddon>({
  target: 'af_packet',
  label: 'the AF_PACKET addon',
  needsLinux: 'raw Ethernet ports need Linux (AF_PACKET)',
});

/** Runs a native call, turning its errno-carrying Error into an AfPacketError. */
function native<T>(interfaceName: string, call: () => T): T {
  try {
    return call();
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    const errno = (e as { code?: unknown }).code;
    throw new AfPacketError(interfaceName, typeof errno === 'string' ? errno : 'UNKNOWN', e.message, {
      cause: e,
    });
  }
}

/**
 * Raw Ethernet frames on a real Linux interface through an AF_PACKET socket (needs CAP_NET_RAW). The
 * kernel filters for the speaker: only ARP and ICMPv6 frames reach `onFrame`, never the ones this host
 * sent, and a received 802.1Q tag is put back in place. The socket lives in the network namespace of the
 * process that opens it, and keeps the event loop alive until `close`.
 */
export class AfPacketPort implements FramePort {
  private constructor(
    readonly name: string,
    readonly mac: MacAddress,
    /** The kernel's index of the interface when it was opened. */
    readonly ifindex: number,
    private readonly handle: unknown,
    private readonly listeners: Set<(frame: Uint8Array) => void>,
    private readonly addon: AfPacketAddon,
  ) {}

  /**
   * Opens `interfaceName` in this process's network namespace. Throws AfPacketError (e.g. errno ENODEV:
   * no such interface, EPERM: no CAP_NET_RAW) or NativeAddonMissingError.
   */
  static open(interfaceName: string): AfPacketPort {
    const addon = loadAddon();
    // The addon needs the callback before the port exists, so the two share the listener set.
    const listeners = new Set<(frame: Uint8Array) => void>();
    const opened = native(interfaceName, () =>
      addon.open(interfaceName, (frame) => {
        for (const l of listeners) l(frame);
      }),
    );
    return new AfPacketPort(
      interfaceName,
      MacAddress.fromBytes(opened.mac),
      opened.ifindex,
      opened.handle,
      listeners,
      addon,
    );
  }

  /** Sends one whole frame; throws AfPacketError (e.g. ENETDOWN or ENOBUFS while the link is down). */
  send(frame: Uint8Array): void {
    native(this.name, () => this.addon.send(this.handle, frame));
  }

  onFrame(listener: (frame: Uint8Array) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Idempotent. */
  close(): void {
    this.listeners.clear();
    this.addon.close(this.handle);
  }
}
