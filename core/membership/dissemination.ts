import { type Context, pickDistinct } from './context.ts';
import { ringLegs } from './neighbours.ts';
import { headerByteLength } from './wire/messages.ts';
import { type Update, encodeMessage, updateByteLength } from './wire/index.ts';

const MAX_UPDATES_PER_DATAGRAM = 255;
/**
 * Most updates one heartbeat carries. Piggybacking repairs the odd lost push; in a storm (mass start)
 * the pushes and anti-entropy carry the bulk, and full heartbeats would only be decoded K times over.
 */
const MAX_PIGGYBACK = 16;
/** Updates queued for piggybacking; the oldest are dropped beyond this (anti-entropy repairs them). */
const PIGGYBACK_CAPACITY = 4 * MAX_PIGGYBACK;

/**
 * Infection-style dissemination. A node that learns something new pushes it at once to F members: its
 * first live ring successor (so the push reaches every node even if the random legs miss some: the set
 * of informed nodes is closed under "successor") and F − 1 random ones (so it spreads in ~log_F N hops
 * rather than N). It also rides on our next `piggybackRounds` heartbeats, which repairs pushes lost on
 * the way. Pushes that follow one another within `batchMs` are batched, so a storm (a mass start, a big
 * partition healing) costs datagrams in proportion to the news, not to news × fan-out.
 */
export class Dissemination {
  /** Node names whose current entry is to be pushed at the next flush. */
  private readonly outbox = new Set<string>();
  /** Nodes that sent us the news: pushing it back to them is wasted. */
  private readonly exclude = new Set<string>();
  /** Nodes that must get this flush whatever the random legs pick (who asked us to refute). */
  private readonly also = new Set<string>();
  /** Node name → heartbeats its entry still rides on. Insertion order is age: newest last. */
  private readonly piggy = new Map<string, number>();
  private lastFlush = -Infinity;

  constructor(private readonly ctx: Context) {}

  private get timeout(): number {
    return this.ctx.options.intervalMs * this.ctx.options.multiplier;
  }

  /** Node `name`'s entry is news: push it (batched) and piggyback it. */
  push(name: string, opts: { from?: string; also?: string } = {}): void {
    this.remember(name);
    this.outbox.add(name);
    if (opts.from !== undefined) this.exclude.add(opts.from);
    if (opts.also !== undefined) this.also.add(opts.also);
  }

  /** Node `name`'s entry rides on our next heartbeats only (news repaired by anti-entropy). */
  remember(name: string): void {
    if (this.ctx.options.piggybackRounds === 0) return;
    this.piggy.delete(name);
    this.piggy.set(name, this.ctx.options.piggybackRounds);
    if (this.piggy.size > PIGGYBACK_CAPACITY) this.piggy.delete(this.piggy.keys().next().value!);
  }

  /** Called once an event has been handled: flushes now, or at the end of the current batch window. */
  kick(): void {
    if (this.outbox.size === 0) return;
    const now = this.ctx.clock.now();
    const wait = this.lastFlush + this.ctx.options.batchMs - now;
    if (wait <= 0) this.flush();
    else if (!this.ctx.timers.isArmed('flush')) this.ctx.timers.arm('flush', wait, () => this.flush());
  }

  flush(): void {
    this.ctx.timers.disarm('flush');
    if (this.outbox.size === 0) return;
    const t = this.ctx.table();
    const updates: Update[] = [];
    for (const name of this.outbox) {
      const i = t.ring.indexOf(name);
      const u = i === undefined ? undefined : t.update(i);
      if (u) updates.push(u);
    }
    const skip = new Set<number>([t.self]);
    for (const name of this.exclude) {
      const i = t.ring.indexOf(name);
      if (i !== undefined) skip.add(i);
    }
    const targets = this.fanoutTargets(skip);
    for (const name of this.also) {
      const i = t.ring.indexOf(name);
      if (i !== undefined && i !== t.self && !targets.includes(i)) targets.push(i);
    }
    this.outbox.clear();
    this.exclude.clear();
    this.also.clear();
    this.lastFlush = this.ctx.clock.now();
    this.sendUpdates(targets, 'gossip', updates);
  }

  /** The ring leg (see ringLegs) plus F − 1 random members not known to have left. */
  fanoutTargets(skip: Set<number>): number[] {
    const t = this.ctx.table();
    const f = this.ctx.options.fanout;
    // The ring leg ignores `skip`: skipping the node a batch came from would break the "every informed
    // node informs its successor" chain for the other updates of the batch.
    const out = ringLegs(t, f);
    const ring = out.length;
    for (const i of out) skip.add(i);
    // One leg goes to a node we heard from within a detection time, i.e. one proven reachable now. In
    // steady state that is mostly a ring predecessor; in a partition it is the only leg sure to stay on
    // our side, which is what lets a small minority side agree on who is gone (see DESIGN.md).
    if (f > 1) {
      const recent = t.recentContacts(this.ctx.clock.now(), this.timeout, skip);
      if (recent.length > 0) {
        const i = recent[this.ctx.random.int(0, recent.length - 1)]!;
        out.push(i);
        skip.add(i);
      }
    }
    // Random legs may land on nodes we hold dead: after a partition heals, they are exactly the ones
    // that need the news (the ring leg stays on our side until our view catches up). In steady state a
    // dead node is one of N and costs a leg 1/N of the time.
    const want = Math.max(0, f - 1 - (out.length - ring));
    const picks = pickDistinct(this.ctx.random, t.notLeftCount(), (k) => t.notLeftAt(k), want, skip);
    return out.concat(picks);
  }

  /** Updates to piggyback on this tick's heartbeats, newest first, within `budget` bytes. */
  piggyback(budget: number): Update[] {
    if (this.piggy.size === 0) return [];
    const t = this.ctx.table();
    const out: Update[] = [];
    let used = 1;
    const names = [...this.piggy.keys()];
    for (let k = names.length - 1; k >= 0 && out.length < MAX_PIGGYBACK; k--) {
      const name = names[k]!;
      const i = t.ring.indexOf(name);
      const u = i === undefined ? undefined : t.update(i);
      if (!u) {
        this.piggy.delete(name);
        continue;
      }
      const size = updateByteLength(u);
      if (used + size > budget) continue;
      used += size;
      out.push(u);
      const left = this.piggy.get(name)! - 1;
      if (left <= 0) this.piggy.delete(name);
      else this.piggy.set(name, left);
    }
    return out;
  }

  /** Sends `updates` to every target, split into as few datagrams as fit. */
  sendUpdates(targets: readonly number[], kind: 'gossip' | 'leave', updates: readonly Update[]): void {
    if (targets.length === 0) return;
    const from = this.ctx.name;
    const incarnation = this.ctx.incarnation();
    for (const chunk of packUpdates(updates, this.ctx.options.maxDatagramBytes - headerByteLength(from))) {
      const bytes = encodeMessage({ kind, from, incarnation, updates: chunk });
      for (const i of targets) {
        this.ctx.counters.gossip++;
        this.ctx.sendBytes(i, bytes);
      }
    }
  }

  clear(): void {
    this.outbox.clear();
    this.exclude.clear();
    this.also.clear();
    this.piggy.clear();
  }
}

/** Splits `updates` into lists whose encoding (count byte included) fits `budget` bytes each. */
export function packUpdates(updates: readonly Update[], budget: number): Update[][] {
  const out: Update[][] = [];
  let chunk: Update[] = [];
  let used = 1;
  for (const u of updates) {
    const size = updateByteLength(u);
    if (chunk.length > 0 && (used + size > budget || chunk.length === MAX_UPDATES_PER_DATAGRAM)) {
      out.push(chunk);
      chunk = [];
      used = 1;
    }
    chunk.push(u);
    used += size;
  }
  if (chunk.length > 0) out.push(chunk);
  return out;
}
