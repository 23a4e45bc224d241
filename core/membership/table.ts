import { mix32 } from './hash.ts';
import { IndexSet } from './index-set.ts';
import { EMPTY_META } from './meta-text.ts';
import { ALIVE, DEAD, LEFT, type StateCode, UNKNOWN, supersedes } from './precedence.ts';
import { BUCKETS, type Ring } from './ring.ts';
import { sharedMeta } from './shared-meta.ts';
import type { Meta } from './types.ts';
import type { AliveCause, Update } from './wire/index.ts';

/** Who declared a node dead and after how much silence: the reason every receiver reports. */
export interface DeathNote {
  readonly by: string;
  readonly silentMs: number;
}

const CAUSES: readonly AliveCause[] = ['join', 'refute', 'meta', 'resume'];

/**
 * One speaker's view of every node, in columns indexed by ring position: typed arrays rather than an
 * object per member, because a 2000-node simulation holds 2000 × 2000 entries. It also keeps, updated on
 * every write, the sets gossip picks targets from and the per-bucket digest anti-entropy compares.
 */
export class MemberTable {
  readonly state: Uint8Array;
  readonly incarnation: Uint32Array;
  /**
   * 0 when we hold `alive` from direct evidence only (a heartbeat says "I run at incarnation i" but not
   * its metadata): such an entry is never sent, and any alive update at the same incarnation fills it.
   */
  readonly metaKnown: Uint8Array;
  readonly cause: Uint8Array;
  readonly meta: string[];
  /** When we last received anything from the node itself (or an ack on its behalf); -Infinity if never. */
  readonly lastHeard: Float64Array;
  readonly deaths = new Map<number, DeathNote>();
  /** Alive, unknown and dead nodes other than ourselves (left ones are in none). */
  readonly alive: IndexSet;
  readonly unknown: IndexSet;
  readonly dead: IndexSet;
  /** Sum (mod 2^32) of the entry hashes of each bucket: order-independent and updated in O(1). */
  readonly digest = new Uint32Array(BUCKETS);
  private readonly entryHashes: Uint32Array;
  private readonly metaHash: Uint32Array;

  constructor(
    readonly ring: Ring,
    readonly self: number,
  ) {
    const n = ring.size;
    this.state = new Uint8Array(n);
    this.incarnation = new Uint32Array(n);
    this.metaKnown = new Uint8Array(n);
    this.cause = new Uint8Array(n);
    this.meta = new Array<string>(n).fill('');
    this.lastHeard = new Float64Array(n).fill(-Infinity);
    this.alive = new IndexSet(n);
    this.unknown = new IndexSet(n);
    this.dead = new IndexSet(n);
    this.entryHashes = new Uint32Array(n);
    this.metaHash = new Uint32Array(n);
    for (let i = 0; i < n; i++) if (i !== self) this.unknown.add(i);
  }

  get size(): number {
    return this.ring.size;
  }

  /** Nodes we heard from lately (distinct, newest last): the ones proven reachable right now. */
  private readonly contacts = new Map<number, true>();

  /** Node `i` sent us something at `now`. */
  heard(i: number, now: number): void {
    this.lastHeard[i] = now;
    this.contacts.delete(i);
    this.contacts.set(i, true);
    if (this.contacts.size > 16) this.contacts.delete(this.contacts.keys().next().value!);
  }

  /** Recent contacts heard within `withinMs` of `now`, not in `skip`. */
  recentContacts(now: number, withinMs: number, skip: ReadonlySet<number>): number[] {
    const out: number[] = [];
    for (const i of this.contacts.keys()) {
      if (!skip.has(i) && now - this.lastHeard[i]! <= withinMs && this.state[i] === ALIVE) out.push(i);
    }
    return out;
  }

  /** How many other nodes have not left (alive, unknown or dead): the pool random picks draw from. */
  notLeftCount(): number {
    return this.alive.size + this.unknown.size + this.dead.size;
  }

  /** The k-th of those (k < notLeftCount()), in no particular order. */
  notLeftAt(k: number): number {
    const a = this.alive.size;
    const u = this.unknown.size;
    return k < a ? this.alive.at(k) : k < a + u ? this.unknown.at(k - a) : this.dead.at(k - a - u);
  }

  stateOf(i: number): StateCode {
    return this.state[i] as StateCode;
  }

  /** Whether update `u` about node `i` is news to us (and so would be applied). */
  accepts(i: number, u: Update): boolean {
    const s = STATE_OF[u.state];
    const cur = this.stateOf(i);
    if (supersedes(s, u.incarnation, cur, this.incarnation[i]!)) return true;
    // Same alive claim, but we only knew "it runs" from a heartbeat: take the metadata.
    return s === ALIVE && cur === ALIVE && u.incarnation === this.incarnation[i] && this.metaKnown[i] === 0;
  }

  apply(i: number, u: Update): void {
    switch (u.state) {
      case 'alive':
        this.write(i, ALIVE, u.incarnation);
        this.setMeta(i, u.meta, true);
        this.cause[i] = CAUSES.indexOf(u.cause);
        this.deaths.delete(i);
        return;
      case 'dead':
        this.write(i, DEAD, u.incarnation);
        this.deaths.set(i, { by: u.by, silentMs: u.silentMs });
        return;
      case 'left':
        this.write(i, LEFT, u.incarnation);
        this.deaths.delete(i);
        return;
    }
  }

  /** Alive from direct evidence: keeps the metadata when it is for this same incarnation. */
  revive(i: number, incarnation: number): void {
    const sameLife = incarnation === this.incarnation[i] && this.stateOf(i) !== UNKNOWN;
    this.write(i, ALIVE, incarnation);
    if (!sameLife) this.setMeta(i, '', false);
    this.deaths.delete(i);
  }

  /** What we would tell others about node `i`, or undefined when we know nothing sendable. */
  update(i: number): Update | undefined {
    const node = this.ring.names[i]!;
    const incarnation = this.incarnation[i]!;
    switch (this.stateOf(i)) {
      case ALIVE:
        if (this.metaKnown[i] === 0) return undefined;
        return { node, state: 'alive', incarnation, cause: CAUSES[this.cause[i]!]!, meta: this.meta[i]! };
      case DEAD: {
        const d = this.deaths.get(i);
        return { node, state: 'dead', incarnation, by: d?.by ?? node, silentMs: d?.silentMs ?? 0 };
      }
      case LEFT:
        return { node, state: 'left', incarnation };
      default:
        return undefined;
    }
  }

  /** Metadata of node `i`, parsed once per process. */
  metaOf(i: number): Meta {
    const text = this.meta[i]!;
    return text === '' ? EMPTY_META : sharedMeta(text).meta;
  }

  /** The same view over another ring (the node list changed): entries carried over by name. */
  rebuild(ring: Ring, self: number): MemberTable {
    const t = new MemberTable(ring, self);
    for (let j = 0; j < ring.size; j++) {
      const i = this.ring.indexOf(ring.names[j]!);
      if (i === undefined) continue;
      t.write(j, this.stateOf(i), this.incarnation[i]!);
      t.setMeta(j, this.meta[i]!, this.metaKnown[i] === 1);
      t.cause[j] = this.cause[i]!;
      t.lastHeard[j] = this.lastHeard[i]!;
      const d = this.deaths.get(i);
      if (d) t.deaths.set(j, d);
    }
    return t;
  }

  private write(i: number, state: StateCode, incarnation: number): void {
    const before = this.stateOf(i);
    this.state[i] = state;
    this.incarnation[i] = incarnation;
    if (before !== state && i !== this.self) {
      this.setOf(before)?.delete(i);
      this.setOf(state)?.add(i);
    }
    this.rehash(i);
  }

  setMeta(i: number, text: string, known: boolean): void {
    if (this.meta[i] !== text) {
      const shared = text === '' ? undefined : sharedMeta(text);
      this.meta[i] = shared?.text ?? '';
      this.metaHash[i] = shared?.hash ?? 0;
    }
    this.metaKnown[i] = known ? 1 : 0;
    this.rehash(i);
  }

  private setOf(s: StateCode): IndexSet | undefined {
    return s === ALIVE ? this.alive : s === UNKNOWN ? this.unknown : s === DEAD ? this.dead : undefined;
  }

  private rehash(i: number): void {
    const s = this.stateOf(i);
    let h = 0;
    if (s !== UNKNOWN) {
      // Metadata counts only for alive entries; an entry known from a heartbeat alone hashes apart from
      // every full one, so a digest exchange fetches its metadata.
      const meta = s !== ALIVE ? 0 : this.metaKnown[i] === 1 ? this.metaHash[i]! : 0x5bd1e995;
      h = mix32((this.ring.hashes[i]! ^ Math.imul(this.incarnation[i]!, 0x9e3779b1)) >>> 0);
      h = mix32((h ^ Math.imul(s, 0x27d4eb2f) ^ meta) >>> 0);
    }
    const b = this.ring.bucket(i);
    this.digest[b] = (this.digest[b]! - this.entryHashes[i]! + h) >>> 0;
    this.entryHashes[i] = h;
  }
}

const STATE_OF = { alive: ALIVE, dead: DEAD, left: LEFT } as const;
