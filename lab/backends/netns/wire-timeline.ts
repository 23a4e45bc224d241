/**
 * Turns what a capture decoded (lab/capture) into run-timeline events: on the lab's clock, named for the
 * host that sent them, and only those a reader of the timeline wants (no steady BFD or BGP keepalives).
 */
import { sourceLinkLayerAddress, targetLinkLayerAddress } from '../../../core/l2/wire/index.ts';
import type { CaptureEvent } from '../../capture/index.ts';
import type { TimelineEvent } from '../../../reports/result.ts';

/**
 * The wall clock (which stamps captured packets) and the lab's clock (ms since the lab came up), read
 * together once: `wallMs` is Date.now() when the lab's now() was `labMs`.
 */
export interface ClockAnchor {
  readonly wallMs: number;
  readonly labMs: number;
}

/** A packet's capture time (ns since the Unix epoch) as milliseconds on the lab's clock. */
export function labMsOf(timeNs: bigint, anchor: ClockAnchor): number {
  // Epoch nanoseconds pass 2^53: subtract in bigint, so only the (small) difference becomes a float.
  const sinceAnchorNs = timeNs - BigInt(Math.round(anchor.wallMs)) * 1_000_000n;
  return anchor.labMs + Number(sinceAnchorNs) / 1e6;
}

/** Where a capture ran: the host and its interface. */
export interface CapturePoint {
  readonly host: string;
  readonly iface: string;
}

/** The lab host owning a MAC address (aa:bb:…, lower case) or an interface address, if any. */
export type HostOf = (macOrAddress: string) => string | undefined;

export type WireTimelineEvent = Omit<TimelineEvent, 'atMs'> & { atMs: number };

/**
 * The timeline events of one capture's decoded events. Events without a timestamp (pcapng Simple Packet
 * Blocks) cannot be placed and are left out; so are BFD packets that change no state and BGP keepalives.
 */
export function wireTimelineEvents(
  events: Iterable<CaptureEvent>,
  at: CapturePoint,
  anchor: ClockAnchor,
  hostOf: HostOf,
): WireTimelineEvent[] {
  const out: WireTimelineEvent[] = [];
  for (const e of events) {
    if (e.timeNs === undefined || !wanted(e)) continue;
    out.push({
      atMs: labMsOf(e.timeNs, anchor),
      source: senderHost(e, hostOf) ?? e.src,
      kind: kindOf(e),
      message: `${e.summary} (seen on ${at.host} ${at.iface})`,
    });
  }
  return out;
}

function wanted(e: CaptureEvent): boolean {
  const d = e.details;
  if (d.kind === 'bfd') return d.previousState !== undefined;
  if (d.kind === 'bgp-message') return d.message.type !== 'keepalive';
  return true;
}

/**
 * "arp", "ndp", "bgp", "bfd"; an unsolicited claim of an address (gratuitous ARP, RFC 5227 §2.3; an
 * unsolicited NA, RFC 4861 §7.2.6) is "<protocol> announce": that is how a new owner takes over, and the
 * report's highlights keep announcements with the ownership changes.
 */
function kindOf(e: CaptureEvent): string {
  const d = e.details;
  const announces =
    (d.kind === 'arp' && d.arp.senderIp.equals(d.arp.targetIp)) || (d.kind === 'na' && !d.na.solicited);
  return announces ? `${e.protocol} announce` : e.protocol;
}

/** The sender's link-layer address where the message carries one, else its IP address. */
function senderHost(e: CaptureEvent, hostOf: HostOf): string | undefined {
  const d = e.details;
  const mac =
    d.kind === 'arp'
      ? d.arp.senderMac
      : d.kind === 'na'
        ? targetLinkLayerAddress(d.na.options)
        : d.kind === 'ns'
          ? sourceLinkLayerAddress(d.ns.options)
          : d.kind === 'rs'
            ? sourceLinkLayerAddress(d.rs.options)
            : undefined;
  const byMac = mac === undefined ? undefined : hostOf(mac.toString());
  // "198.18.0.1:179", "[2001:db8::1]:3784": the address without the port.
  const address = /^\[(.*)\]:\d+$/.exec(e.src)?.[1] ?? /^([^:]*):\d+$/.exec(e.src)?.[1] ?? e.src;
  return byMac ?? hostOf(address);
}
