import { ETHERTYPE_ARP } from '../../core/l2/wire/index.ts';
import { BfdSessions, isBfdDatagram } from './bfd-events.ts';
import { BgpStreams, isBgpSegment } from './bgp-streams.ts';
import { PacketDecodeError } from './errors.ts';
import type { CaptureEvent, EventBase } from './events.ts';
import { PROTOCOL_ICMPV6, PROTOCOL_TCP, PROTOCOL_UDP, ipPacket, type IpPacket } from './ip-packet.ts';
import {
  LINKTYPE_ETHERNET,
  LINKTYPE_LINUX_SLL,
  LINKTYPE_LINUX_SLL2,
  linkPayload,
  type LinkPayload,
} from './link-layer.ts';
import { arpEvent, isNdpType, ndpEvent } from './neighbor-events.ts';
import type { CaptureInterface, PacketRecord } from './records.ts';
import { isoTime, timeNs } from './timestamp.ts';
import { decodeTcpSegment, decodeUdpDatagram } from './transport.ts';

const DECODED_LINK_TYPES: ReadonlySet<number> = new Set([
  LINKTYPE_ETHERNET,
  LINKTYPE_LINUX_SLL,
  LINKTYPE_LINUX_SLL2,
]);

/**
 * Turns packet records, in file order, into events, whatever file format they came from: the state across
 * packets (BGP streams, BFD sessions, what was skipped) lives here. Packets that are merely malformed are
 * counted in notes() and skipped (or, for ARP/NDP/BGP/BFD messages, become events that say what is wrong).
 */
export class PacketDecoder {
  private readonly found: CaptureInterface[] = [];
  private readonly skipped = new Map<string, { count: number; first: string }>();
  private readonly bgp = new BgpStreams();
  private readonly bfd = new BfdSessions();

  /** The capture interfaces declared so far. */
  get interfaces(): readonly CaptureInterface[] {
    return this.found;
  }

  /** For the file readers: an interface the file declared. */
  readonly onInterface = (i: CaptureInterface): void => {
    this.found.push(i);
  };

  /** At the end of the capture: streams that end with a hole (the capture missed segments). */
  finish(): CaptureEvent[] {
    return this.bgp.finish();
  }

  notes(): string[] {
    const notes = [...this.skipped].map(
      ([reason, s]) => `${s.count} packet${s.count === 1 ? '' : 's'}: ${reason} (first: ${s.first})`,
    );
    if (this.bgp.midstreamJoins > 0) {
      notes.push(
        `${this.bgp.midstreamJoins} BGP stream direction(s) joined after their start (no SYN seen); ` +
          `${this.bgp.skippedBytes} bytes before the first whole message were skipped`,
      );
    }
    return notes;
  }

  /** The events of one packet; a BGP message comes with the packet that completes it. */
  record(record: PacketRecord): CaptureEvent[] {
    const base: EventBase = {
      frame: record.frame,
      timeNs: record.time === undefined ? undefined : timeNs(record.time),
      time: record.time === undefined ? undefined : isoTime(record.time),
      interface: record.interface.name ?? `if${record.interface.id}`,
    };
    try {
      const link = linkPayload(record.interface.linkType, record.data);
      if (link === undefined) {
        const type = record.interface.linkType;
        if (!DECODED_LINK_TYPES.has(type))
          this.skip(`link type ${type} is not decoded`, `frame ${record.frame}`);
        return [];
      }
      if (link.etherType === ETHERTYPE_ARP) return [arpEvent(base, link)];
      const ip = ipPacket(link.etherType, link.payload);
      return ip === undefined ? [] : this.ipEvents(base, link, ip, record.frame);
    } catch (e) {
      if (!(e instanceof PacketDecodeError)) throw e;
      this.skip('malformed link, IP, TCP or UDP header', `frame ${record.frame}: ${e.message}`);
      return [];
    }
  }

  private ipEvents(base: EventBase, link: LinkPayload, ip: IpPacket, frame: number): CaptureEvent[] {
    if (ip.fragment) {
      this.skip('IP fragments are not reassembled', `frame ${frame}`);
      return [];
    }
    const icmpType = ip.payload[0];
    if (ip.family === 6 && ip.protocol === PROTOCOL_ICMPV6 && isNdpType(icmpType)) {
      return [ndpEvent(base, link, icmpType!)];
    }
    if (ip.protocol === PROTOCOL_TCP) {
      const tcp = decodeTcpSegment(ip.payload);
      if (!isBgpSegment(tcp)) return [];
      if (ip.complete) return this.bgp.segment(base, ip, tcp);
      // The snap length cut the data: its bytes are missing from the stream (a gap is reported), but the
      // flags still open and close the connection.
      this.skip('BGP data cut by the capture snap length', `frame ${frame}`);
      return this.bgp.segment(base, ip, { ...tcp, payload: new Uint8Array(0) });
    }
    if (ip.protocol === PROTOCOL_UDP) {
      const udp = decodeUdpDatagram(ip.payload);
      if (isBfdDatagram(udp)) return [this.bfd.packet(base, ip, udp)];
    }
    return [];
  }

  private skip(reason: string, example: string): void {
    const s = this.skipped.get(reason);
    if (s === undefined) this.skipped.set(reason, { count: 1, first: example });
    else s.count++;
  }
}
