import { readFile } from 'node:fs/promises';
import { CaptureFormatError, unreadable } from './errors.ts';
import type { CaptureEvent } from './events.ts';
import { PacketDecoder } from './packet-decoder.ts';
import { isPcap, pcapRecords } from './pcap-file.ts';
import { isPcapng, pcapngRecords } from './pcapng-file.ts';
import type { CaptureFormat, CaptureInterface } from './records.ts';

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
    throw unreadable(path, e);
  }
}

/** The format the file's first bytes announce; CaptureFormatError for an empty file or any other. */
export function captureFormat(bytes: Uint8Array, file: string): CaptureFormat {
  if (bytes.length === 0) throw new CaptureFormatError(file, 0, 'the file is empty');
  if (isPcapng(bytes)) return 'pcapng';
  if (isPcap(bytes)) return 'pcap';
  const magic = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
  throw new CaptureFormatError(file, 0, `neither pcap nor pcapng (the file starts with ${magic})`);
}

/**
 * Decodes a capture held in memory, event by event: a caller can print what came before a corrupt record.
 * `events()` throws CaptureFormatError where the file is corrupt; packets that are merely malformed are
 * counted in notes() and skipped (or, for ARP/NDP/BGP/BFD messages, become events that say what is wrong).
 */
export class CaptureDecoder {
  readonly format: CaptureFormat;
  private readonly packets = new PacketDecoder();

  constructor(
    private readonly bytes: Uint8Array,
    readonly file: string,
  ) {
    this.format = captureFormat(bytes, file);
  }

  /** The capture interfaces declared so far (all of them once events() has run to the end). */
  get interfaces(): readonly CaptureInterface[] {
    return this.packets.interfaces;
  }

  *events(): Generator<CaptureEvent> {
    const read = this.format === 'pcapng' ? pcapngRecords : pcapRecords;
    for (const record of read(this.bytes, this.file, this.packets.onInterface))
      yield* this.packets.record(record);
    yield* this.packets.finish();
  }

  notes(): string[] {
    return this.packets.notes();
  }
}
