import { cutShort } from './errors.ts';

/**
 * Reads the integers of a capture file in the byte order its header declared (pcap and pcapng files are
 * written in the writer's native order). Every read is bounds-checked and a short read names the file
 * offset, so a truncated file is reported where it ends instead of as a RangeError.
 */
export class FileReader {
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly file: string,
    public littleEndian: boolean,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }

  /** Throws unless `count` bytes are present at `offset`; `what` names the structure being read. */
  need(offset: number, count: number, what: string): void {
    if (offset + count > this.bytes.length) {
      throw cutShort(this.file, offset, what, count, this.bytes.length - offset);
    }
  }

  u16(offset: number, what: string): number {
    this.need(offset, 2, what);
    return this.view.getUint16(offset, this.littleEndian);
  }

  u32(offset: number, what: string): number {
    this.need(offset, 4, what);
    return this.view.getUint32(offset, this.littleEndian);
  }

  u64(offset: number, what: string): bigint {
    this.need(offset, 8, what);
    return this.view.getBigUint64(offset, this.littleEndian);
  }

  i64(offset: number, what: string): bigint {
    this.need(offset, 8, what);
    return this.view.getBigInt64(offset, this.littleEndian);
  }

  /** The bytes [offset, offset + count), without copying. */
  slice(offset: number, count: number, what: string): Uint8Array {
    this.need(offset, count, what);
    return this.bytes.subarray(offset, offset + count);
  }
}
