import { compareText } from '../../sort/compare-text.ts';
import { BATCH, digestIndex, sha256x4, writeBlock } from './sha256-x4.ts';
import { sha256Words } from './short-sha256.ts';

/**
 * MetalLB's election key is sha256(nodeName + "#" + ip), with the address in its canonical text form (Go's
 * net.IP.String(), which IpAddress.toString() matches: dotted quad, RFC 5952 for IPv6), compared as bytes.
 * The same key gives the same winner as a MetalLB speaker would pick, so lblab and MetalLB can be swapped
 * node by node. Digests are kept as big-endian words: comparing them unsigned, word by word, is Go's
 * bytes.Compare.
 */
export interface Keyed {
  readonly node: string;
  readonly words: Int32Array;
}

/** MetalLB's hash order, then the name so that the order is total (equal digests need equal names). */
function compareDigests(a: Int32Array, b: Int32Array): number {
  for (let i = 0; i < 8; i++) {
    const d = (a[i]! >>> 0) - (b[i]! >>> 0);
    if (d !== 0) return d;
  }
  return 0;
}

function compareKeyed(a: Keyed, b: Keyed): number {
  return compareDigests(a.words, b.words) || compareText(a.node, b.node);
}

/** `tail` is `#ip`: one per address, not one string per node and address. */
function keyed(node: string, tail: string): Keyed {
  return { node, words: sha256Words(node, tail, new Int32Array(8)) };
}

/** Nodes of an order kept whatever happens: the owner and the four runners-up a reason names, and slack. */
const TOP = 8;

interface Entry {
  /** The best TOP of the first `topCovers` known nodes, best first. */
  top: Keyed[];
  topCovers: number;
  /** Every known node in order, built only when a reader goes past `top`; covers the first `fullCovers`. */
  full: string[] | undefined;
  fullCovers: number;
  /** What order() hands out for this address. */
  reader: NodeOrder | undefined;
}

/** Registered nodes in hash order for one address, best first; callers skip the ones they rule out. */
export interface NodeOrder extends Iterable<string> {
  /** Every registered node, in order. */
  all(): readonly string[];
}

/**
 * Every node's place in MetalLB's hash order per address, remembered. A speaker re-runs the election on
 * every membership change, and hashing every node for every service each time dominated the cost at
 * scale (10,000 services × 2000 nodes is 20 million digests). Orders cover every node of the cluster, not
 * only the live ones, so a node coming or going costs nothing. Almost every election stops at the first
 * few nodes of an order, so only the best TOP are kept per address (10,000 lists of 2000 names were 160 MB
 * at 2000 nodes); the whole order is built when a reader goes further (many dead or ineligible nodes) and
 * kept. A node never seen before is hashed into each remembered order when that order is next read.
 */
class HashOrderCache {
  /** Every node name registered, in registration order. */
  private readonly known: string[] = [];
  private readonly seen = new Set<string>();
  private readonly orders = new Map<string, Entry>();
  private readonly scratch = new Int32Array(8);

  register(nodes: readonly string[]): void {
    for (const n of nodes) {
      if (this.seen.has(n)) continue;
      this.seen.add(n);
      this.known.push(n);
    }
  }

  /** The same object for an address every time, reflecting every node registered by the time it is read. */
  order(ip: string): NodeOrder {
    if (this.supplier !== undefined && !this.orders.has(ip)) this.supplier();
    let entry = this.orders.get(ip);
    if (entry === undefined) {
      entry = { top: [], topCovers: 0, full: undefined, fullCovers: 0, reader: undefined };
      // A bound for long-lived speakers whose services come and go: start over rather than grow forever.
      if (this.orders.size >= 200_000) this.orders.clear();
      this.orders.set(ip, entry);
    }
    const e = entry;
    const tail = `#${ip}`;
    this.catchUpTop(e, tail);
    return (e.reader ??= {
      all: () => this.catchUpFull(e, tail),
      [Symbol.iterator]: () => this.walk(e, tail),
    });
  }

  private *walk(entry: Entry, tail: string): Generator<string> {
    this.catchUpTop(entry, tail);
    for (const k of entry.top) yield k.node;
    if (entry.top.length === this.known.length) return;
    const rest = this.catchUpFull(entry, tail);
    for (let i = entry.top.length; i < rest.length; i++) yield rest[i]!;
  }

  /** Hashes the nodes registered since, keeping the best TOP. */
  private catchUpTop(entry: Entry, tail: string): void {
    rankInto(entry.top, this.known, entry.topCovers, tail, this.scratch);
    entry.topCovers = this.known.length;
  }

  private supplier: (() => void) | undefined;

  /**
   * Calls `supplier` before the cache ranks an address it lacks, so that ranks worked out elsewhere (a
   * helper thread's) are primed first. Returns what stops it (a later supplier is left alone).
   */
  supplyWith(supplier: () => void): () => void {
    this.supplier = supplier;
    return () => {
      if (this.supplier === supplier) this.supplier = undefined;
    };
  }

  /** Every node registered so far, in registration order: what a helper thread ranks in advance. */
  registered(): readonly string[] {
    return this.known.slice();
  }

  /**
   * Leaders of `ip` ranked elsewhere (leaders()) over the first `covers` registered nodes, taken only
   * where this cache has not ranked the address itself yet. Registration only appends, so those nodes
   * are still the first `covers`; later ones are hashed in when the order is read, as usual.
   */
  prime(ip: string, leaders: readonly Keyed[], covers: number): void {
    if (this.orders.has(ip) || covers > this.known.length) return;
    if (this.orders.size >= 200_000) return;
    this.orders.set(ip, {
      top: [...leaders],
      topCovers: covers,
      full: undefined,
      fullCovers: 0,
      reader: undefined,
    });
  }

  private catchUpFull(entry: Entry, tail: string): readonly string[] {
    if (entry.full === undefined) {
      const all: Keyed[] = [];
      eachDigest(this.known, 0, tail, this.scratch, (node) =>
        all.push({ node, words: this.scratch.slice() }),
      );
      entry.full = all.sort(compareKeyed).map((k) => k.node);
      entry.fullCovers = this.known.length;
    }
    const names = entry.full;
    for (; entry.fullCovers < this.known.length; entry.fullCovers++) {
      const node = keyed(this.known[entry.fullCovers]!, tail);
      let lo = 0;
      let hi = names.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareKeyed(keyed(names[mid]!, tail), node) < 0) lo = mid + 1;
        else hi = mid;
      }
      names.splice(lo, 0, node.node);
    }
    return names;
  }
}

/**
 * Ranks `nodes[from..]` for the address into `top` (best first, at most TOP kept). A digest is copied
 * only when it ranks: 2000 nodes per address leave about forty of them.
 */
function rankInto(
  top: Keyed[],
  nodes: readonly string[],
  from: number,
  tail: string,
  scratch: Int32Array,
): void {
  eachDigest(nodes, from, tail, scratch, (node) => {
    const last = top.length === TOP ? top[TOP - 1]! : undefined;
    if (last !== undefined && (compareDigests(scratch, last.words) || compareText(node, last.node)) > 0)
      return;
    const k: Keyed = { node, words: scratch.slice() };
    top.splice(insertionPoint(top, k), 0, k);
    if (top.length > TOP) top.pop();
  });
}

/**
 * Calls `each` with every node of `nodes[from..]` in order, its digest for `tail` in `scratch`: four at
 * a time in SIMD lanes (sha256-x4.ts) where the messages allow, else one by one.
 */
function eachDigest(
  nodes: readonly string[],
  from: number,
  tail: string,
  scratch: Int32Array,
  each: (node: string) => void,
): void {
  const x4 = sha256x4();
  for (let start = from; start < nodes.length; start += BATCH) {
    const end = Math.min(nodes.length, start + BATCH);
    let batched = x4 !== undefined;
    for (let i = start; batched && i < end; i++) batched = writeBlock(x4!.blocks, i - start, nodes[i]!, tail);
    if (!batched) {
      for (let i = start; i < end; i++) {
        sha256Words(nodes[i]!, tail, scratch);
        each(nodes[i]!);
      }
      continue;
    }
    x4!.hash(end - start);
    const digests = x4!.digests;
    for (let i = start; i < end; i++) {
      const at = digestIndex(i - start, 0);
      for (let w = 0; w < 8; w++) scratch[w] = digests[at + 4 * w]!;
      each(nodes[i]!);
    }
  }
}

/** The best TOP of `nodes` for `ip`, as the cache keeps them: for a helper thread to prime() with. */
export function leaders(nodes: readonly string[], ip: string): Keyed[] {
  const top: Keyed[] = [];
  rankInto(top, nodes, 0, `#${ip}`, new Int32Array(8));
  return top;
}

function insertionPoint(sorted: readonly Keyed[], k: Keyed): number {
  let i = sorted.length;
  while (i > 0 && compareKeyed(sorted[i - 1]!, k) > 0) i--;
  return i;
}

/**
 * The process's one cache: every election of every speaker in the process reads it. Rounds of elections
 * register the cluster's nodes first (clusterView does), then read orders per address.
 */
export const hashOrder = new HashOrderCache();
