import { captureFormat } from './capture-decoder.ts';
import { CaptureFollowError, type CaptureFormatError } from './errors.ts';
import type { CaptureEvent } from './events.ts';
import { PacketDecoder } from './packet-decoder.ts';
import { PcapReader } from './pcap-file.ts';
import type { CaptureInterface } from './records.ts';

/**
 * Decodes a capture from its bytes as they are written (`lblab pcap decode --follow`): push() each piece
 * the file grew by, then end() when it is complete or stop() when following is given up while it may still
 * be written. Classic pcap only: it streams through pcap-parser. pcapng is refused with CaptureFollowError
 * rather than re-read whole on every growth; tcpdump writes classic pcap unless told otherwise.
 */
export class CaptureStream {
  private readonly packets = new PacketDecoder();
  /** The first bytes, until the magic number says the format. */
  private head = new Uint8Array(0);
  private reader: PcapReader | undefined;
  private stoppedInside: CaptureFormatError | undefined;

  constructor(readonly file: string) {}

  get interfaces(): readonly CaptureInterface[] {
    return this.packets.interfaces;
  }

  /** The events of the records this piece completes; throws CaptureFormatError (after them) at corruption. */
  *push(piece: Uint8Array): Generator<CaptureEvent> {
    let bytes = piece;
    if (this.reader === undefined) {
      this.reader = this.start(piece);
      if (this.reader === undefined) return;
      bytes = this.head;
    }
    for (const record of this.reader.push(bytes)) yield* this.packets.record(record);
  }

  /** The file is complete: what BGP reassembly held; CaptureFormatError when it ends inside a record. */
  *end(): Generator<CaptureEvent> {
    if (this.reader === undefined) captureFormat(this.head, this.file);
    this.reader?.end();
    yield* this.packets.finish();
  }

  /**
   * Following stopped while the writer may be in the middle of a record: what BGP reassembly held, and an
   * unfinished record at the end becomes a note instead of an error.
   */
  *stop(): Generator<CaptureEvent> {
    this.stoppedInside = this.reader?.unfinished();
    yield* this.packets.finish();
  }

  notes(): string[] {
    const notes = this.packets.notes();
    const cut = this.stoppedInside;
    if (cut !== undefined)
      notes.push(`stopped inside an unfinished record at byte ${cut.offset}: ${cut.detail}`);
    return notes;
  }

  /** A reader once the first bytes tell the format; throws for pcapng and for anything else. */
  private start(piece: Uint8Array): PcapReader | undefined {
    const head = new Uint8Array(this.head.length + piece.length);
    head.set(this.head);
    head.set(piece, this.head.length);
    this.head = head;
    if (head.length < 4) return undefined;
    if (captureFormat(head, this.file) === 'pcapng') {
      throw new CaptureFollowError(
        this.file,
        'pcapng is only read whole; --follow reads classic pcap (tcpdump -w, or dumpcap -P); ' +
          'decode this file without --follow once it is complete',
      );
    }
    return new PcapReader(this.file, this.packets.onInterface);
  }
}
