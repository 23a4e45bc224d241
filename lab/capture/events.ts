import type { ArpPacket, NeighborAdvertisement, NeighborSolicitation } from '../../core/l2/wire/index.ts';
import type { BfdPacketView, BfdStateName } from './bfd-packet-view.ts';
import type { BgpMessageDetails } from './bgp-events.ts';
import type { RouterAdvertisement, RouterSolicitation } from './router-discovery.ts';

export type CaptureProtocol = 'arp' | 'ndp' | 'bgp' | 'bfd';

/**
 * Something a lab timeline cares about, read off the wire: an ARP or NDP message, a BGP message (from the
 * reassembled TCP stream) or a TCP connect/close of a BGP session, a BFD Control packet.
 */
export interface CaptureEvent {
  /** The packet that carried (or, for BGP, completed) it: 1-based, as tshark numbers frames. */
  readonly frame: number;
  /**
   * Nanoseconds since the Unix epoch, exact (truncated only for resolutions finer than 1 ns). Undefined
   * for a pcapng Simple Packet Block, which has no timestamp.
   */
  readonly timeNs: bigint | undefined;
  /** The same instant in ISO 8601 UTC with the capture's own precision (6 digits for µs pcap, 9 for ns). */
  readonly time: string | undefined;
  /** The capture interface: its pcapng if_name, or "if<N>". */
  readonly interface: string;
  readonly protocol: CaptureProtocol;
  /** Who sent it: an IP address, or address:port for BGP and BFD ([v6]:port for IPv6). */
  readonly src: string;
  readonly dst: string;
  /** One human line, e.g. "ARP reply 198.18.100.1 is-at 02:42:c6:12:00:0a". */
  readonly summary: string;
  readonly details: EventDetails;
}

export type EventDetails =
  | { readonly kind: 'arp'; readonly arp: ArpPacket }
  | { readonly kind: 'ns'; readonly ns: NeighborSolicitation }
  | { readonly kind: 'na'; readonly na: NeighborAdvertisement }
  | { readonly kind: 'rs'; readonly rs: RouterSolicitation }
  | { readonly kind: 'ra'; readonly ra: RouterAdvertisement }
  | BgpMessageDetails
  | { readonly kind: 'bgp-tcp'; readonly tcp: 'connect' | 'close' | 'reset' }
  /** The capture missed segments: the stream has a hole at `seq` and `heldBytes` after it were not decoded. */
  | { readonly kind: 'bgp-stream-gap'; readonly seq: number; readonly heldBytes: number }
  | {
      readonly kind: 'bfd';
      readonly hop: 'single' | 'multi';
      readonly packet: BfdPacketView;
      /** The state this sender last reported, when this packet changes it. */
      readonly previousState?: BfdStateName;
    }
  /** A message of the event's protocol that its decoder refused; `error` is the decoder's message. */
  | { readonly kind: 'malformed'; readonly error: string; readonly offset?: number };

/** The fields every event of one packet shares. */
export type EventBase = Pick<CaptureEvent, 'frame' | 'timeNs' | 'time' | 'interface'>;

/** "198.18.0.1:179" or "[2001:db8::1]:179". */
export function endpoint(address: { family: 4 | 6; toString(): string }, port: number): string {
  return address.family === 6 ? `[${address.toString()}]:${port}` : `${address.toString()}:${port}`;
}
