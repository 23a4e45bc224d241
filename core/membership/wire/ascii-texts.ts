/**
 * The ASCII texts the decoder has met (node names, metadata), found again by their bytes. Every update
 * about a node repeats its name and metadata, and a 2000-node emulation decodes twelve million updates
 * while its speakers start: each text is built once here and then handed out again, the same string
 * object, so the tables it is looked up in hash it once (V8 keeps a string's hash in the string).
 * Only ASCII is kept: a hit is checked byte for byte against the string's own character codes.
 */

import { fnv1a32 } from '../hash.ts';

/** By the FNV-1a hash of their bytes; a hit is checked against the bytes, so a collision only misses. */
const texts = new Map<number, string>();
/** Far above any cluster's names and metadata; a bound for texts that change all the time. */
const LIMIT = 50_000;

/** The text the bytes `bytes[start, start + length)` spell when it was met before, else undefined. */
export function knownAscii(bytes: Uint8Array, start: number, length: number): string | undefined {
  const text = texts.get(fnv1a32(bytes, start, start + length));
  if (text === undefined || text.length !== length) return undefined;
  for (let i = 0; i < length; i++) if (text.charCodeAt(i) !== bytes[start + i]) return undefined;
  return text;
}

/** Keeps `text` (just decoded from those bytes) when it is ASCII. */
export function rememberAscii(bytes: Uint8Array, start: number, text: string): void {
  if (text.length === 0) return;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return;
  if (texts.size >= LIMIT) texts.clear();
  texts.set(fnv1a32(bytes, start, start + text.length), text);
}
