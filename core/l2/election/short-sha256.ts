import { hash } from 'node:crypto';
import { H0, K } from './sha256-constants.ts';

/**
 * SHA-256 (FIPS 180-4) of `head + tail`, a short ASCII text, as eight big-endian 32-bit words in `out`
 * (two parts so the election hashes `node#ip` without building the string first). The election hashes
 * every node for every service address (10,000 services × 2000 nodes is 20 million digests), each
 * `node#ip`, a single 64-byte block; node:crypto costs about 1.4 µs a call here, almost all of it the
 * call, and the libraries measured (@noble/hashes 2.0 µs, hash-wasm 0.9 µs) pay the same per-call toll.
 * One block compressed in place costs a fraction of that. Longer or non-ASCII text (never a valid
 * Kubernetes node name and address) goes to node:crypto; both paths give the same digest (tested).
 */
export function sha256Words(head: string, tail: string, out: Int32Array): Int32Array {
  const length = head.length + tail.length;
  // FIPS 180-4 §5.1.1: one block holds up to 55 bytes of message, the 0x80 byte and the 64-bit length.
  if (length > 55 || !isAscii(head) || !isAscii(tail)) return fromCrypto(head + tail, out);
  W.fill(0, 0, 16);
  put(head, 0);
  put(tail, head.length);
  W[length >> 2]! |= 0x80 << (24 - 8 * (length & 3));
  W[15] = length * 8;
  compress(out);
  return out;
}

/** Big-endian bytes into the message words, from byte `at`. */
function put(text: string, at: number): void {
  for (let i = 0; i < text.length; i++) {
    const k = at + i;
    W[k >> 2]! |= text.charCodeAt(i) << (24 - 8 * (k & 3));
  }
}

const W = new Int32Array(64);

/** FIPS 180-4 §6.2.2 on the block in W[0..15], from the initial hash value. */
function compress(out: Int32Array): void {
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15]!;
    const y = W[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = H0[0]!;
  let b = H0[1]!;
  let c = H0[2]!;
  let d = H0[3]!;
  let e = H0[4]!;
  let f = H0[5]!;
  let g = H0[6]!;
  let h = H0[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  out[0] = (a + H0[0]!) | 0;
  out[1] = (b + H0[1]!) | 0;
  out[2] = (c + H0[2]!) | 0;
  out[3] = (d + H0[3]!) | 0;
  out[4] = (e + H0[4]!) | 0;
  out[5] = (f + H0[5]!) | 0;
  out[6] = (g + H0[6]!) | 0;
  out[7] = (h + H0[7]!) | 0;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function fromCrypto(text: string, out: Int32Array): Int32Array {
  const digest = hash('sha256', text, 'buffer');
  for (let i = 0; i < 8; i++) out[i] = digest.readInt32BE(4 * i);
  return out;
}
