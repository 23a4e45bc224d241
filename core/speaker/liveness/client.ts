import type { OwnedVip } from '../../l2/announcer/index.ts';
import {
  EMPTY_META,
  isEmptyMeta,
  Ring,
  type Change,
  type Member,
  type Meta,
  type NodeRef,
} from '../../membership/index.ts';
import { ALIVE, STATE_CODES, STATE_NAMES } from '../../membership/precedence.ts';
import type { Channel } from '../../runtime/channel.ts';
import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import type { FromLiveness, LivenessStats, ToLiveness } from './messages.ts';

/** Recent alive sets by ring and state column: speakers holding the same view share one set. */
const aliveSets = new WeakMap<Ring, Map<string, ReadonlySet<string>>>();
const latin1 = new TextDecoder('latin1');

/**
 * The names of the nodes `state` holds alive. The emulator runs thousands of speakers whose views are
 * mostly the same, and each election reads this set: at 2000 nodes one set per speaker was 70 MB.
 * Sets are never written once made, so sharing them is safe.
 */
function aliveSet(ring: Ring, state: Uint8Array): ReadonlySet<string> {
  let recent = aliveSets.get(ring);
  if (recent === undefined) aliveSets.set(ring, (recent = new Map()));
  const key = latin1.decode(state);
  let names = recent.get(key);
  if (names === undefined) {
    const made = new Set<string>();
    state.forEach((s, i) => s === ALIVE && made.add(ring.names[i]!));
    names = made;
    recent.set(key, names);
    // Views differ only while news spreads; a few recent ones are all that is shared.
    if (recent.size > 16) recent.delete(recent.keys().next().value!);
  }
  return names;
}

/** A structured clone of `{}` is a new object; one shared empty object keeps the elections' caches hot. */
function shareEmpty(meta: Meta): Meta {
  return isEmptyMeta(meta) ? EMPTY_META : meta;
}

/**
 * The main thread's side of the liveness thread (agent.ts): what the speaker's election needs from
 * membership (who is alive, their published interfaces, changes as they happen) and the way to tell the
 * announcer what to answer for. It keeps a mirror of the membership view, updated by the agent's
 * messages, and beats every `beatMs` so the agent knows the main thread runs.
 *
 * The mirror is columns indexed by ring position, as membership's own table is: the emulator runs
 * thousands of speakers in one process, and their rings are one shared object.
 */
export class LivenessClient {
  private ring = Ring.of([]);
  private state: Uint8Array = new Uint8Array(0);
  private incarnation: Uint32Array = new Uint32Array(0);
  private meta: Meta[] = [];
  private isSynced = false;
  private isVouching = true;
  private aliveCache: ReadonlySet<string> | undefined;
  private readonly changeListeners = new Set<(c: Change) => void>();
  private readonly syncedListeners = new Set<() => void>();
  private readonly vouchingListeners = new Set<(vouching: boolean, reason: string) => void>();
  private readonly timers: NamedTimers<'beat'>;
  private closing: ((stats: LivenessStats) => void)[] = [];
  /** Waiting for `stats` replies, in the order asked: the port keeps order, so replies come in it. */
  private asking: ((stats: LivenessStats) => void)[] = [];
  /** The addresses last sent to the liveness thread, as text; undefined until the first election. */
  private ownedKey: string | undefined;
  private stopped = false;

  constructor(
    clock: Clock,
    private readonly channel: Channel<FromLiveness, ToLiveness>,
    private readonly beatMs: number,
    name: string,
  ) {
    this.timers = new NamedTimers(clock, `liveness client ${name}: `);
    channel.onMessage((m) => this.onMessage(m));
    this.beat();
  }

  // ---- membership, as the election reads it ----

  alive(): ReadonlySet<string> {
    this.aliveCache ??= aliveSet(this.ring, this.state);
    return this.aliveCache;
  }

  members(): Member[] {
    return this.ring.names.map((name, i) => ({
      name,
      address: this.ring.addresses[i]!,
      state: STATE_NAMES[this.state[i]!]!,
      incarnation: this.incarnation[i]!,
      meta: this.meta[i]!,
    }));
  }

  synced(): boolean {
    return this.isSynced;
  }

  onChange(listener: (change: Change) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onSynced(listener: () => void): () => void {
    this.syncedListeners.add(listener);
    return () => this.syncedListeners.delete(listener);
  }

  /** Whether the liveness thread vouches for this node, as it last said (it starts out vouching). */
  vouching(): boolean {
    return this.isVouching;
  }

  /** Whether the liveness thread vouches for this node (it stops when the main thread stalls too long). */
  onVouching(listener: (vouching: boolean, reason: string) => void): () => void {
    this.vouchingListeners.add(listener);
    return () => this.vouchingListeners.delete(listener);
  }

  setNodes(nodes: readonly NodeRef[]): void {
    this.channel.post({ op: 'nodes', nodes: nodes.map((n) => ({ name: n.name, address: n.address })) });
  }

  setMeta(meta: Meta): void {
    this.channel.post({ op: 'meta', meta });
  }

  rotateKey(key: Uint8Array): void {
    this.channel.post({ op: 'key', key });
  }

  leave(): void {
    this.channel.post({ op: 'leave' });
  }

  /** Membership stops with the announcer (close): the agent does both at once. */
  stop(): void {
    this.stopped = true;
  }

  // ---- the announcer, as the election drives it ----

  /**
   * What the election gave this node. Most elections change nothing here (another node's service moved):
   * then nothing is sent, and the liveness thread does no work for them.
   */
  setOwned(vips: readonly OwnedVip[], reason: string): void {
    const addresses = vips.map((v) => ({ ip: v.ip.toString(), interfaces: [...v.interfaces] }));
    const key = addresses.map((a) => `${a.ip}@${a.interfaces.join(',')}`).join(' ');
    if (key === this.ownedKey) return;
    this.ownedKey = key;
    this.channel.post({ op: 'owned', addresses, reason });
  }

  reannounce(reason: string): void {
    this.channel.post({ op: 'reannounce', reason });
  }

  close(reason: string): void {
    this.channel.post({ op: 'close', reason });
  }

  /**
   * What the liveness thread counts, asked for now (a scrape of /metrics). Never settles if the thread is
   * gone or frozen: a caller that must answer anyway races it with a timer.
   */
  stats(): Promise<LivenessStats> {
    return new Promise((resolve) => {
      this.asking.push(resolve);
      this.channel.post({ op: 'stats' });
    });
  }

  /** Resolves with the agent's final counters once it has closed (after close()). */
  closed(): Promise<LivenessStats> {
    return new Promise((resolve) => this.closing.push(resolve));
  }

  private beat(): void {
    if (this.stopped) return;
    this.channel.post({ op: 'beat' });
    this.timers.arm('beat', this.beatMs, () => this.beat());
  }

  private onMessage(m: FromLiveness): void {
    switch (m.op) {
      case 'view': {
        // The columns are this message's own copies (a worker's port clones them anyway): kept as they are.
        const { nodes, state, incarnation, meta } = m.members;
        this.ring = Ring.of(nodes);
        this.state = state;
        this.incarnation = incarnation;
        this.meta = meta.map(shareEmpty);
        this.aliveCache = undefined;
        if (m.synced) this.markSynced();
        return;
      }
      case 'change': {
        const i = this.ring.indexOf(m.change.node);
        if (i !== undefined)
          this.set(i, { state: m.change.to, incarnation: m.change.incarnation, meta: m.meta });
        for (const l of this.changeListeners) l(m.change);
        return;
      }
      case 'synced':
        this.markSynced();
        return;
      case 'vouching':
        this.isVouching = m.vouching;
        for (const l of this.vouchingListeners) l(m.vouching, m.reason);
        return;
      case 'stats':
        this.asking.shift()?.(m.stats);
        return;
      case 'closed':
        this.stopped = true;
        this.timers.disarmAll();
        // A closed agent answers no more questions: whoever still waits gets its last word.
        for (const resolve of [...this.closing.splice(0), ...this.asking.splice(0)]) resolve(m.stats);
        return;
    }
  }

  private set(i: number, m: Pick<Member, 'state' | 'incarnation' | 'meta'>): void {
    this.state[i] = STATE_CODES[m.state];
    this.incarnation[i] = m.incarnation;
    this.meta[i] = shareEmpty(m.meta);
    this.aliveCache = undefined;
  }

  private markSynced(): void {
    if (this.isSynced) return;
    this.isSynced = true;
    for (const l of this.syncedListeners) l();
  }
}
