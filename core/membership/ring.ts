import { MembershipConfigError } from './errors.ts';
import { nameHash, utf8Length } from './hash.ts';
import type { NodeRef } from './types.ts';

/** Anti-entropy digests split the membership into this many buckets by name hash (see DESIGN.md). */
export const BUCKETS = 64;

/** Kubernetes node names are DNS subdomains: at most 253 bytes, so one length byte carries them. */
export const MAX_NAME_BYTES = 253;

/**
 * The consistent-hash ring every speaker derives from the same node list: nodes ordered by the hash of
 * their name, so successors and predecessors (who monitors whom) agree without coordination. Immutable;
 * identical lists share one Ring, which keeps a 2000-node simulation (2000 speakers) from holding 2000
 * copies.
 */
export class Ring {
  /** Names in ring order; a node's index is its position. */
  readonly names: readonly string[];
  readonly addresses: readonly string[];
  readonly hashes: Uint32Array;
  /** Indices of the nodes in each digest bucket. */
  readonly buckets: readonly (readonly number[])[];
  private readonly index: Map<string, number>;

  private constructor(nodes: readonly NodeRef[]) {
    const seen = new Set<string>();
    for (const [i, n] of nodes.entries()) {
      const where = `nodes[${i}].name`;
      if (typeof n.name !== 'string' || n.name.length === 0)
        throw new MembershipConfigError(where, 'is empty');
      if (utf8Length(n.name) > MAX_NAME_BYTES)
        throw new MembershipConfigError(where, `"${n.name}" is longer than ${MAX_NAME_BYTES} bytes`);
      if (seen.has(n.name)) throw new MembershipConfigError(where, `"${n.name}" appears twice`);
      seen.add(n.name);
    }
    const sorted = nodes
      .map((n) => ({ name: n.name, address: n.address, hash: nameHash(n.name) }))
      .sort((a, b) => a.hash - b.hash || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.names = sorted.map((n) => n.name);
    this.addresses = sorted.map((n) => n.address);
    this.hashes = Uint32Array.from(sorted.map((n) => n.hash));
    this.index = new Map(sorted.map((n, i) => [n.name, i]));
    const buckets: number[][] = Array.from({ length: BUCKETS }, () => []);
    for (let i = 0; i < sorted.length; i++) buckets[bucketOf(this.hashes[i]!)]!.push(i);
    this.buckets = buckets;
  }

  /** The ring of `nodes` (order does not matter); throws MembershipConfigError on a bad or repeated name. */
  static of(nodes: readonly NodeRef[]): Ring {
    // Every speaker of an emulated cluster passes the same frozen list: known by identity, no key to
    // build (sorting 2000 names per speaker). Only a frozen list cannot change under the cache.
    if (!Object.isFrozen(nodes)) return Ring.keyed(nodes);
    let ring = byList.get(nodes);
    if (ring === undefined) byList.set(nodes, (ring = Ring.keyed(nodes)));
    return ring;
  }

  private static keyed(nodes: readonly NodeRef[]): Ring {
    // A handful of lists is all a process sees at once (the current one, the next during a change); a
    // list is matched against those by lookups, without sorting it (each of 2000 emulated speakers
    // passes its own copy of the same list).
    const cached = recent.find((r) => r.holdsExactly(nodes));
    if (cached) return cached;
    const ring = new Ring(nodes);
    recent.unshift(ring);
    if (recent.length > 8) recent.pop();
    return ring;
  }

  /** Whether `nodes` is exactly this ring's list (each name once, with the same address), in any order. */
  private holdsExactly(nodes: readonly NodeRef[]): boolean {
    if (nodes.length !== this.names.length) return false;
    const hit = new Uint8Array(nodes.length);
    for (const n of nodes) {
      const i = this.index.get(n.name);
      if (i === undefined || hit[i] === 1 || this.addresses[i] !== n.address) return false;
      hit[i] = 1;
    }
    return true;
  }

  get size(): number {
    return this.names.length;
  }

  indexOf(name: string): number | undefined {
    return this.index.get(name);
  }

  bucket(i: number): number {
    return bucketOf(this.hashes[i]!);
  }
}

function bucketOf(hash: number): number {
  return hash & (BUCKETS - 1);
}

/** The rings made last, newest first. */
const recent: Ring[] = [];
const byList = new WeakMap<readonly NodeRef[], Ring>();
