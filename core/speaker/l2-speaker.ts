import type { ClusterSnapshot } from '../cluster/types.ts';
import type { LbConfig } from '../config/model.ts';
import type { L2Announcer, OwnedVip } from '../l2/announcer/index.ts';
import { l2AssignmentSteps, type L2Assignment, type L2AssignmentOptions } from '../l2/election/index.ts';
import type { Change, Membership } from '../membership/index.ts';
import { NamedTimers, type Clock } from '../runtime/clock.ts';
import { advanceFor } from '../runtime/time-slice.ts';
import { mainReason, type OwnershipCounts, type OwnershipReason } from './ownership-reason.ts';
import { electionDiff, ITEMS_PER_STEP, ownedBy, ownedInSteps, stepsConcerning } from './election-diff.ts';
import { interfacesByNode } from './published-interfaces.ts';

/** One line of the speaker's log: what changed, and why. */
export interface SpeakerLogEntry {
  atMs: number;
  kind: 'ownership' | 'membership' | 'announcer' | 'lifecycle' | 'bgp';
  message: string;
}

/**
 * What the election reads from membership: the speaker's LivenessClient, whose membership runs on the
 * liveness thread (liveness/agent.ts), or a Membership itself where everything shares one thread.
 */
export type SpeakerMembership = Pick<
  Membership,
  'alive' | 'members' | 'synced' | 'onChange' | 'onSynced' | 'leave' | 'stop'
>;

/** How the election drives the announcer: the LivenessClient again, or an L2Announcer itself. */
export type SpeakerAnnouncer = Pick<L2Announcer, 'setOwned' | 'reannounce' | 'close'>;

export interface L2SpeakerDeps {
  node: string;
  clock: Clock;
  membership: SpeakerMembership;
  announcer: SpeakerAnnouncer;
  log: (entry: SpeakerLogEntry) => void;
  election?: L2AssignmentOptions;
  /**
   * The election over all services, in steps (default l2AssignmentSteps). The emulator passes a memoised
   * one shared by every emulated speaker: with the same inputs every speaker computes the same answer.
   */
  assign?: typeof l2AssignmentSteps;
  /**
   * Which ownership changes to log: of every service (default; what an operator of a small cluster wants
   * to read) or only those this node gains or loses (at 10,000 services, one line per service per speaker
   * would be the bulk of the work).
   */
  logOwnership?: 'every-service' | 'own-services';
}

/**
 * The Layer-2 half of a speaker: whenever the cluster, the configuration or the set of live speakers
 * changes, it runs the election every speaker runs and has the announcer answer for exactly the
 * addresses this node won. It announces nothing until membership has synced, so a starting speaker
 * that sees only itself does not claim every address for a moment.
 */
export class L2Speaker {
  private snapshot: ClusterSnapshot | undefined;
  private config: LbConfig | undefined;
  /**
   * The last election's results, to log only real changes. Before the first, the same empty list for
   * every speaker, so speakers whose first elections agree share that election's diff too.
   */
  private last: readonly L2Assignment[] = NO_ASSIGNMENTS;
  private leaving = false;
  private readonly detach: (() => void)[] = [];
  private readonly timers: NamedTimers<'recompute' | 'step'>;
  private triggers: string[] = [];
  /** The triggers' texts, to fold repeats without a scan: a mass start brings one per cluster node. */
  private triggerSet = new Set<string>();
  private reasons = new Set<OwnershipReason>();
  /**
   * The election under way and what started it: a time budget's worth of steps per turn of the event loop,
   * first electing, then (once the announcer has its addresses) logging what changed.
   */
  private job: ElectionJob | undefined;
  private readonly counts: OwnershipCounts = { gained: {}, lost: {} };
  private readonly electedListeners = new Set<() => void>();

  constructor(private readonly deps: L2SpeakerDeps) {
    const { membership } = deps;
    this.timers = new NamedTimers(deps.clock, `${deps.node} `);
    // Membership changes and what the announcer does are logged where they happen (the liveness agent).
    this.detach.push(
      membership.onChange((c) => this.onMembershipChange(c)),
      membership.onSynced(() => this.recompute('membership synced', 'start')),
    );
  }

  setCluster(snapshot: ClusterSnapshot): void {
    this.snapshot = snapshot;
    this.recompute('cluster changed', 'cluster');
  }

  setConfig(config: LbConfig): void {
    this.config = config;
    this.recompute('configuration changed', 'config');
  }

  /**
   * The last election's services this node announces (desired state: what the announcer was told); the
   * same array until the next election, so a reader can tell nothing changed.
   */
  owned(): readonly L2Assignment[] {
    return ownedBy(this.last, this.deps.node);
  }

  /** The last election over every service, this node's or not (same array until the next election). */
  assignments(): readonly L2Assignment[] {
    return this.last;
  }

  /** Called after each election has been handed to the announcer: read owned() or assignments() then. */
  onElected(listener: () => void): () => void {
    this.electedListeners.add(listener);
    return () => this.electedListeners.delete(listener);
  }

  /** Services this node gained or lost since it started, by why the election that moved them ran. */
  ownershipCounts(): OwnershipCounts {
    return { gained: { ...this.counts.gained }, lost: { ...this.counts.lost } };
  }

  /**
   * Graceful leave: peers learn at once that this speaker is going, so the successor takes over and
   * announces; this node keeps answering for what it owned until `graceMs` has passed, so clients that
   * have not seen the successor's announcement yet still reach a node that serves the address.
   */
  async leave(graceMs: number): Promise<void> {
    this.leaving = true;
    this.log('lifecycle', `leaving: successors take over, answering for ${graceMs} ms more`);
    this.deps.membership.leave();
    await new Promise<void>((resolve) => this.deps.clock.setTimer('speaker:grace', graceMs, resolve));
    this.close('left');
  }

  close(reason: string): void {
    this.timers.disarmAll();
    for (const d of this.detach.splice(0)) d();
    this.deps.announcer.close(reason);
    this.deps.membership.stop();
  }

  private onMembershipChange(c: Change): void {
    if (this.leaving) return;
    this.recompute(`${c.node} ${c.to}`, `node-${c.to}`, true);
    // A node back from the dead means a partition healed or a frozen speaker resumed: whoever owns an
    // address now announces it again so clients on the other side learn the single winner.
    if (c.from === 'dead' && c.to === 'alive')
      this.deps.announcer.reannounce(`${c.node} is back (${c.reason})`);
  }

  /**
   * Changes arrive in bursts (a death is learned from several peers, a config reload touches many
   * services): they are folded into one election at the end of the current instant, which costs no time.
   * An election runs in steps, a time budget's worth per turn of the event loop, so 10,000 services never
   * block the loop for long; changes that arrive meanwhile get the next election, except a membership
   * change (`urgent`), which starts over at once: a dead node's addresses must not wait for an election over
   * the old view to end.
   */
  private recompute(trigger: string, reason: OwnershipReason, urgent = false): void {
    if (!this.triggerSet.has(trigger)) {
      this.triggerSet.add(trigger);
      this.triggers.push(trigger);
    }
    this.reasons.add(reason);
    // An election whose result is announced already only has its log lines to write: it finishes.
    if (this.job !== undefined && urgent && !this.job.announced) {
      this.triggers.unshift(this.job.trigger);
      this.triggerSet.add(this.job.trigger);
      for (const r of this.job.reasons) this.reasons.add(r);
      this.job = undefined;
      this.timers.disarm('step');
    }
    if (this.job === undefined && !this.timers.isArmed('recompute'))
      this.timers.arm('recompute', 0, () => this.elect());
  }

  private elect(): void {
    const trigger = triggerText(this.triggers);
    const reasons = this.reasons;
    this.triggers = [];
    this.triggerSet = new Set();
    this.reasons = new Set();
    const { snapshot, config, deps } = this;
    if (this.leaving || !snapshot || !config || !deps.membership.synced()) return;
    const assign = deps.assign ?? l2AssignmentSteps;
    const election = assign(
      snapshot,
      config,
      deps.membership.alive(),
      interfacesByNode(deps.membership.members()),
      deps.election,
    );
    this.job = { trigger, reasons, announced: false, steps: this.electionJob(election, trigger, reasons) };
    this.step();
  }

  private step(): void {
    const job = this.job;
    if (job === undefined || this.leaving) return;
    if (!advanceFor(job.steps, this.deps.clock).done) {
      this.timers.arm('step', 0, () => this.step());
      return;
    }
    this.job = undefined;
    if (this.triggers.length > 0) this.timers.arm('recompute', 0, () => this.elect());
  }

  /**
   * Elects, picks out this node's addresses, hands them to the announcer in a turn of its own, then logs
   * what changed: a failover's announcement waits for neither the log nor the diff of 10,000 Services
   * behind it. Every walk over the services goes in steps; the announcer is told only once the addresses
   * are all known, so an urgent change that drops the job before then leaves the announcer as it was.
   */
  private *electionJob(
    election: Generator<void, L2Assignment[]>,
    trigger: string,
    reasons: ReadonlySet<OwnershipReason>,
  ): Generator<void, void> {
    const results = yield* election;
    yield;
    const mine = yield* ownedInSteps(results, this.deps.node);
    const owned: OwnedVip[] = [];
    for (let k = 0; k < mine.length; k++) {
      if (k % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
      const { ips, result } = mine[k]!;
      if (result.owner !== undefined) for (const ip of ips) owned.push({ ip, interfaces: result.interfaces });
    }
    yield;
    const before = this.last;
    this.last = results;
    // Only this.job's steps run: a job that is dropped (an urgent change) is never stepped again.
    this.job!.announced = true;
    this.deps.announcer.setOwned(owned, trigger);
    if (results !== before) {
      yield;
      yield* this.recordChanges(before, results, trigger, mainReason(reasons));
    }
    for (const l of this.electedListeners) l();
  }

  /**
   * Counts the services this node gained or lost, and logs every owner that changed since the last
   * election, up to MAX_OWNERSHIP_LINES, then one line that says how many more: a change of 10,000
   * services is one screen, not 10,000 lines from every speaker. The changes themselves, and which of
   * them concern this node, are worked out once per pair of elections (election-diff.ts), shared by every
   * speaker that holds the same two: a speaker visits only the changes it counts or logs.
   */
  private *recordChanges(
    before: readonly L2Assignment[],
    results: readonly L2Assignment[],
    trigger: string,
    reason: OwnershipReason,
  ): Generator<void, void> {
    const self = this.deps.node;
    const count = (change: 'gained' | 'lost') =>
      (this.counts[change][reason] = (this.counts[change][reason] ?? 0) + 1);
    const diff = yield* electionDiff(before, results);
    const ours = yield* stepsConcerning(diff, self);
    for (let n = 0; n < ours.length; n++) {
      if (n % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
      const step = diff[ours[n]!]!;
      if (step.kind === 'gone') count('lost');
      else count(step.now.result.owner === self ? 'gained' : 'lost');
    }
    // Every change is logged, or only those of services this node owns or owned.
    const everyService = this.deps.logOwnership !== 'own-services';
    const changes = everyService ? diff.length : ours.length;
    const lines = Math.min(changes, MAX_OWNERSHIP_LINES);
    for (let n = 0; n < lines; n++) {
      // Each line is a write to the log: a few at a time, so the loop turns between them.
      if (n % LINES_PER_STEP === LINES_PER_STEP - 1) yield;
      const step = diff[everyService ? n : ours[n]!]!;
      if (step.kind === 'gone') {
        this.log('ownership', `${keyOf(step.was)}: no longer announced (${trigger})`);
        continue;
      }
      const { now: a, was } = step;
      const owner = a.result.owner;
      this.log(
        'ownership',
        `${keyOf(a)}: ${owner ?? 'nobody'}${was === undefined ? '' : ` (was ${was})`} after ${trigger}: ${a.result.reason}`,
      );
    }
    if (changes > MAX_OWNERSHIP_LINES) {
      this.log(
        'ownership',
        `… and ${changes - MAX_OWNERSHIP_LINES} more ownership changes after ${trigger}; ${self} now announces ${ownedBy(results, self).length} of ${results.length} services`,
      );
    }
  }

  private log(kind: SpeakerLogEntry['kind'], message: string): void {
    this.deps.log({ atMs: this.deps.clock.now(), kind, message });
  }
}

/**
 * What an election's log lines say it followed: every trigger, or, after a mass start's burst (one per
 * cluster node), the first few and how many more, so a line stays a line.
 */
export function triggerText(triggers: readonly string[]): string {
  if (triggers.length <= MAX_TRIGGERS_NAMED) return triggers.join(', ');
  return `${triggers.slice(0, MAX_TRIGGERS_NAMED).join(', ')} and ${triggers.length - MAX_TRIGGERS_NAMED} more`;
}

/** Triggers an election's log lines name at most. */
const MAX_TRIGGERS_NAMED = 5;

/** One line per service and address set, as the log names it. */
function keyOf(a: L2Assignment): string {
  return `${a.service} ${a.ips.join(',')}`;
}

/** An election under way: its steps, what started it, and whether the announcer has its result yet. */
interface ElectionJob {
  readonly steps: Generator<void, void>;
  readonly trigger: string;
  readonly reasons: ReadonlySet<OwnershipReason>;
  announced: boolean;
}

const NO_ASSIGNMENTS: readonly L2Assignment[] = Object.freeze([]);

/** Ownership lines one election logs at most; the rest is summed up in one line. */
const MAX_OWNERSHIP_LINES = 100;

/** Ownership lines recordChanges writes between yields. */
const LINES_PER_STEP = 10;
