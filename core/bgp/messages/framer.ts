import { decodeHeader, HEADER_BYTES } from './header.ts';

/**
 * Splits a TCP byte stream into whole BGP messages (RFC 4271 §4.1: the Length field delimits them).
 * A bad marker or length throws BgpWireError (RFC 4271 §6.1): the stream cannot be resynchronised, so
 * the session must be reset; the framer keeps throwing after that.
 */
export class MessageFramer {
  private buf = new Uint8Array(0);
  private start = 0;
  private end = 0;

  push(chunk: Uint8Array): Uint8Array[] {
    this.append(chunk);
    const out: Uint8Array[] = [];
    while (this.end - this.start >= HEADER_BYTES) {
      const { length } = decodeHeader(this.buf.subarray(this.start, this.start + HEADER_BYTES));
      if (this.end - this.start < length) break;
      out.push(this.buf.slice(this.start, this.start + length));
      this.start += length;
    }
    if (this.start === this.end) this.start = this.end = 0;
    return out;
  }

  /** Octets held that do not yet form a whole message. */
  get pending(): number {
    return this.end - this.start;
  }

  private append(chunk: Uint8Array): void {
    const held = this.end - this.start;
    if (this.end + chunk.length > this.buf.length) {
      if (held + chunk.length > this.buf.length) {
        // Grow, keeping only what is held.
        const next = new Uint8Array(Math.max(8192, 2 * (held + chunk.length)));
        next.set(this.buf.subarray(this.start, this.end));
        this.buf = next;
      } else {
        // Enough room once what was consumed is dropped: move what is held to the front.
        this.buf.copyWithin(0, this.start, this.end);
      }
      this.start = 0;
      this.end = held;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }
}
