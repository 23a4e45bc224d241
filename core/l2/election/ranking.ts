import { hash } from 'node:crypto';

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

/**
 * Orders nodes best first: highest preference score, then MetalLB's hash ascending, then the name so that
 * the order is total even for identical hashes (only possible for identical names).
 */
export function rankNodes(nodes: Iterable<string>, ip: string, score: (node: string) => number): string[] {
  const candidates = [...nodes];
  const byHash = hashOrder.filter(ip, candidates);
  const first = byHash[0] === undefined ? 0 : score(byHash[0]);
  if (byHash.every((n) => score(n) === first)) return byHash;
  // Array.prototype.sort is stable, so nodes of equal score keep their hash order.
  return [...byHash].sort((a, b) => score(b) - score(a));
}

/**
 * Every node's place in MetalLB's hash order for an address, remembered: a speaker re-runs the election
 * on every membership change, and hashing every candidate of every service each time dominated the
 * cost at scale (10,000 services × 2000 nodes is 20 million digests). Orders are kept per address as
 * node ids; a node not seen before rebuilds that address's order.
 */
class HashOrderCache {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  /** Per address: node ids in hash order, covering ids below `covered`. */
  private readonly orders = new Map<string, { order: Int32Array; covered: number }>();
  private mask = new Uint8Array(0);

  filter(ip: string, candidates: readonly string[]): string[] {
    for (const n of candidates) this.idOf(n);
    let entry = this.orders.get(ip);
    if (!entry || candidates.some((n) => this.ids.get(n)! >= entry!.covered)) {
      entry = this.build(ip);
    }
    if (this.mask.length < this.names.length) this.mask = new Uint8Array(this.names.length * 2);
    for (const n of candidates) this.mask[this.ids.get(n)!] = 1;
    const out: string[] = [];
    for (const id of entry.order) {
      if (this.mask[id] === 1) {
        out.push(this.names[id]!);
        this.mask[id] = 0;
      }
    }
    return out;
  }

  private idOf(node: string): number {
    let id = this.ids.get(node);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(node, id);
      this.names.push(node);
    }
    return id;
  }

  private build(ip: string): { order: Int32Array; covered: number } {
    const keyed = this.names.map((node, id) => ({ id, node, hash: electionHash(node, ip) }));
    keyed.sort((a, b) => compareBytes(a.hash, b.hash) || compareText(a.node, b.node));
    const entry = { order: Int32Array.from(keyed, (k) => k.id), covered: this.names.length };
    // A bound for long-lived speakers whose services come and go: start over rather than grow forever.
    if (this.orders.size >= 200_000) this.orders.clear();
    this.orders.set(ip, entry);
    return entry;
  }
}

const hashOrder = new HashOrderCache();

/** Code-unit order, the same on every host (localeCompare is not). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
