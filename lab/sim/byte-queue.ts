/**
 * A TCP send queue: the bytes the process wrote that are not acknowledged yet, addressed by sequence
 * number, kept as the chunks written (no copying on write; a slice copies once per segment sent).
 */
export class ByteQueue {
  private chunks: Uint8Array[] = [];
  /** Offset of the first held byte within chunks[0]. */
  private head = 0;

  /** `base`: the sequence number of the first byte pushed. */
  constructor(private base: number) {}

  push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
  }

  /** Forgets every byte before sequence number `seq`. */
  dropTo(seq: number): void {
    let n = seq - this.base;
    while (n > 0 && this.chunks.length > 0) {
      const avail = this.chunks[0]!.length - this.head;
      const take = Math.min(n, avail);
      this.head += take;
      this.base += take;
      n -= take;
      if (this.head === this.chunks[0]!.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
  }

  /** The bytes with sequence numbers [from, to), which must be held. */
  slice(from: number, to: number): Uint8Array {
    let skip = from - this.base + this.head;
    let i = 0;
    while (skip >= this.chunks[i]!.length) skip -= this.chunks[i++]!.length;
    const first = this.chunks[i]!;
    if (skip + (to - from) <= first.length) return first.subarray(skip, skip + (to - from));
    const out = new Uint8Array(to - from);
    let at = 0;
    while (at < out.length) {
      const c = this.chunks[i++]!;
      const n = Math.min(c.length - skip, out.length - at);
      out.set(c.subarray(skip, skip + n), at);
      at += n;
      skip = 0;
    }
    return out;
  }
}
