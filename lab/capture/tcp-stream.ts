/** What a reassembler saw besides in-order data, for tests and for the decoder's notes. */
export interface TcpStreamStats {
  /** Segments whose every byte had been delivered already (retransmissions, duplicates). */
  duplicates: number;
  /** Segments that repeated some delivered bytes and carried new ones too (their old part is dropped). */
  overlaps: number;
  /** Segments that arrived ahead of a gap and were held until it filled. */
  outOfOrder: number;
}

/** Signed distance a - b in sequence space (RFC 9293 §3.4: sequence numbers are compared modulo 2^32). */
function seqDiff(a: number, b: number): number {
  return (a - b) | 0;
}

/**
 * One direction of a TCP connection, reassembled into the byte stream the receiving application read.
 * Segments may arrive out of order, repeated, or overlapping; `push` returns the bytes that became
 * contiguous with this segment, each byte exactly once and in sequence order.
 */
export class TcpStream {
  /** The sequence number of the next byte to deliver; undefined until the first segment. */
  private next: number | undefined;
  private isn: number | undefined;
  private readonly pending = new Map<number, Uint8Array>();
  readonly stats: TcpStreamStats = { duplicates: 0, overlaps: 0, outOfOrder: 0 };
  /** No SYN was seen before data: the stream was joined mid-way and may start inside a message. */
  midstream = false;

  /**
   * Adds a segment. `restarted` is true when a SYN with a new initial sequence number began a new
   * connection on the same addresses and ports: the caller must drop what it parsed from the old one.
   */
  push(seg: { seq: number; syn: boolean; payload: Uint8Array }): {
    chunks: Uint8Array[];
    restarted: boolean;
  } {
    let restarted = false;
    let dataSeq = seg.seq;
    if (seg.syn) {
      if (this.isn !== undefined && this.isn !== seg.seq) {
        this.reset();
        restarted = true;
      }
      if (this.isn === undefined) {
        this.isn = seg.seq;
        // RFC 9293 §3.4: the SYN occupies the first sequence number; data (TCP Fast Open) follows it.
        this.next = (seg.seq + 1) >>> 0;
        this.midstream = false;
      }
      dataSeq = (seg.seq + 1) >>> 0;
    }
    if (this.next === undefined) {
      this.next = dataSeq;
      this.midstream = true;
    }
    const chunks: Uint8Array[] = [];
    if (seg.payload.length > 0) this.accept(dataSeq, seg.payload, chunks);
    return { chunks, restarted };
  }

  /** Bytes held after a gap that never filled (the capture missed segments), if any. */
  get missing(): { at: number; heldBytes: number } | undefined {
    if (this.pending.size === 0 || this.next === undefined) return undefined;
    let heldBytes = 0;
    for (const data of this.pending.values()) heldBytes += data.length;
    return { at: this.next, heldBytes };
  }

  private accept(seq: number, data: Uint8Array, out: Uint8Array[]): void {
    const next = this.next!;
    const ahead = seqDiff(seq, next);
    if (ahead + data.length <= 0) {
      this.stats.duplicates++;
      return;
    }
    if (ahead > 0) {
      this.stats.outOfOrder++;
      const held = this.pending.get(seq);
      if (held === undefined || held.length < data.length) this.pending.set(seq, data);
      return;
    }
    if (ahead < 0) this.stats.overlaps++;
    this.deliver(data.subarray(-ahead), out);
    this.drain(out);
  }

  private deliver(data: Uint8Array, out: Uint8Array[]): void {
    out.push(data);
    this.next = (this.next! + data.length) >>> 0;
  }

  /** Delivers every held segment that the stream has now reached, trimming what was already delivered. */
  private drain(out: Uint8Array[]): void {
    for (let progressed = true; progressed;) {
      progressed = false;
      for (const [seq, data] of this.pending) {
        const ahead = seqDiff(seq, this.next!);
        if (ahead > 0) continue;
        this.pending.delete(seq);
        if (ahead + data.length > 0) {
          this.deliver(data.subarray(-ahead), out);
          progressed = true;
        }
      }
    }
  }

  private reset(): void {
    this.next = undefined;
    this.isn = undefined;
    this.pending.clear();
  }
}
