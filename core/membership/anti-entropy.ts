import { type Context, pickDistinct, shuffle } from './context.ts';
import { packUpdates } from './dissemination.ts';
import { liveSuccessor } from './neighbours.ts';
import { BUCKETS } from './ring.ts';
import {
  type DigestMessage,
  type SyncMessage,
  type Update,
  encodeMessage,
  updateByteLength,
} from './wire/index.ts';
import { headerByteLength } from './wire/messages.ts';

/** Most datagrams one digest answer may take: a whole 2000-node table fits, a storm stays bounded. */
const MAX_SYNC_DATAGRAMS = 32;

/**
 * Anti-entropy: every `antiEntropyMs` (±25 %), a digest to one random member — 64 bucket hashes of our
 * table, 256 bytes whatever N is. The receiver answers with its entries for the buckets that differ
 * (reply wanted), and we answer that with whatever we know better: one push-pull round repairs any
 * update gossip lost. A starting node sends a join digest at once, which also teaches it its previous
 * life's incarnation (a restart outranks it by refuting).
 */
export class AntiEntropy {
  /** When nodes died in our view within the last period, oldest first: two or more hint at a partition. */
  private readonly deaths: number[] = [];
  /** Exchanging every interval with a recent contact rather than every period at random; see round(). */
  private hurried = false;

  constructor(private readonly ctx: Context) {}

  /** Arms the periodic exchange; with `join`, first asks two members for their view at once. */
  start({ join }: { join: boolean }): void {
    if (!join) return this.arm();
    const t = this.ctx.table();
    const skip = new Set([t.self]);
    const first = liveSuccessor(t, skip);
    if (first !== undefined) skip.add(first);
    const targets = first === undefined ? [] : [first];
    targets.push(...this.randomMembers(1, skip));
    for (const i of targets) this.sendDigest(i, true);
    this.arm();
  }

  /** A node died in our view. The second death within a period hurries the next exchange. */
  noteDeath(): void {
    this.deaths.push(this.ctx.clock.now());
    if (!this.hurried && this.recentDeaths() >= 2) this.arm();
  }

  private recentDeaths(): number {
    const now = this.ctx.clock.now();
    while (this.deaths.length > 0 && now - this.deaths[0]! > this.ctx.options.antiEntropyMs)
      this.deaths.shift();
    return this.deaths.length;
  }

  private arm(): void {
    const { antiEntropyMs, intervalMs } = this.ctx.options;
    this.hurried = this.recentDeaths() >= 2;
    const period = this.hurried
      ? intervalMs * (0.75 + 0.25 * this.ctx.random.next())
      : antiEntropyMs * (0.75 + 0.5 * this.ctx.random.next());
    this.ctx.timers.arm('anti-entropy', period, () => this.round());
  }

  /**
   * One exchange. Normally with a random member. When several nodes died in our view within the last
   * period we may be on one side of a partition, where most members are unreachable and a random pick
   * rarely finds our own side: then we exchange every interval, with a node we heard from lately
   * (proven reachable), so the deaths each of our side's monitors saw merge into one view quickly.
   */
  private round(): void {
    const t = this.ctx.table();
    const skip = new Set([t.self]);
    let target: number | undefined;
    if (this.hurried) {
      const recent = t.recentContacts(this.ctx.clock.now(), this.ctx.options.antiEntropyMs, skip);
      if (recent.length > 0) target = recent[this.ctx.random.int(0, recent.length - 1)];
    }
    target ??= this.randomMembers(1, skip)[0];
    if (target !== undefined) this.sendDigest(target, false);
    this.arm();
  }

  /** Uniform picks among every member not known to have left (dead ones too: that heals partitions). */
  private randomMembers(count: number, skip: Set<number>): number[] {
    const t = this.ctx.table();
    return pickDistinct(this.ctx.random, t.notLeftCount(), (k) => t.notLeftAt(k), count, skip);
  }

  private sendDigest(i: number, join: boolean): void {
    const t = this.ctx.table();
    this.ctx.counters.digests++;
    this.ctx.send(i, {
      kind: 'digest',
      from: this.ctx.name,
      incarnation: this.ctx.incarnation(),
      join,
      hashes: Uint32Array.from(t.digest),
    });
  }

  onDigest(m: DigestMessage, from: number): void {
    const t = this.ctx.table();
    const differing: number[] = [];
    for (let b = 0; b < BUCKETS; b++) if (m.hashes[b] !== t.digest[b]) differing.push(b);
    if (differing.length === 0) {
      // A starting node waits for one answer before trusting its view; tell it we agree.
      if (m.join) this.sendSync(from, false, [], []);
      return;
    }
    shuffle(this.ctx.random, differing);
    const budget = this.ctx.options.maxDatagramBytes - headerByteLength(this.ctx.name) - 1 - BUCKETS;
    let datagrams = 0;
    let buckets: number[] = [];
    let updates: Update[] = [];
    let used = 1;
    const send = () => {
      if (buckets.length === 0 && updates.length === 0) return;
      this.sendSync(from, true, buckets, updates);
      datagrams++;
      buckets = [];
      updates = [];
      used = 1;
    };
    for (const b of differing) {
      if (datagrams >= MAX_SYNC_DATAGRAMS) break;
      const entries: Update[] = [];
      let size = 0;
      for (const i of t.ring.buckets[b]!) {
        const u = t.update(i);
        if (!u) continue;
        entries.push(u);
        size += updateByteLength(u);
      }
      if (used + size > budget || updates.length + entries.length > 255) send();
      if (1 + size <= budget && entries.length <= 255) {
        buckets.push(b);
        updates.push(...entries);
        used += size;
        continue;
      }
      // A bucket too big for one datagram (large metadata) goes in pieces, none marked as whole.
      for (const chunk of packUpdates(entries, budget)) {
        if (datagrams >= MAX_SYNC_DATAGRAMS) break;
        this.sendSync(from, true, [], chunk);
        datagrams++;
      }
    }
    if (datagrams < MAX_SYNC_DATAGRAMS) send();
  }

  onSync(m: SyncMessage, from: number): void {
    this.ctx.markSynced();
    this.ctx.receiveUpdates(m.updates, from, 'sync');
    if (!m.reply) return;
    // Having applied theirs, any entry of ours that still differs is newer: send it back, and every
    // entry of a whole bucket they did not list (they have never heard of it).
    const t = this.ctx.table();
    const seen = new Set<number>();
    const out: Update[] = [];
    for (const u of m.updates) {
      const i = t.ring.indexOf(u.node);
      if (i === undefined) continue;
      seen.add(i);
      const mine = t.update(i);
      if (mine && !sameClaim(mine, u)) out.push(mine);
    }
    for (const b of m.buckets) {
      for (const i of t.ring.buckets[b]!) {
        if (seen.has(i)) continue;
        const mine = t.update(i);
        if (mine) out.push(mine);
      }
    }
    if (out.length === 0) return;
    const chunks = packUpdates(out, this.ctx.options.maxDatagramBytes - headerByteLength(this.ctx.name) - 1);
    for (const chunk of chunks.slice(0, MAX_SYNC_DATAGRAMS)) this.sendSync(from, false, [], chunk);
  }

  private sendSync(i: number, reply: boolean, buckets: number[], updates: Update[]): void {
    this.ctx.counters.syncs++;
    const bytes = encodeMessage({
      kind: 'sync',
      from: this.ctx.name,
      incarnation: this.ctx.incarnation(),
      reply,
      buckets,
      updates,
    });
    this.ctx.sendBytes(i, bytes);
  }
}

function sameClaim(a: Update, b: Update): boolean {
  if (a.state !== b.state || a.incarnation !== b.incarnation) return false;
  return a.state !== 'alive' || b.state !== 'alive' || a.meta === b.meta;
}
