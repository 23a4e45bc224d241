/**
 * Short-lived small byte buffers carved out of shared slabs instead of given a buffer each: a buffer
 * outside V8's heap costs an allocation, a free and external-memory accounting apiece (2.6 µs here, against
 * 0.1 µs for a view into a slab), and the emulator makes millions of them (frames, membership datagrams)
 * that live for one link delay. A slab goes when the last view into it does, so one long-lived view
 * keeps its whole slab: each kind of buffer takes its own slabs, and buffers that outlive the rest should
 * not come from here. Each view is zeroed, as `new Uint8Array(length)` is, and no two overlap.
 */
export class ByteSlabs {
  private slab = new ArrayBuffer(0);
  private used = 0;

  constructor(private readonly slabBytes = 64 * 1024) {}

  /**
   * `length` zeroed bytes of their own, from a shared slab when they are small beside it, seen through
   * the one view `[from, to)` of them: a frame is carved whole, and its stack writes the packet inside it
   * first (frame-buffer.ts), without a second view over the same bytes.
   */
  take(length: number, from = 0, to = length): Uint8Array {
    if (length > this.slabBytes / 4) return new Uint8Array(new ArrayBuffer(length), from, to - from);
    if (this.used + length > this.slab.byteLength) {
      this.slab = new ArrayBuffer(this.slabBytes);
      this.used = 0;
    }
    const start = this.used;
    // Views start 8-byte aligned, as a NIC's buffers do; nothing depends on it but speed.
    this.used += (length + 7) & ~7;
    return new Uint8Array(this.slab, start + from, to - from);
  }
}
