import { EventEmitter } from 'node:events';
import { parse, type GlobalHeader, type Packet, type PacketHeader } from 'pcap-parser';
import { CaptureFormatError, cutShort } from './errors.ts';
import type { CaptureInterface, PacketRecord } from './records.ts';
import { MICROSECONDS, NANOSECONDS, captureTime, type TimestampResolution } from './timestamp.ts';

// The classic libpcap format (draft-ietf-opsawg-pcap §4): a 24-byte file header, then records of a 16-byte
// header and the captured bytes. The magic number says both the byte order and the timestamp unit.
//
// pcap-parser frames the records. It streams: fed bytes in pieces of any size, it hands on each record once
// it is whole, which is what lets `lblab pcap decode --follow` read a file tcpdump is still writing. What it
// leaves unchecked is checked here: the sub-second field's range, a plausible record length, the version
// (it accepts any file whose minor version is 4), and a file that ends inside a record (it drops those
// bytes silently).
//
// Nanosecond files: pcap-parser knows only the microsecond magic, but it reads the magic only to learn the
// byte order, and a nanosecond file differs from a microsecond one in nothing but the magic and the unit of
// the sub-second field (§4). So it is given the header with the microsecond magic in the file's byte order,
// and the sub-second field is read here in the unit the real magic names. One reader for every classic
// pcap, streaming included (tcpdump --time-stamp-precision=nano); lblab's own record loop became dead and
// is gone.

const MAGIC_MICROSECONDS = 0xa1b2c3d4;
const MAGIC_NANOSECONDS = 0xa1b23c4d;
const FILE_HEADER = 24;
const RECORD_HEADER = 16;
/** Larger than any snap length libpcap writes (262144): a bigger record length means a corrupt file. */
const MAX_RECORD = 0x4000000;
/** How much of an in-memory file pcapRecords() hands pcap-parser at a time. */
const SLICE = 1 << 20;

interface Magic {
  readonly littleEndian: boolean;
  readonly nanoseconds: boolean;
}

/** True when `bytes` starts with a classic pcap magic number, in either byte order. */
export function isPcap(bytes: Uint8Array): boolean {
  return magicOf(bytes) !== undefined;
}

function magicOf(bytes: Uint8Array): Magic | undefined {
  if (bytes.length < 4) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, 4);
  for (const littleEndian of [true, false]) {
    const magic = view.getUint32(0, littleEndian);
    if (magic === MAGIC_MICROSECONDS) return { littleEndian, nanoseconds: false };
    if (magic === MAGIC_NANOSECONDS) return { littleEndian, nanoseconds: true };
  }
  return undefined;
}

/** Reads the packet records of a classic pcap file in order; throws CaptureFormatError where it is cut. */
export function* pcapRecords(
  bytes: Uint8Array,
  file: string,
  onInterface: (i: CaptureInterface) => void,
): Generator<PacketRecord> {
  const reader = new PcapReader(file, onInterface);
  for (let at = 0; at < bytes.length; at += SLICE) yield* reader.push(bytes.subarray(at, at + SLICE));
  reader.end();
}

/**
 * A classic pcap file read in pieces, in file order, as they are written: push() each piece, end() when the
 * file is complete. Records come out as soon as they are whole; a record split across pieces comes out with
 * the piece that completes it.
 */
export class PcapReader {
  /** What pcap-parser reads: the 'data' events push() emits, synchronously, so records come back at once. */
  private readonly input = Object.assign(new EventEmitter(), { pause() {}, resume() {} });
  /** The file's first bytes until the whole file header is here; undefined once pcap-parser has it. */
  private head: Uint8Array | undefined = new Uint8Array(0);
  private magic: Magic | undefined;
  /** The unit of the sub-second field and the one interface, once the file header is read. */
  private timestamps:
    { resolution: TimestampResolution; perSecond: bigint; iface: CaptureInterface } | undefined;
  private fed = 0;
  /** File offset of the next record. */
  private next = FILE_HEADER;
  private frame = 0;
  /** The header of a record whose data is not all here yet. */
  private pending: PacketHeader | undefined;
  private ready: PacketRecord[] = [];
  private failure: CaptureFormatError | undefined;

  constructor(
    readonly file: string,
    private readonly onInterface: (i: CaptureInterface) => void,
  ) {
    parse(this.input)
      .on('globalHeader', (h) => this.fileHeader(h))
      .on('packetHeader', (h) => this.recordHeader(h))
      .on('packet', (p) => this.record(p))
      // Not reached once the checks in header() passed; without a listener, an emitted 'error' would throw.
      .on('error', (e) => this.fail(0, e.message));
  }

  /** The records this piece completes, in order; throws CaptureFormatError (after them) where the file is corrupt. */
  *push(piece: Uint8Array): Generator<PacketRecord> {
    if (this.failure !== undefined) throw this.failure;
    this.fed += piece.length;
    if (this.head === undefined) this.feed(piece);
    else {
      const bytes = this.head.length === 0 ? piece : concat(this.head, piece);
      this.header(bytes);
      if (bytes.length < FILE_HEADER) this.head = Uint8Array.from(bytes);
      else {
        this.head = undefined;
        this.feed(this.asMicroseconds(bytes.subarray(0, FILE_HEADER)));
        this.feed(bytes.subarray(FILE_HEADER));
      }
    }
    const ready = this.ready;
    this.ready = [];
    yield* ready;
    if (this.failure !== undefined) throw this.failure;
  }

  /** The file is complete: throws CaptureFormatError when it ends inside its header or a record. */
  end(): void {
    const cut = this.unfinished();
    if (cut !== undefined) throw cut;
  }

  /** What end() would throw now: the error for the bytes after the last whole record, if there are any. */
  unfinished(): CaptureFormatError | undefined {
    if (this.failure !== undefined) return this.failure;
    if (this.head !== undefined) {
      if (this.head.length < 4)
        return new CaptureFormatError(this.file, 0, 'not a pcap file (unknown magic number)');
      return cutShort(this.file, 0, 'the pcap file header', FILE_HEADER, this.head.length);
    }
    const left = this.fed - this.next;
    if (left === 0) return undefined;
    const number = this.frame + 1;
    if (this.pending === undefined) {
      return cutShort(this.file, this.next, `the header of packet record ${number}`, RECORD_HEADER, left);
    }
    const captured = this.pending.capturedLength;
    const what = `packet record ${number} (${captured} bytes)`;
    return cutShort(this.file, this.next + RECORD_HEADER, what, captured, left - RECORD_HEADER);
  }

  /** Checks the magic number and, once the file header is whole, the version; throws what is wrong. */
  private header(bytes: Uint8Array): void {
    if (bytes.length < 4) return;
    this.magic = magicOf(bytes);
    if (this.magic === undefined) this.fail(0, 'not a pcap file (unknown magic number)');
    else if (bytes.length >= FILE_HEADER) {
      const major = new DataView(bytes.buffer, bytes.byteOffset, 6).getUint16(4, this.magic.littleEndian);
      if (major !== 2) this.fail(4, `pcap version ${major}, only version 2 is known`);
    }
    if (this.failure !== undefined) throw this.failure;
  }

  /** The file header as pcap-parser accepts it: a copy with the microsecond magic in the file's byte order. */
  private asMicroseconds(header: Uint8Array): Uint8Array {
    const copy = Uint8Array.from(header);
    new DataView(copy.buffer).setUint32(0, MAGIC_MICROSECONDS, this.magic?.littleEndian);
    return copy;
  }

  private feed(bytes: Uint8Array): void {
    if (bytes.length > 0) this.input.emit('data', Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  }

  private fileHeader(h: GlobalHeader): void {
    const resolution = this.magic?.nanoseconds ? NANOSECONDS : MICROSECONDS;
    // draft-ietf-opsawg-pcap §4: the low 16 bits are the link type; the upper bits may carry FCS information.
    const iface: CaptureInterface = {
      id: 0,
      linkType: h.linkLayerType & 0xffff,
      digits: resolution.exponent,
    };
    this.timestamps = { resolution, perSecond: 10n ** BigInt(resolution.exponent), iface };
    this.onInterface(iface);
  }

  private recordHeader(h: PacketHeader): void {
    if (this.failure !== undefined || this.timestamps === undefined) return;
    const fraction = h.timestampMicroseconds;
    if (BigInt(fraction) >= this.timestamps.perSecond) {
      this.fail(this.next + 4, `sub-second field ${fraction} is not below ${this.timestamps.perSecond}`);
    } else if (h.capturedLength > MAX_RECORD) {
      this.fail(this.next + 8, `captured length ${h.capturedLength} is not plausible`);
    } else this.pending = h;
  }

  private record({ header: h, data }: Packet): void {
    if (this.failure !== undefined || this.timestamps === undefined) return;
    const { resolution, perSecond, iface } = this.timestamps;
    this.ready.push({
      frame: ++this.frame,
      offset: this.next,
      interface: iface,
      time: captureTime(BigInt(h.timestampSeconds) * perSecond + BigInt(h.timestampMicroseconds), resolution),
      // A plain view, not the Buffer pcap-parser sliced: Buffer's toJSON would change the events' JSON.
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      originalLength: h.originalLength,
    });
    this.next += RECORD_HEADER + h.capturedLength;
    this.pending = undefined;
  }

  private fail(offset: number, detail: string): void {
    this.failure ??= new CaptureFormatError(this.file, offset, detail);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
