import { type Clock, NamedTimers } from '../runtime/clock.ts';
import type { DatagramAddress, DatagramPort } from '../runtime/ports.ts';
import type { Random } from '../runtime/random.ts';
import { AntiEntropy } from './anti-entropy.ts';
import { MembershipAuth } from './auth/membership-auth.ts';
import type { Context } from './context.ts';
import type { ConvergedView } from './converged-view.ts';
import { Detector } from './detector.ts';
import { Dissemination } from './dissemination.ts';
import { MembershipConfigError } from './errors.ts';
import { metaAsText } from './meta-text.ts';
import { heartbeatTargets, watchedNodes } from './neighbours.ts';
import { type MembershipOptions, resolveOptions } from './options.ts';
import { ALIVE, DEAD, LEFT, STATE_NAMES, UNKNOWN } from './precedence.ts';
import { reasons, updateReason } from './reasons.ts';
import { Ring } from './ring.ts';
import { MemberTable } from './table.ts';
import type { Change, Counters, Member, MemberColumns, Meta, NodeRef, State } from './types.ts';
import { type Message, type Update, decodeMessage, encodeMessage, headerByteLength } from './wire/index.ts';

export interface MembershipConfig {
  readonly clock: Clock;
  readonly random: Random;
  /** Our membership socket; we send to every peer at (its address, options.membershipPort). */
  readonly port: DatagramPort;
  readonly self: NodeRef;
  /** Every cluster node (from the Node objects); we are added if missing. */
  readonly nodes: readonly NodeRef[];
  readonly options?: Partial<MembershipOptions>;
  /**
   * Seals every datagram under the cluster's shared key and refuses any that is not sealed, forged or
   * replayed. Without it the protocol trusts the network, as memberlist does without its keyring.
   */
  readonly auth?: MembershipAuth;
  /**
   * Start as a member of a cluster that has run for a while (see ConvergedView): every node of the view
   * alive, our view synced, nothing to announce. What a real start reaches once the whole cluster has
   * heard of everyone; the emulator uses it when it starts a whole cluster at once.
   */
  readonly converged?: ConvergedView;
}

/** Why a datagram was refused before anything in it was believed (counted under the same name). */
export type Refusal = 'malformed' | 'foreign' | 'unauthenticated' | 'forged' | 'replayed';

/** `suspended`: running but not vouching for this node (suspend()); nothing goes out or comes in. */
type Phase = 'new' | 'running' | 'suspended' | 'stopped';

/**
 * A speaker's view of which speakers run, agreed with every other speaker within a fraction of a second.
 * Protocol and bounds: core/membership/DESIGN.md. Sans-I/O: time from the injected Clock, randomness
 * from the seeded Random, packets through the DatagramPort.
 */
export class Membership {
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly port: DatagramPort;
  private readonly self: NodeRef;
  private readonly options: MembershipOptions;
  private readonly timers: NamedTimers;
  private readonly ctx: Context;
  private readonly detector: Detector;
  private readonly dissemination: Dissemination;
  private readonly antiEntropy: AntiEntropy;
  private readonly listeners = new Set<(c: Change) => void>();
  private readonly syncedListeners = new Set<() => void>();
  private readonly refusalListeners = new Set<(r: Refusal, from: DatagramAddress, sender?: string) => void>();
  private readonly auth: MembershipAuth | undefined;
  private readonly pendingChanges: Change[] = [];
  private readonly counts: Counters = {
    sent: 0,
    received: 0,
    bytesSent: 0,
    bytesReceived: 0,
    malformed: 0,
    foreign: 0,
    unauthenticated: 0,
    forged: 0,
    replayed: 0,
    heartbeats: 0,
    gossip: 0,
    digests: 0,
    syncs: 0,
    pings: 0,
    suspicions: 0,
    declaredDead: 0,
    refutations: 0,
    stalls: 0,
  };
  private table: MemberTable;
  /** The list the table's ring was made of. */
  private nodeList: readonly NodeRef[];
  private phase: Phase = 'new';
  private incarnation: number;
  private metaText = '';
  private isSynced = false;
  /** Whether a peer has answered our start-up digest. */
  private answered = false;
  private lastTick = 0;
  /** The ring walks are recomputed at the next tick after anyone's liveness changed. */
  private dirty = true;
  private targets: number[] = [];
  private aliveCache: ReadonlySet<string> | undefined;
  /** Last refutation request we sent each node, so a burst of rumours costs it one datagram. */
  private readonly noticed = new Map<string, number>();
  /** Deaths learned by anti-entropy, held until the node had `confirmMs` to refute them. */
  private readonly verifying = new Map<string, { update: Update; via: string; since: number }>();
  private unsubscribe: (() => void) | undefined;

  constructor(config: MembershipConfig) {
    this.clock = config.clock;
    this.random = config.random;
    this.port = config.port;
    this.self = config.self;
    this.auth = config.auth;
    const options = resolveOptions(config.options);
    // Sealing makes every datagram longer; what membership packs into one stays under the limit with it.
    this.options = this.auth
      ? { ...options, maxDatagramBytes: options.maxDatagramBytes - MembershipAuth.OVERHEAD }
      : options;
    this.incarnation = this.options.incarnation;
    this.timers = new NamedTimers(this.clock, `membership ${config.self.name}: `);
    this.nodeList = withSelf(config.nodes, config.self);
    const ring = Ring.of(this.nodeList);
    this.table = new MemberTable(ring, ring.indexOf(config.self.name)!);
    this.writeSelf('join');
    if (config.converged) this.assume(config.converged);
    this.ctx = {
      clock: this.clock,
      random: this.random,
      options: this.options,
      timers: this.timers,
      counters: this.counts,
      name: config.self.name,
      table: () => this.table,
      incarnation: () => this.incarnation,
      send: (i, msg) => this.sendBytes(i, encodeMessage(msg)),
      sendBytes: (i, bytes) => this.sendBytes(i, bytes),
      declareDead: (i, silentMs) => this.declareDead(i, silentMs),
      receiveUpdates: (updates, from, via) => this.receiveUpdates(updates, from, via),
      markSynced: () => {
        this.answered = true;
        this.syncIfComplete();
      },
    };
    this.detector = new Detector(this.ctx);
    this.dissemination = new Dissemination(this.ctx);
    this.antiEntropy = new AntiEntropy(this.ctx);
  }

  private get timeout(): number {
    return this.options.intervalMs * this.options.multiplier;
  }

  // ---- public API ----

  /** Starts heartbeats, announces us and asks a neighbour for its view. */
  start(): void {
    if (this.phase !== 'new') return;
    this.phase = 'running';
    this.listen();
    this.lastTick = this.clock.now();
    this.table.lastHeard[this.table.self] = this.lastTick;
    if (this.isSynced) {
      // A converged view: everyone knows us already, so there is no claim to push and no view to ask for.
      this.antiEntropy.start({ join: false });
    } else {
      this.dissemination.push(this.self.name);
      this.antiEntropy.start({ join: true });
      // Alone (or nobody answers): after one detection time our own view is the best there is.
      this.timers.arm('synced', this.timeout, () => this.markSynced());
    }
    this.tick();
  }

  /** The cluster's node list changed: new nodes start unknown, removed ones are forgotten. */
  setNodes(nodes: readonly NodeRef[]): void {
    const list = withSelf(nodes, this.self);
    const ring = Ring.of(list);
    const old = this.table;
    if (ring === old.ring) return;
    this.nodeList = list;
    this.table = old.rebuild(ring, ring.indexOf(this.self.name)!);
    for (let i = 0; i < old.size; i++) {
      const name = old.ring.names[i]!;
      if (ring.indexOf(name) !== undefined) continue;
      this.auth?.forget(name);
      this.change(name, STATE_NAMES[old.state[i]!]!, 'left', old.incarnation[i]!, reasons.removed);
    }
    this.dirty = true;
    this.aliveCache = undefined;
    this.finish();
  }

  /**
   * Publishes our metadata (a JSON object of at most 512 bytes as JSON text): it travels with our
   * alive claims, versioned by incarnation, so setting it raises our incarnation and gossips it.
   */
  setMeta(meta: Meta): void {
    const text = metaAsText(meta);
    if (text === this.metaText) return;
    this.metaText = text;
    if (this.phase !== 'running') {
      this.writeSelf('join');
      return;
    }
    this.raiseIncarnation(this.incarnation + 1, 'meta');
    this.finish();
  }

  /** Tells the cluster we are leaving (peers drop us at once, no detection delay), then stops. */
  leave(): void {
    if (this.phase === 'suspended') this.stop();
    if (this.phase !== 'running') return;
    const t = this.table;
    t.apply(t.self, { node: this.self.name, state: 'left', incarnation: this.incarnation });
    const skip = new Set<number>([t.self, ...this.targets]);
    const targets = [...this.targets, ...this.dissemination.fanoutTargets(skip)];
    this.dissemination.sendUpdates(targets, 'leave', [t.update(t.self)!]);
    this.stop();
  }

  /** Stops timers and stops listening; the port is the caller's to close. */
  stop(): void {
    if (this.phase === 'stopped') return;
    this.quiesce();
    this.phase = 'stopped';
    this.aliveCache = undefined;
    this.emit();
  }

  /**
   * Stops vouching for this node while keeping our view: nothing goes out and nothing is read, exactly
   * what peers see of a frozen process, so they declare us dead and take over. The speaker does this when
   * its main thread has stopped running (it could no longer follow a change). `resume()` undoes it.
   */
  suspend(): void {
    if (this.phase !== 'running') return;
    this.quiesce();
    this.phase = 'suspended';
  }

  /**
   * Vouches again after suspend(), as a frozen process does when it resumes (DESIGN.md, "Hung node"): a
   * new incarnation pushed with cause `resume` before anything else, fresh timeouts for the nodes we
   * watch, and a join digest so what we missed comes back at once.
   */
  resume(): void {
    if (this.phase !== 'suspended') return;
    this.phase = 'running';
    this.listen();
    // No tick ran for longer than anyone waits for us: the first send raises our incarnation (checkStall).
    this.lastTick = -Infinity;
    this.dirty = true;
    this.antiEntropy.start({ join: true });
    this.tick();
  }

  /** Names of the nodes we hold alive, ourselves included while running. */
  alive(): ReadonlySet<string> {
    if (!this.aliveCache) {
      const t = this.table;
      const names = new Set<string>();
      if (this.phase === 'running' || this.phase === 'suspended') names.add(this.self.name);
      for (let k = 0; k < t.alive.size; k++) names.add(t.ring.names[t.alive.at(k)]!);
      this.aliveCache = names;
    }
    return this.aliveCache;
  }

  member(name: string): Member | undefined {
    const i = this.table.ring.indexOf(name);
    return i === undefined ? undefined : this.memberAt(i);
  }

  members(): Member[] {
    return this.table.ring.names.map((_, i) => this.memberAt(i));
  }

  /** members() as columns (copies), for a mirror of the whole view. */
  columns(): MemberColumns {
    const t = this.table;
    return {
      nodes: this.nodeList,
      state: t.state.slice(),
      incarnation: t.incarnation.slice(),
      meta: t.ring.names.map((_, i) => t.metaOf(i)),
    };
  }

  /** Whether a peer has answered our start-up digest and we know every node (or a detection time passed):
   * before that our view is partial, so a speaker should not claim addresses on it. */
  synced(): boolean {
    return this.isSynced;
  }

  onChange(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onSynced(listener: () => void): () => void {
    this.syncedListeners.add(listener);
    return () => this.syncedListeners.delete(listener);
  }

  counters(): Readonly<Counters> {
    return { ...this.counts };
  }

  /** Nodes we currently monitor (diagnostics). */
  watching(): string[] {
    return this.detector.watched();
  }

  /** Calls `listener` for every datagram refused before it was believed (see Refusal). */
  onRefused(listener: (refusal: Refusal, from: DatagramAddress, sender?: string) => void): () => void {
    this.refusalListeners.add(listener);
    return () => this.refusalListeners.delete(listener);
  }

  /** A new shared key for authenticated membership (the key file or Secret changed). */
  rotateKey(key: Uint8Array): boolean {
    if (this.auth === undefined)
      throw new MembershipConfigError('auth', 'this membership was started without a key');
    return this.auth.rotate(key);
  }

  // ---- the tick: heartbeats to our monitors ----

  private tick(): void {
    if (this.phase !== 'running') return;
    const now = this.clock.now();
    this.checkStall();
    this.lastTick = now;
    const t = this.table;
    t.lastHeard[t.self] = now;
    if (this.dirty) this.neighbours();
    const updates = this.dissemination.piggyback(
      this.options.maxDatagramBytes - headerByteLength(this.self.name),
    );
    const bytes = encodeMessage({
      kind: 'heartbeat',
      from: this.self.name,
      incarnation: this.incarnation,
      updates,
    });
    for (const i of this.targets) {
      this.counts.heartbeats++;
      this.sendBytes(i, bytes);
    }
    this.probeDown(bytes);
    // Jitter to 75–100 % of the interval (as BFD does): ticks of different nodes drift apart, and a
    // monitor always gets `multiplier` heartbeats inside its timeout.
    this.timers.arm('tick', this.options.intervalMs * (0.75 + 0.25 * this.random.next()), () => this.tick());
    this.finish();
  }

  /**
   * One heartbeat to a random dead or never-heard node, with a probability that makes each such node
   * receive about two probes per tick from the whole cluster (not N): whoever comes back — a healed
   * partition, a node that was frozen — is noticed within a tick or two, at a constant cost.
   */
  private probeDown(bytes: Uint8Array): void {
    const t = this.table;
    const down = t.dead.size + t.unknown.size;
    if (down === 0 || t.size <= 1) return;
    if (!this.random.chance(Math.min(1, (2 * down) / (t.size - 1)))) return;
    const k = this.random.int(0, down - 1);
    const i = k < t.dead.size ? t.dead.at(k) : t.unknown.at(k - t.dead.size);
    if (this.targets.includes(i)) return;
    this.counts.heartbeats++;
    this.sendBytes(i, bytes);
  }

  // ---- receiving ----

  private onDatagram(payload: Uint8Array, source: DatagramAddress): void {
    if (this.phase !== 'running') return;
    this.counts.received++;
    this.counts.bytesReceived += payload.length;
    let bytes = payload;
    let counter = 0;
    if (this.auth) {
      const opened = this.auth.unseal(payload);
      if (!opened.ok) return this.refuse(opened.reason, source);
      ({ message: bytes, counter } = opened);
    }
    const decoded = decodeMessage(bytes);
    if (!decoded.ok) return this.refuse('malformed', source);
    const m = decoded.message;
    const from = this.table.ring.indexOf(m.from);
    // Only nodes of the cluster take part; a datagram naming us as sender is someone else's mistake.
    // The source address is not checked: a multi-homed node may send from another one (DESIGN.md).
    if (from === undefined || from === this.table.self) return this.refuse('foreign', source, m.from);
    // Checked by the sender's name, not its address: a replay from any host is still the same datagram.
    if (this.auth && !this.auth.fresh(m.from, counter)) return this.refuse('replayed', source, m.from);
    this.handle(m, from);
    this.finish();
  }

  private refuse(refusal: Refusal, source: DatagramAddress, sender?: string): void {
    this.counts[refusal]++;
    for (const l of this.refusalListeners) l(refusal, source, sender);
  }

  private handle(m: Message, from: number): void {
    switch (m.kind) {
      case 'heartbeat':
      case 'gossip':
        // Updates first: when the sender's own claim is among them ("refuted", "resumed"), that is the
        // reason we report, rather than the bare fact that we heard from it.
        this.receiveUpdates(m.updates, from, 'gossip');
        this.evidence(from, m.incarnation);
        return;
      case 'leave':
        // A goodbye is no proof of life.
        this.receiveUpdates(m.updates, from, 'gossip');
        return;
    }
    this.evidence(from, m.incarnation);
    switch (m.kind) {
      case 'digest':
        this.antiEntropy.onDigest(m, from);
        return;
      case 'sync':
        this.antiEntropy.onSync(m, from);
        return;
      case 'ping':
      case 'ping-req':
      case 'ack':
        this.detector.onProbe(m, from);
        return;
    }
  }

  /** A datagram from node `i` at `incarnation`: it runs, whatever rumours say. */
  private evidence(i: number, incarnation: number): void {
    const t = this.table;
    t.heard(i, this.clock.now());
    const held = t.incarnation[i]!;
    switch (t.stateOf(i)) {
      case ALIVE:
        return;
      case UNKNOWN:
        t.revive(i, incarnation);
        this.stateChanged(i, 'unknown', reasons.firstHeartbeat);
        return;
      case DEAD: {
        const note = t.update(i)!;
        t.revive(i, Math.max(held, incarnation));
        this.stateChanged(
          i,
          'dead',
          incarnation > held ? reasons.backAt(incarnation, held) : reasons.heardWhileDead(held),
        );
        // Everyone else still holds it dead at `held`; only the node can outrank that. Tell it.
        if (incarnation <= held) this.notice(i, note);
        return;
      }
      case LEFT:
        if (incarnation > held) {
          t.revive(i, incarnation);
          this.stateChanged(i, 'left', reasons.heardAfterLeaving(incarnation));
        } else {
          // A datagram sent before its goodbye, or the speaker restarted at an old incarnation: tell
          // it; a new life refutes, an old datagram changes nothing.
          this.notice(i, t.update(i)!);
        }
        return;
    }
  }

  private receiveUpdates(updates: readonly Update[], from: number, via: 'gossip' | 'sync'): void {
    const t = this.table;
    const fromName = t.ring.names[from]!;
    for (const u of updates) {
      const i = t.ring.indexOf(u.node);
      if (i === undefined) continue;
      if (i === t.self) {
        this.claimAboutSelf(u, fromName);
        continue;
      }
      if (!t.accepts(i, u)) continue;
      if (
        u.state === 'dead' &&
        t.stateOf(i) === ALIVE &&
        (via === 'sync' || this.clock.now() - t.lastHeard[i]! < this.timeout)
      ) {
        // Either we heard the node itself within a detection time (the declaring monitor may have a
        // path that loses only its packets), or the death comes by anti-entropy (it may be the stale
        // view of a node that was cut off). Give the node `confirmMs` to refute before believing it.
        this.verify(
          i,
          u,
          via === 'sync' ? `anti-entropy with ${fromName}` : `${fromName} (we heard it lately)`,
        );
        continue;
      }
      this.applyUpdate(i, u, updateReason(u));
      // Whatever is news to us is pushed on, however we learned it (anti-entropy included): that is what
      // makes "every informed node informs its ring successor" hold, so a push reaches every node.
      this.dissemination.push(u.node, { from: fromName });
    }
  }

  /** Someone told us about ourselves: if it contradicts us (dead, left, or an older life), refute. */
  private claimAboutSelf(u: Update, fromName: string): void {
    if (this.phase !== 'running') return;
    const contradicts =
      u.state === 'alive'
        ? u.incarnation > this.incarnation || (u.incarnation === this.incarnation && u.meta !== this.metaText)
        : u.incarnation >= this.incarnation;
    if (!contradicts) return;
    this.counts.refutations++;
    this.raiseIncarnation(u.incarnation + 1, 'refute', fromName);
  }

  /**
   * A death we have reason to doubt: the node gets `confirmMs` to refute it (we send it the claim)
   * before we believe it, so one monitor's bad path or one node's stale view does not make the rest
   * flap. A node that is really dead costs us `confirmMs` of delay.
   */
  private verify(i: number, u: Update, via: string): void {
    const name = u.node;
    if (this.verifying.has(name)) return;
    this.verifying.set(name, { update: u, via, since: this.clock.now() });
    this.notice(i, u, true);
    this.timers.arm(`verify:${name}`, this.options.confirmMs, () => {
      const v = this.verifying.get(name);
      this.verifying.delete(name);
      const j = this.table.ring.indexOf(name);
      if (!v || j === undefined || this.phase !== 'running') return;
      const t = this.table;
      // Refuted (or otherwise outranked) meanwhile, or it spoke to us since: not dead after all.
      if (!t.accepts(j, v.update) || t.lastHeard[j]! > v.since) return;
      this.applyUpdate(j, v.update, reasons.verified(v.update, v.via, this.options.confirmMs));
      this.dissemination.push(name);
      this.finish();
    });
  }

  /** Sends node `i` the claim `u` about itself (at most once per interval), so that it refutes it. */
  private notice(i: number, u: Update, force = false): void {
    const name = this.table.ring.names[i]!;
    const now = this.clock.now();
    const last = this.noticed.get(name);
    if (!force && last !== undefined && now - last < this.options.intervalMs) return;
    this.noticed.set(name, now);
    if (this.noticed.size > 1024) this.noticed.clear();
    this.dissemination.sendUpdates([i], 'gossip', [u]);
  }

  private declareDead(i: number, silentMs: number): void {
    const t = this.table;
    const name = t.ring.names[i]!;
    const u: Update = {
      node: name,
      state: 'dead',
      incarnation: t.incarnation[i]!,
      by: this.self.name,
      silentMs,
    };
    this.applyUpdate(i, u, updateReason(u));
    this.dissemination.push(name);
    // If it is in fact alive (a path that dropped only its heartbeats to us), it refutes at once.
    this.notice(i, u, true);
    this.finish();
  }

  private applyUpdate(i: number, u: Update, reason: string): void {
    const t = this.table;
    const before = t.stateOf(i);
    const metaBefore = t.meta[i];
    const metaKnown = t.metaKnown[i] === 1;
    t.apply(i, u);
    if (before !== t.stateOf(i)) this.stateChanged(i, STATE_NAMES[before]!, reason);
    else if (before === ALIVE && metaBefore !== t.meta[i])
      this.change(u.node, 'alive', 'alive', u.incarnation, reasons.meta(u.incarnation, metaKnown));
  }

  private stateChanged(i: number, from: State, reason: string): void {
    const t = this.table;
    const name = t.ring.names[i]!;
    this.dirty = true;
    this.aliveCache = undefined;
    this.change(name, from, STATE_NAMES[t.state[i]!]!, t.incarnation[i]!, reason);
    if (t.state[i] === DEAD && this.phase === 'running') this.antiEntropy.noteDeath();
    // A neighbour we watch is gone: take on the next one now rather than at the next tick. (Other
    // changes wait for the tick, so a storm of them costs one ring walk per tick, not one per update.)
    if (from === 'alive' && this.phase === 'running' && this.detector.isWatching(name)) this.neighbours();
    if (this.answered) this.syncIfComplete();
  }

  /** Recomputes whom we send heartbeats to and whom we watch (both are ring walks over our view). */
  private neighbours(): void {
    this.dirty = false;
    this.targets = heartbeatTargets(this.table, this.options.monitors);
    this.detector.watch(watchedNodes(this.table, this.options.monitors));
  }

  private change(node: string, from: State, to: State, incarnation: number, reason: string): void {
    this.pendingChanges.push({ node, from, to, incarnation, reason });
  }

  /**
   * In the constructor: every other node of `view` alive at our starting incarnation, and synced. No
   * listener can be subscribed yet, so none is told.
   */
  private assume(view: ConvergedView): void {
    const t = this.table;
    for (const { name, meta } of view.entries) {
      const i = t.ring.indexOf(name);
      if (i === undefined || i === t.self) continue;
      t.apply(i, { node: name, state: 'alive', incarnation: this.incarnation, cause: 'join', meta });
    }
    this.answered = true;
    this.isSynced = true;
  }

  // ---- our own entry ----

  private writeSelf(cause: 'join' | 'refute' | 'meta' | 'resume'): void {
    const t = this.table;
    t.apply(t.self, {
      node: this.self.name,
      state: 'alive',
      incarnation: this.incarnation,
      cause,
      meta: this.metaText,
    });
  }

  private raiseIncarnation(to: number, cause: 'refute' | 'meta' | 'resume', also?: string): void {
    this.incarnation = Math.min(to, 0xffff_ffff);
    this.writeSelf(cause);
    this.dissemination.push(this.self.name, also === undefined ? {} : { also });
  }

  /**
   * Whether our process was frozen (SIGSTOP, a long pause) for longer than anyone waits for us: no tick
   * ran for a detection time, so our monitors have declared us dead by now or are about to. Say we are
   * back, at a new incarnation, before anything else we send, instead of waiting to be told. Checked at
   * every tick and before every send, since after a freeze any timer or datagram may run first.
   */
  private checkStall(): void {
    const now = this.clock.now();
    if (this.phase !== 'running' || now - this.lastTick <= this.timeout) return;
    this.lastTick = now;
    this.counts.stalls++;
    this.raiseIncarnation(this.incarnation + 1, 'resume');
    this.dissemination.flush();
  }

  /**
   * Synced once a peer has answered and no node of the list is still unknown to us. When a whole
   * cluster starts at once the first answers are as partial as ours; electing on them would move
   * addresses with every node we hear of (at 2000 nodes, thousands of elections each). A speaker joining
   * a running cluster gets the whole view in its first answer and is synced at once.
   */
  private syncIfComplete(): void {
    if (this.table.unknown.size === 0) this.markSynced();
  }

  private markSynced(): void {
    if (this.isSynced) return;
    this.isSynced = true;
    this.timers.disarm('synced');
    for (const l of this.syncedListeners) l();
  }

  // ---- plumbing ----

  private sendBytes(i: number, bytes: Uint8Array): void {
    if (this.phase !== 'running') return;
    this.checkStall();
    const datagram = this.auth ? this.auth.seal(bytes) : bytes;
    this.counts.sent++;
    this.counts.bytesSent += datagram.length;
    this.port.send({ address: this.table.ring.addresses[i]!, port: this.options.membershipPort }, datagram);
  }

  private listen(): void {
    this.unsubscribe = this.port.onMessage((payload, source) => this.onDatagram(payload, source));
  }

  /** Everything that makes us run stops: timers, the detector, pending pushes, the socket listener. */
  private quiesce(): void {
    this.timers.disarmAll();
    this.detector.stop();
    this.dissemination.clear();
    this.verifying.clear();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** End of every event: push what was learned, then tell listeners (state is consistent by now). */
  private finish(): void {
    if (this.phase === 'running') this.dissemination.kick();
    this.emit();
  }

  private emit(): void {
    if (this.pendingChanges.length === 0) return;
    const changes = this.pendingChanges.splice(0);
    let failure: unknown;
    let failed = false;
    for (const c of changes) {
      for (const l of this.listeners) {
        try {
          l(c);
        } catch (e) {
          if (!failed) failure = e;
          failed = true;
        }
      }
    }
    // A throwing listener must not leave the other listeners behind; the first error still surfaces.
    if (failed) throw failure;
  }

  private memberAt(i: number): Member {
    const t = this.table;
    return {
      name: t.ring.names[i]!,
      address: t.ring.addresses[i]!,
      state: STATE_NAMES[t.state[i]!]!,
      incarnation: t.incarnation[i]!,
      meta: t.metaOf(i),
    };
  }
}

/** The list itself when it names us at our address already (all speakers then share one list's ring). */
function withSelf(nodes: readonly NodeRef[], self: NodeRef): readonly NodeRef[] {
  if (nodes.some((n) => n.name === self.name && n.address === self.address)) return nodes;
  const out = nodes.filter((n) => n.name !== self.name).map((n) => ({ name: n.name, address: n.address }));
  out.push({ name: self.name, address: self.address });
  return out;
}
