import type { CaptureTime } from './timestamp.ts';

/** One capture interface: the single implicit one of a pcap file, or a pcapng Interface Description Block. */
export interface CaptureInterface {
  /** Index over the whole file (pcapng numbers interfaces per section; this counts across sections). */
  readonly id: number;
  /** LINKTYPE_* value (1 Ethernet, 113 Linux cooked, 276 Linux cooked v2, ...). */
  readonly linkType: number;
  /** if_name when the file gives one (dumpcap does). */
  readonly name?: string;
  /** Fractional digits of this interface's timestamps. */
  readonly digits: number;
}

/** One captured packet, as the file stores it. */
export interface PacketRecord {
  /** 1-based, in file order: the number tshark and Wireshark show as frame.number. */
  readonly frame: number;
  /** Byte offset of the record (or block) in the file. */
  readonly offset: number;
  readonly interface: CaptureInterface;
  /** Absent only for a pcapng Simple Packet Block, which carries no timestamp. */
  readonly time: CaptureTime | undefined;
  /** The captured bytes, starting with the link-layer header. */
  readonly data: Uint8Array;
  /** The packet's length on the wire; more than data.length when the snap length cut it. */
  readonly originalLength: number;
}

export type CaptureFormat = 'pcap' | 'pcapng';
