import { ByteSlabs } from '../../runtime/byte-slab.ts';
import { MembershipEncodeError } from '../errors.ts';
import { utf8Length } from '../hash.ts';
import { knownAscii, rememberAscii } from './ascii-texts.ts';

// Internal helpers of the membership codec; not part of the public API.

/**
 * Why a datagram was refused. Stable strings: counters and traces quote them.
 */
export type WireErrorReason =
  | 'truncated'
  /** Not a membership datagram at all (first two bytes are not "LM"). */
  | 'bad-magic'
  /** A protocol version this code does not speak. */
  | 'bad-version'
  | 'bad-kind'
  /** A node name that is empty, longer than 253 bytes or not UTF-8. */
  | 'bad-name'
  | 'bad-state'
  | 'bad-cause'
  /** Metadata that is not UTF-8 JSON text of an object. */
  | 'bad-meta'
  /** A digest bucket number out of range, or a digest of the wrong size. */
  | 'bad-bucket'
  | 'trailing-bytes';

/** A datagram that cannot be decoded, as data: the receiver counts it and carries on. */
export interface WireError {
  readonly reason: WireErrorReason;
  /** Byte offset of the offending field. */
  readonly offset: number;
  readonly detail: string;
}

/** Thrown inside the decoder only, and always caught by decodeMessage. */
export class Malformed {
  constructor(readonly error: WireError) {}
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextEncoder();

export class Reader {
  private at = 0;

  // Fields are read byte by byte, as a DataView would read them, without making a view per datagram:
  // 2000 emulated speakers starting at once decode some 550,000 datagrams.
  constructor(private readonly bytes: Uint8Array) {}

  get offset(): number {
    return this.at;
  }

  fail(reason: WireErrorReason, detail: string, offset = this.at): never {
    throw new Malformed({ reason, offset, detail });
  }

  private need(n: number, what: string): void {
    if (this.at + n > this.bytes.length)
      this.fail('truncated', `${what} needs ${n} bytes, ${this.bytes.length - this.at} left`);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.at++]!;
  }

  u16(what: string): number {
    this.need(2, what);
    const b = this.bytes;
    const v = (b[this.at]! << 8) | b[this.at + 1]!;
    this.at += 2;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    const b = this.bytes;
    const at = this.at;
    const v = b[at]! * 0x100_0000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
    this.at += 4;
    return v;
  }

  /** UTF-8 text of `length` bytes; refuses invalid sequences rather than replacing them. */
  text(length: number, what: string, reason: WireErrorReason): string {
    const start = this.at;
    this.need(length, what);
    this.at += length;
    if (length === 0) return '';
    const known = knownAscii(this.bytes, start, length);
    if (known !== undefined) return known;
    let text: string;
    try {
      text = strictUtf8.decode(this.bytes.subarray(start, start + length));
    } catch {
      return this.fail(reason, `${what} is not UTF-8`, start);
    }
    rememberAscii(this.bytes, start, text);
    return text;
  }

  /** A node name: one length byte (1–253), then UTF-8. */
  name(what: string): string {
    const at = this.at;
    const length = this.u8(`${what} length`);
    if (length === 0 || length > 253) this.fail('bad-name', `${what} length ${length} not in 1..253`, at);
    return this.text(length, what, 'bad-name');
  }

  end(): void {
    if (this.at !== this.bytes.length)
      this.fail('trailing-bytes', `${this.bytes.length - this.at} bytes after the message`);
  }
}

/**
 * Encoded datagrams: sent, copied into a frame or a socket's buffer, and dropped. Their own slabs, so a
 * frame that waits long (for a neighbour's address) keeps no datagram's slab.
 */
const datagrams = new ByteSlabs();

/**
 * Writes into a buffer sized in advance (encoders compute the exact length first), carved from a shared
 * slab: a buffer of its own apiece (and a DataView over it) took 5.4 s of a 110 s, 2000-node emulated
 * run, most of it while the speakers started.
 */
export class Writer {
  private at = 0;
  readonly bytes: Uint8Array;

  constructor(length: number) {
    this.bytes = datagrams.take(length);
  }

  u8(v: number): void {
    this.bytes[this.at++] = v;
  }

  u16(v: number): void {
    this.bytes[this.at++] = v >>> 8;
    this.bytes[this.at++] = v;
  }

  u32(v: number): void {
    this.bytes[this.at++] = v >>> 24;
    this.bytes[this.at++] = v >>> 16;
    this.bytes[this.at++] = v >>> 8;
    this.bytes[this.at++] = v;
  }

  /**
   * Names and metadata are ASCII in practice: copied byte by byte, without the encoder's call and view
   * (a 2000-node emulation writes millions of them); anything else goes through the encoder, which
   * rewrites the ASCII bytes already copied with the same values.
   */
  text(s: string): void {
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.at += utf8.encodeInto(s, bytes.subarray(this.at)).written;
        return;
      }
      bytes[at++] = c;
    }
    this.at = at;
  }

  name(s: string): void {
    this.u8(utf8Length(s));
    this.text(s);
  }

  finish(): Uint8Array {
    if (this.at !== this.bytes.length)
      throw new MembershipEncodeError(`wrote ${this.at} bytes into a ${this.bytes.length}-byte message`);
    return this.bytes;
  }
}

/** Encoder guard: a node name the decoder accepts. */
export function checkName(s: string, field: string): void {
  const n = utf8Length(s);
  if (n === 0 || n > 253) throw new MembershipEncodeError(`${field} "${s}" must be 1..253 bytes, is ${n}`);
}

/** Encoder guard: an integer in [min, max]. */
export function checkInt(v: number, min: number, max: number, field: string): void {
  if (!Number.isInteger(v) || v < min || v > max)
    throw new MembershipEncodeError(`${field} must be an integer in [${min}, ${max}], got ${v}`);
}
