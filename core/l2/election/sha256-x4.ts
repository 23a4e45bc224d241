/**
 * SHA-256 (FIPS 180-4) of many one-block messages at once, four at a time in WebAssembly's 128-bit SIMD
 * lanes. The election hashes `node#ip` for every node and address (20 million digests at 2000 nodes and
 * 10,000 Services); short-sha256.ts does one block in JavaScript at about 0.5 µs a digest, and the
 * libraries it names pay a call per message. Here a batch of 2048 costs about 0.08 µs a digest to hash
 * and 0.09 µs to write its block (this machine), so the election ranks 2.5 times as fast. The module is
 * generated below from the compression function written out once, and compiled on first use. Callers
 * write each message as its padded big-endian words (writeBlock) and read eight words of digest back.
 */
import { H0, K } from './sha256-constants.ts';

/** Messages per call: the memory holds their blocks (256 bytes per four) and digests (128 per four). */
export const BATCH = 2048;
const GROUPS = BATCH / 4;
const OUT = GROUPS * 256;
const PAGES = Math.ceil((GROUPS * 384) / 65536);

/** Hashes prepared blocks in place: writeBlock() fills them, digestIndex() finds the results. */
export interface Sha256x4 {
  /** The blocks, four messages interleaved word by word (one lane each). */
  readonly blocks: Int32Array;
  /** Hashes the first `count` (at most BATCH) blocks. */
  hash(count: number): void;
  /** The digests after hash(), interleaved as the blocks are. */
  readonly digests: Int32Array;
}

/**
 * Writes `head + tail` as message i's padded block (FIPS 180-4 §5.1.1); false when it is not ASCII or
 * longer than the 55 bytes one block holds (the block is then left unfinished: hash it some other way).
 */
export function writeBlock(blocks: Int32Array, i: number, head: string, tail: string): boolean {
  const length = head.length + tail.length;
  if (length > 55) return false;
  const base = (i >> 2) * 64 + (i & 3);
  const afterHead = put(blocks, base, head, 0, 0);
  const last = afterHead === undefined ? undefined : put(blocks, base, tail, head.length, afterHead);
  if (last === undefined) return false;
  blocks[base + 4 * (length >> 2)] = last | (0x80 << (24 - 8 * (length & 3)));
  for (let w = (length >> 2) + 1; w < 15; w++) blocks[base + 4 * w] = 0;
  blocks[base + 60] = length * 8;
  return true;
}

/**
 * Puts `text` into the block at `base` from byte `at`, big-endian, storing each word it completes;
 * `word` holds the bytes already in the word `at` falls in. Returns that of the word the text ends in,
 * or undefined for text that is not ASCII.
 */
function put(blocks: Int32Array, base: number, text: string, at: number, word: number): number | undefined {
  for (let k = 0, j = at; k < text.length; k++, j++) {
    const code = text.charCodeAt(k);
    if (code > 0x7f) return undefined;
    word |= code << (24 - 8 * (j & 3));
    if ((j & 3) === 3) {
      blocks[base + 4 * (j >> 2)] = word;
      word = 0;
    }
  }
  return word;
}

/** Where digest i's word w is in `digests`. */
export function digestIndex(i: number, w: number): number {
  return ((i >> 2) * 8 + w) * 4 + (i & 3);
}

/** The part of WebAssembly's JavaScript API used here: Node has it, but @types/node 20 declares none of it. */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let made: Sha256x4 | null | undefined;

/** The one batch hasher of this thread, or undefined where WebAssembly SIMD is missing. */
export function sha256x4(): Sha256x4 | undefined {
  if (made !== undefined) return made ?? undefined;
  const bytes = moduleBytes();
  if (!wasm.validate(bytes)) {
    made = null;
    return undefined;
  }
  const instance = new wasm.Instance(new wasm.Module(bytes));
  const memory = instance.exports['memory'] as { buffer: ArrayBuffer };
  const run = instance.exports['hash'] as (groups: number) => void;
  made = {
    blocks: new Int32Array(memory.buffer, 0, GROUPS * 64),
    digests: new Int32Array(memory.buffer, OUT, GROUPS * 32),
    hash: (count) => {
      if (!(count >= 0 && count <= BATCH)) throw new RangeError(`${count} blocks: at most ${BATCH}`);
      run(Math.ceil(count / 4));
    },
  };
  return made;
}

// WebAssembly opcodes (core spec §5.4; SIMD opcodes follow the 0xfd prefix as unsigned LEB128).
const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  i32Const: 0x41,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  void: 0x40,
} as const;
const simd = {
  load: 0x00,
  store: 0x0b,
  splat: 0x11,
  or: 0x50,
  xor: 0x51,
  bitselect: 0x52,
  shl: 0xab,
  shrU: 0xad,
  add: 0xae,
} as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

/** The function body's instructions, written through small helpers that read like the algorithm. */
class Code {
  readonly bytes: number[] = [];
  get(local: number): this {
    this.bytes.push(op.localGet, ...uleb(local));
    return this;
  }
  set(local: number): this {
    this.bytes.push(op.localSet, ...uleb(local));
    return this;
  }
  i32(n: number): this {
    this.bytes.push(op.i32Const, ...sleb(n | 0));
    return this;
  }
  v(o: number): this {
    this.bytes.push(0xfd, ...uleb(o));
    return this;
  }
  /** v128.load or v128.store at the address on the stack plus `offset`, 16-byte aligned. */
  memory(o: number, offset: number): this {
    return this.v(o).raw(4, ...uleb(offset));
  }
  raw(...b: number[]): this {
    this.bytes.push(...b);
    return this;
  }
  /** Pushes rotr(x, n) of local x. */
  rotr(x: number, n: number): this {
    return this.get(x)
      .i32(n)
      .v(simd.shrU)
      .get(x)
      .i32(32 - n)
      .v(simd.shl)
      .v(simd.or);
  }
  /** Pushes rotr(x, a) ^ rotr(x, b) ^ rotr(x, c), or shr(x, c) for the schedule's σ functions. */
  sigma(x: number, a: number, b: number, c: number, shiftLast: boolean): this {
    this.rotr(x, a).rotr(x, b).v(simd.xor);
    if (shiftLast) this.get(x).i32(c).v(simd.shrU);
    else this.rotr(x, c);
    return this.v(simd.xor);
  }
}

/** The module: memory (blocks, then digests) and hash(groups), FIPS 180-4 §6.2.2 for each lane. */
function moduleBytes(): Uint8Array {
  // Locals: 0 = groups (the parameter), 1 = group, 2 = in, 3 = out, then v128: 16 schedule words, the
  // eight working variables and T1.
  const [GROUPS_PARAM, GROUP, IN, OUTPTR] = [0, 1, 2, 3];
  const W = (t: number) => 4 + (t & 15);
  const STATE = 20;
  const T1 = 28;
  const c = new Code();
  c.raw(op.block, op.void, op.loop, op.void);
  c.get(GROUP).get(GROUPS_PARAM).raw(op.i32GeU, op.brIf, 1);
  for (let t = 0; t < 16; t++)
    c.get(IN)
      .memory(simd.load, 16 * t)
      .set(W(t));
  for (let i = 0; i < 8; i++)
    c.i32(H0[i]!)
      .v(simd.splat)
      .set(STATE + i);
  // Working variables by role, renamed each round instead of moved: s[0] is a, ..., s[7] is h.
  let s = Array.from({ length: 8 }, (_, i) => STATE + i);
  for (let t = 0; t < 64; t++) {
    if (t >= 16) {
      // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], in the slot W[t-16] held.
      c.get(W(t))
        .sigma(W(t - 15), 7, 18, 3, true)
        .v(simd.add);
      c.get(W(t - 7))
        .v(simd.add)
        .sigma(W(t - 2), 17, 19, 10, true)
        .v(simd.add)
        .set(W(t));
    }
    const [a, b, cc, d, e, f, g, h] = s as [number, number, number, number, number, number, number, number];
    // T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]; Ch picks f where e is set, g elsewhere: bitselect.
    c.get(h).sigma(e, 6, 11, 25, false).v(simd.add);
    c.get(f).get(g).get(e).v(simd.bitselect).v(simd.add);
    c.i32(K[t]!).v(simd.splat).v(simd.add).get(W(t)).v(simd.add).set(T1);
    // d + T1 becomes e; T1 + Σ0(a) + Maj(a, b, c) becomes a. Maj is b where a and c differ, a elsewhere.
    c.get(d).get(T1).v(simd.add).set(d);
    c.get(T1).sigma(a, 2, 13, 22, false).v(simd.add);
    c.get(b).get(a).get(a).get(cc).v(simd.xor).v(simd.bitselect).v(simd.add).set(h);
    s = [h, a, b, cc, d, e, f, g];
  }
  // The digest: the working variables plus the initial hash value, word by word.
  for (let i = 0; i < 8; i++)
    c.get(OUTPTR)
      .get(s[i]!)
      .i32(H0[i]!)
      .v(simd.splat)
      .v(simd.add)
      .memory(simd.store, 16 * i);
  c.get(GROUP).i32(1).raw(op.i32Add).set(GROUP);
  c.get(IN).i32(256).raw(op.i32Add).set(IN);
  c.get(OUTPTR).i32(128).raw(op.i32Add).set(OUTPTR);
  c.raw(op.br, 0, op.end, op.end);

  // OUTPTR starts at OUT: set before the loop.
  const prologue = new Code().i32(OUT).set(OUTPTR).bytes;
  const locals = [2, ...uleb(3), 0x7f, ...uleb(25), 0x7b];
  const body = [...locals, ...prologue, ...c.bytes, op.end];
  const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];
  const name = (text: string) => [...uleb(text.length), ...[...text].map((ch) => ch.charCodeAt(0))];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 1, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, ...uleb(PAGES)]),
    ...section(7, [2, ...name('memory'), 2, 0, ...name('hash'), 0, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}
