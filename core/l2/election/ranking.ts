import { hash } from 'node:crypto';
import { compareText } from '../../sort/compare-text.ts';

/**
 * MetalLB's election key: sha256(nodeName + "#" + ip), with the address in its canonical text form (Go's
 * net.IP.String(), which IpAddress.toString() matches: dotted quad, RFC 5952 for IPv6). The same key gives
 * the same winner as a MetalLB speaker would pick, so lblab and MetalLB can be swapped node by node.
 */
export function electionHash(node: string, ip: string): Uint8Array {
  return hash('sha256', `${node}#${ip}`, 'buffer');
}

/** Go's bytes.Compare on two digests of equal length. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** MetalLB's hash order, then the name so that the order is total (equal digests need equal names). */
function compareKeyed(a: Keyed, b: Keyed): number {
  return a.head - b.head || compareBytes(a.hash, b.hash) || compareText(a.node, b.node);
}

interface Keyed {
  node: string;
  hash: Uint8Array;
  /** The digest's first six bytes as a number: decides almost every comparison without a byte loop. */
  head: number;
}

function keyed(node: string, ip: string): Keyed {
  const digest = electionHash(node, ip);
  return { node, hash: digest, head: Buffer.from(digest.buffer, digest.byteOffset, 6).readUIntBE(0, 6) };
}

/**
 * Every node's place in MetalLB's hash order per address, remembered. A speaker re-runs the election on
 * every membership change, and hashing every node for every service each time dominated the cost at
 * scale (10,000 services × 2000 nodes is 20 million digests). Orders cover every node of the cluster, not
 * only the live ones, so a node coming or going costs nothing; a node never seen before is inserted into
 * each remembered order when that order is next read (a binary search, about eleven digests at 2000).
 */
class HashOrderCache {
  /** Every node name registered, in registration order. */
  private readonly known: string[] = [];
  private readonly seen = new Set<string>();
  /** Per address: node names in hash order, covering the first `covers` of `known`. */
  private readonly orders = new Map<string, { names: string[]; covers: number }>();

  register(nodes: readonly string[]): void {
    for (const n of nodes) {
      if (this.seen.has(n)) continue;
      this.seen.add(n);
      this.known.push(n);
    }
  }

  /** Every registered node in hash order for `ip`, best first; callers skip the ones they rule out. */
  order(ip: string): readonly string[] {
    let entry = this.orders.get(ip);
    if (entry === undefined) {
      const names = this.known
        .map((n) => keyed(n, ip))
        .sort(compareKeyed)
        .map((k) => k.node);
      entry = { names, covers: this.known.length };
      // A bound for long-lived speakers whose services come and go: start over rather than grow forever.
      if (this.orders.size >= 200_000) this.orders.clear();
      this.orders.set(ip, entry);
    }
    for (; entry.covers < this.known.length; entry.covers++)
      insert(entry.names, keyed(this.known[entry.covers]!, ip), ip);
    return entry.names;
  }
}

function insert(names: string[], node: Keyed, ip: string): void {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeyed(keyed(names[mid]!, ip), node) < 0) lo = mid + 1;
    else hi = mid;
  }
  names.splice(lo, 0, node.node);
}

/**
 * The process's one cache: every election of every speaker in the process reads it. Rounds of elections
 * register the cluster's nodes first (clusterView does), then read orders per address.
 */
export const hashOrder = new HashOrderCache();
