import { expect } from 'vitest';
import { BgpWireError, type ErrorHandling } from '../wire-error.ts';
import type { CodecContext } from './context.ts';
import { decodeMessage } from './message.ts';

/** Bytes from hex text; spaces, newlines and `|` separators are for the reader. */
export function hex(text: string): Uint8Array {
  const clean = text.replace(/[\s|]/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) throw new Error(`bad hex: ${text}`);
  return Uint8Array.from(clean.match(/../g) ?? [], (b) => parseInt(b, 16));
}

export function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** A whole message: marker, length, type, then `body` (hex). */
export function message(type: number, body: string | Uint8Array): Uint8Array {
  const b = typeof body === 'string' ? hex(body) : body;
  const out = new Uint8Array(19 + b.length).fill(0xff);
  out[16] = (19 + b.length) >> 8;
  out[17] = (19 + b.length) & 0xff;
  out[18] = type;
  out.set(b, 19);
  return out;
}

/** An UPDATE with the given (hex) withdrawn routes, path attributes and NLRI; lengths are filled in. */
export function update(withdrawn: string, attributes: string, nlri = ''): Uint8Array {
  const w = hex(withdrawn);
  const a = hex(attributes);
  const n = hex(nlri);
  const body = new Uint8Array(4 + w.length + a.length + n.length);
  body.set([w.length >> 8, w.length & 0xff]);
  body.set(w, 2);
  body.set([a.length >> 8, a.length & 0xff], 2 + w.length);
  body.set(a, 4 + w.length);
  body.set(n, 4 + w.length + a.length);
  return message(2, body);
}

export const FOUR: CodecContext = { fourOctetAs: true };
export const TWO: CodecContext = { fourOctetAs: false };

/** Decodes `bytes` expecting a thrown BgpWireError; returns it for further checks. */
export function decodeError(bytes: Uint8Array, ctx: CodecContext = FOUR): BgpWireError {
  try {
    decodeMessage(bytes, ctx);
  } catch (e) {
    expect(e).toBeInstanceOf(BgpWireError);
    return e as BgpWireError;
  }
  throw new Error('decodeMessage did not throw');
}

export interface ExpectedError {
  errorCode: number;
  subcode: number;
  handling: ErrorHandling;
  data?: string;
}

export function expectWireError(e: BgpWireError | undefined, want: ExpectedError): void {
  expect(e).toBeInstanceOf(BgpWireError);
  expect({ errorCode: e!.errorCode, subcode: e!.subcode, handling: e!.handling }).toEqual({
    errorCode: want.errorCode,
    subcode: want.subcode,
    handling: want.handling,
  });
  if (want.data !== undefined) expect(toHex(e!.data)).toBe(toHex(hex(want.data)));
}
