// Small non-cryptographic hashes: node names → ring positions and anti-entropy digests. They must be
// identical on every speaker (the ring and the digests are compared across nodes), so they are defined
// here bit for bit rather than borrowed from the platform.

const utf8 = new TextEncoder();

/** FNV-1a, 32 bits, of `bytes[start, end)` (all of it by default). */
export function fnv1a32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's finaliser: spreads FNV's weak low bits so `hash & 63` makes even buckets. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Position of a node name on the ring (and the seed of its digest entries). */
export function nameHash(name: string): number {
  return mix32(fnv1a32(utf8.encode(name)));
}

/** Hash of a metadata JSON text, so digests notice two nodes holding different metadata. */
export function textHash(text: string): number {
  return mix32(fnv1a32(utf8.encode(text)));
}

/** Bytes `text` takes in UTF-8, without encoding it (encoders size datagrams before writing them). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3; // a lone surrogate: TextEncoder writes U+FFFD, three bytes
    } else n += 3;
  }
  return n;
}
