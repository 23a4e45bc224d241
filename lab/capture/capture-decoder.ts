import { readFile } from 'node:fs/promises';
import { ETHERTYPE_ARP } from '../../core/l2/wire/index.ts';
import { BfdSessions, isBfdDatagram } from './bfd-events.ts';
import { BgpStreams, isBgpSegment } from './bgp-streams.ts';
import { CaptureFileError, CaptureFormatError, PacketDecodeError } from './errors.ts';
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
import { isPcap, pcapRecords } from './pcap-file.ts';
import { isPcapng, pcapngRecords } from './pcapng-file.ts';
import type { CaptureFormat, CaptureInterface, PacketRecord } from './records.ts';
import { isoTime, timeNs } from './timestamp.ts';
import { decodeTcpSegment, decodeUdpDatagram } from './transport.ts';

const DECODED_LINK_TYPES: ReadonlySet<number> = new Set([
  LINKTYPE_ETHERNET,
  LINKTYPE_LINUX_SLL,
  LINKTYPE_LINUX_SLL2,
]);

/** Everything read from one capture file. */
export interface DecodedCapture {
  readonly file: string;
  readonly format: CaptureFormat;
  readonly interfaces: readonly CaptureInterface[];
  /** In file order (the order the capture wrote them, which is not always time order across interfaces). */
  readonly events: readonly CaptureEvent[];
  /** What was skipped and why ("3 packets: IP fragments are not reassembled (first: frame 7)"). */
  readonly notes: readonly string[];
}

/**
 * Reads a pcap or pcapng file and decodes its ARP, NDP, BGP and BFD traffic. Throws CaptureFileError when the
 * file cannot be read and CaptureFormatError (with the byte offset) when it is not a capture or is cut short.
 */
export async function readCapture(path: string): Promise<DecodedCapture> {
  const decoder = new CaptureDecoder(await readCaptureFile(path), path);
  const events = [...decoder.events()];
  return {
    file: path,
    format: decoder.format,
    interfaces: decoder.interfaces,
    events,
    notes: decoder.notes(),
  };
}

/** The file's bytes; CaptureFileError names the file and says why it cannot be read. */
export async function readCaptureFile(path: string): Promise<Uint8Array> {
  try {
    const b = await readFile(path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const reasons: Record<string, string> = {
      ENOENT: 'no such file',
      EACCES: 'permission denied',
      EISDIR: 'it is a directory',
    };
    throw new CaptureFileError(path, reasons[code ?? ''] ?? (e instanceof Error ? e.message : String(e)), {
      cause: e,
    });
  }
}

/**
 * Decodes a capture held in memory, event by event: a caller can print what came before a corrupt record.
 * `events()` throws CaptureFormatError where the file is corrupt; packets that are merely malformed are
 * counted in notes() and skipped (or, for ARP/NDP/BGP/BFD messages, become events that say what is wrong).
 */
export class CaptureDecoder {
  readonly format: CaptureFormat;
  private readonly found: CaptureInterface[] = [];
  private readonly skipped = new Map<string, { count: number; first: string }>();
  private readonly bgp = new BgpStreams();
  private readonly bfd = new BfdSessions();

  constructor(
    private readonly bytes: Uint8Array,
    readonly file: string,
  ) {
    if (bytes.length === 0) throw new CaptureFormatError(file, 0, 'the file is empty');
    if (isPcapng(bytes)) this.format = 'pcapng';
    else if (isPcap(bytes)) this.format = 'pcap';
    else {
      const magic = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
      throw new CaptureFormatError(file, 0, `neither pcap nor pcapng (the file starts with ${magic})`);
    }
  }

  /** The capture interfaces declared so far (all of them once events() has run to the end). */
  get interfaces(): readonly CaptureInterface[] {
    return this.found;
  }

  *events(): Generator<CaptureEvent> {
    const onInterface = (i: CaptureInterface) => this.found.push(i);
    const records =
      this.format === 'pcapng'
        ? pcapngRecords(this.bytes, this.file, onInterface)
        : pcapRecords(this.bytes, this.file, onInterface);
    for (const record of records) yield* this.packet(record);
    yield* this.bgp.finish();
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

  private packet(record: PacketRecord): CaptureEvent[] {
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
