import { L2Announcer, type AnnouncerEvent, type OwnedVip } from '../../l2/announcer/index.ts';
import {
  type ConvergedView,
  detectionKind,
  Membership,
  MembershipAuth,
  type Change,
  type DetectionKind,
  type MembershipOptions,
  type Meta,
  type NodeRef,
  type State,
} from '../../membership/index.ts';
import { IpAddress } from '../../net/index.ts';
import type { Channel } from '../../runtime/channel.ts';
import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import { advanceFor } from '../../runtime/time-slice.ts';
import type { DatagramPort, FramePort } from '../../runtime/ports.ts';
import type { Random } from '../../runtime/random.ts';
import type { SpeakerLogEntry } from '../l2-speaker.ts';
import type { FromLiveness, LivenessStats, OwnedAddress, ToLiveness } from './messages.ts';
import { RefusalLog } from './refusal-log.ts';

export interface LivenessAgentDeps {
  clock: Clock;
  random: Random;
  /** The membership socket (UDP 7946 on the node's address). */
  udp: DatagramPort;
  /** One raw port per interface the announcer answers on. */
  ports: readonly FramePort[];
  self: NodeRef;
  nodes: readonly NodeRef[];
  meta: Meta;
  membership?: Partial<MembershipOptions>;
  /** Start as a member of a running cluster (see ConvergedView): the emulator's whole-cluster start. */
  converged?: ConvergedView;
  /** Authenticated membership (see MembershipAuth); absent, membership trusts the network. */
  auth?: { key: Uint8Array; counterStart: number; rotationMs: number };
  /**
   * How long the main thread may go without a beat before this thread stops vouching for the node: its
   * peers then take over its addresses, because a main thread that does not run cannot follow a change.
   */
  mainLoopTimeoutMs: number;
  channel: Channel<ToLiveness, FromLiveness>;
  log: (entry: SpeakerLogEntry) => void;
}

/**
 * The liveness half of a speaker: everything peers and clients judge the node alive by, on a thread of
 * its own so that a busy main thread (a big change being digested, a garbage collection of the main heap)
 * never makes a healthy node look dead. It runs membership (heartbeats, failure detection, gossip) and the
 * announcer (ARP replies and neighbour advertisements for the addresses the main thread's election gave
 * us), and watches the main thread's beats: past `mainLoopTimeoutMs` without one it releases the addresses
 * and goes silent, as a frozen process would, so the others fail the node over.
 */
export class LivenessAgent {
  readonly membership: Membership;
  readonly announcer: L2Announcer;
  private readonly timers: NamedTimers<'watchdog' | 'owned'>;
  /** The main thread's latest list of addresses, while it is being read (readOwned). */
  private reading: Generator<void, void> | undefined;
  /** What the main thread last asked us to answer for; released while we do not vouch, kept for after. */
  private owned: OwnedVip[] = [];
  private ownedReason = '';
  private readonly parsed = new Map<string, IpAddress>();
  private lastBeat: number;
  private vouching = true;
  private vouchingLost = 0;
  private readonly detections: Record<DetectionKind, number> = { silence: 0, left: 0, removed: 0 };
  private closed = false;

  constructor(private readonly deps: LivenessAgentDeps) {
    const { clock, channel } = deps;
    this.membership = new Membership({
      clock,
      random: deps.random,
      port: deps.udp,
      self: deps.self,
      nodes: deps.nodes,
      ...(deps.membership && { options: deps.membership }),
      ...(deps.auth && { auth: new MembershipAuth({ clock, ...deps.auth }) }),
      ...(deps.converged && { converged: deps.converged }),
    });
    this.announcer = new L2Announcer(clock, deps.ports, { name: deps.self.name });
    this.timers = new NamedTimers(clock, `liveness ${deps.self.name}: `);
    this.lastBeat = clock.now();
    const refusals = new RefusalLog(
      () => clock.now(),
      (message) => this.log('membership', message),
    );
    this.membership.onRefused((r, from, sender) => refusals.note(r, from, sender));
    this.membership.onChange((c) => this.onChange(c));
    this.membership.onSynced(() => channel.post({ op: 'synced' }));
    this.announcer.onEvent((e) => this.log('announcer', describe(e)));
    channel.onMessage((m) => this.onMessage(m));
    this.membership.setMeta(deps.meta);
    this.postView();
    this.membership.start();
    this.watch();
  }

  private onMessage(m: ToLiveness): void {
    if (this.closed) return;
    switch (m.op) {
      case 'beat':
        this.lastBeat = this.deps.clock.now();
        if (!this.vouching) this.vouchAgain();
        return;
      case 'owned':
        // A newer list replaces one still being read.
        this.reading = this.readOwned(m.addresses, m.reason);
        this.timers.disarm('owned');
        this.readOn();
        return;
      case 'reannounce':
        if (this.vouching) this.announcer.reannounce(m.reason);
        return;
      case 'nodes':
        this.membership.setNodes(m.nodes);
        this.postView();
        return;
      case 'meta':
        this.membership.setMeta(m.meta);
        return;
      case 'key':
        if (this.membership.rotateKey(m.key))
          this.log('lifecycle', 'membership key changed: sealing with the new key after the rotation window');
        return;
      case 'stats':
        this.deps.channel.post({ op: 'stats', stats: this.stats() });
        return;
      case 'leave':
        this.membership.leave();
        return;
      case 'close':
        this.closed = true;
        this.timers.disarmAll();
        this.announcer.close(m.reason);
        this.membership.stop();
        this.deps.channel.post({ op: 'closed', stats: this.stats() });
        return;
    }
  }

  /** A walk over the members and the owned addresses: done when asked (a scrape), never on a timer. */
  private stats(): LivenessStats {
    const members: Record<State, number> = { unknown: 0, alive: 0, dead: 0, left: 0 };
    for (const m of this.membership.members()) members[m.state]++;
    return {
      membership: this.membership.counters(),
      announcer: this.announcer.stats(),
      addresses: this.announcer.addressCounts(),
      members,
      detections: { ...this.detections },
      synced: this.membership.synced(),
      vouchingLost: this.vouchingLost,
    };
  }

  private onChange(c: Change): void {
    const kind = detectionKind(c);
    if (kind !== undefined) this.detections[kind]++;
    this.log('membership', `${c.node}: ${c.from} → ${c.to} (${c.reason})`);
    this.deps.channel.post({ op: 'change', change: c, meta: this.membership.member(c.node)?.meta ?? {} });
  }

  /** Checks the main thread's beats a few times per bound, so it is noticed soon after the bound passes. */
  private watch(): void {
    const every = Math.min(100, this.deps.mainLoopTimeoutMs / 4);
    this.timers.arm('watchdog', every, () => {
      const silentMs = this.deps.clock.now() - this.lastBeat;
      if (this.vouching && silentMs > this.deps.mainLoopTimeoutMs) this.stopVouching(silentMs);
      this.watch();
    });
  }

  private stopVouching(silentMs: number): void {
    this.vouching = false;
    this.vouchingLost++;
    const reason = `the main event loop has not run for ${Math.round(silentMs)} ms (bound ${this.deps.mainLoopTimeoutMs} ms): no longer vouching for this node`;
    this.log('lifecycle', `${reason}; peers take over its addresses`);
    this.announcer.setOwned([], reason);
    this.membership.suspend();
    this.deps.channel.post({ op: 'vouching', vouching: false, reason });
  }

  private vouchAgain(): void {
    this.vouching = true;
    const reason = 'the main event loop runs again: vouching for this node again';
    this.log('lifecycle', reason);
    this.membership.resume();
    this.announcer.setOwned(this.owned, `${reason} (${this.ownedReason})`);
    this.deps.channel.post({ op: 'vouching', vouching: true, reason });
  }

  private postView(): void {
    this.deps.channel.post({
      op: 'view',
      members: this.membership.columns(),
      synced: this.membership.synced(),
    });
  }

  /** Reads the list under way for a time budget's worth; the rest on later turns of this thread's loop. */
  private readOn(): void {
    if (this.reading === undefined) return;
    if (advanceFor(this.reading, this.deps.clock).done) this.reading = undefined;
    else this.timers.arm('owned', 0, () => this.readOn());
  }

  /**
   * Takes the main thread's list in steps, then hands it to the announcer whole. Thousands of addresses
   * (a burst of Services) took this thread 255-321 ms in one turn on a loaded machine: long enough for
   * its peers to miss its heartbeats and declare the node dead.
   */
  private *readOwned(addresses: readonly OwnedAddress[], reason: string): Generator<void, void> {
    const owned: OwnedVip[] = [];
    for (let k = 0; k < addresses.length; k++) {
      if (k % ADDRESSES_PER_STEP === ADDRESSES_PER_STEP - 1) yield;
      const { ip, interfaces } = addresses[k]!;
      owned.push({ ip: this.parse(ip), interfaces });
    }
    this.owned = owned;
    this.ownedReason = reason;
    if (this.vouching) this.announcer.setOwned(owned, reason);
  }

  /** An address as the announcer takes it; each text is parsed once, not on every election. */
  private parse(ip: string): IpAddress {
    let parsed = this.parsed.get(ip);
    if (parsed === undefined) {
      parsed = IpAddress.parse(ip);
      if (this.parsed.size >= 100_000) this.parsed.clear();
      this.parsed.set(ip, parsed);
    }
    return parsed;
  }

  private log(kind: SpeakerLogEntry['kind'], message: string): void {
    this.deps.log({ atMs: this.deps.clock.now(), kind, message });
  }
}

function describe(e: AnnouncerEvent): string {
  const what =
    e.kind === 'reannounced'
      ? `re-announced ${e.vips.join(', ')}`
      : e.kind === 'conflict'
        ? `CONFLICT: ${e.otherMac} also claims ${e.vip} on ${e.interface}`
        : `${e.kind} ${e.vip} on ${e.interfaces.join(', ')}`;
  return `${what} (${e.reason})`;
}

/** Addresses readOwned takes between looks at the clock. */
const ADDRESSES_PER_STEP = 64;
