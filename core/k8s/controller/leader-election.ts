/**
 * `--leader-elect`: controller replicas elect one leader over a coordination.k8s.io/v1 Lease, as
 * client-go's leaderelection does (client-node has no such helper). The leader renews every `renewMs`;
 * a standby takes over once the Lease has not changed for `leaseDurationMs` on ITS OWN clock, counted
 * from when it last saw the Lease change: the holder's renewTime comes from another machine's clock and
 * is never compared with ours.
 *
 * The fence: every allocation write goes through `guard`, which refuses unless this replica holds the
 * Lease by a successful renew (its resourceVersion) sent less than `renewDeadlineMs` ago. The deadline
 * is shorter than the lease duration, and a standby's wait starts no earlier than that renew was sent,
 * so a leader cut off from the API server stops writing before any standby can take over; the margin
 * (lease duration minus renew deadline, 5 s by default) bounds how long one write may take.
 *
 * A leader that misses its renew deadline steps down at once and returns to standby: it may lead again
 * later (after an API server outage, say) without a restart, and a crash-looping Deployment would only
 * delay that. The caller drops its in-memory allocation state on stepping down and rebuilds it from the
 * cluster when it leads again.
 */
import { CoordinationV1Api, V1MicroTime, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import { LblabError } from '../../errors/lblab-error.ts';
import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import { names } from '../bundle/names.ts';
import { perCall } from './per-call.ts';
import { isApiCode } from '../api-time-and-errors.ts';
import type { Guard } from './write-report.ts';

export interface LeaderElectionOptions {
  kc: KubeConfig;
  /** lblab's namespace, where the Lease lives. */
  namespace: string;
  /** Default `metallb-controller`. */
  leaseName?: string;
  /** This replica: its pod name, else hostname and pid. */
  identity: string;
  clock: Clock;
  /** Wall-clock ms at which `clock.now()` reads 0: for the Lease's acquireTime and renewTime. */
  clockEpochMs: number;
  /** How long a standby waits after the Lease last changed; default 15 000 (client-go's). */
  leaseDurationMs?: number;
  /** How often the leader renews and a standby looks; default 2000 (client-go's retry period). */
  renewMs?: number;
  /** How long a leader may go without a successful renew; default 2/3 of the lease duration (10 s of 15). */
  renewDeadlineMs?: number;
  log: (line: string) => void;
}

/** A write refused because this replica does not (or no longer surely) hold the Lease. */
export class NotLeaderError extends LblabError {
  readonly code = 'NOT_LEADER';
}

export type LeadershipChange = { leading: true } | { leading: false; reason: string };

export class LeaderElector {
  readonly leaseName: string;
  readonly leaseDurationMs: number;
  readonly renewMs: number;
  readonly renewDeadlineMs: number;
  private readonly api: CoordinationV1Api;
  private readonly timers: NamedTimers<'tick' | 'deadline'>;
  private readonly listeners = new Set<(change: LeadershipChange) => void>();
  private running = false;
  /** The Lease as last seen, and when (our clock) it last changed. */
  private observed: V1Lease | undefined;
  private observedAtMs = 0;
  /** While leading: the Lease's resourceVersion after our last renew, and when that renew was sent. */
  private held: { resourceVersion: string; renewSentAtMs: number } | undefined;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly o: LeaderElectionOptions) {
    this.leaseName = o.leaseName ?? names.controllerLease;
    this.leaseDurationMs = o.leaseDurationMs ?? 15_000;
    this.renewMs = o.renewMs ?? 2000;
    this.renewDeadlineMs = o.renewDeadlineMs ?? Math.round((this.leaseDurationMs * 2) / 3);
    if (!(this.renewMs < this.renewDeadlineMs && this.renewDeadlineMs < this.leaseDurationMs))
      throw new RangeError(
        `leader election needs renew (${this.renewMs} ms) < renew deadline (${this.renewDeadlineMs} ms) < lease duration (${this.leaseDurationMs} ms)`,
      );
    this.api = o.kc.makeApiClient(CoordinationV1Api);
    this.timers = new NamedTimers(o.clock, `lease ${this.leaseName}: `);
  }

  /** Called when this replica starts or stops leading. */
  onChange(listener: (change: LeadershipChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.tick();
  }

  /** Whether this replica may write now: it holds the Lease by a renew sent within the renew deadline. */
  isLeader(): boolean {
    return this.held !== undefined && this.o.clock.now() < this.held.renewSentAtMs + this.renewDeadlineMs;
  }

  /** The fence (see the file's comment). */
  readonly guard: Guard = (write) => {
    if (!this.isLeader())
      return Promise.reject(
        new NotLeaderError(`${this.o.identity} does not hold Lease ${this.o.namespace}/${this.leaseName}`),
      );
    return write();
  };

  /** Resolves when no Lease request is in flight (tests on virtual time step between requests). */
  idle(): Promise<void> {
    return this.inFlight;
  }

  /**
   * Stops electing. With `release`, a leader first clears holderIdentity so a standby takes over on its
   * next look instead of waiting out the lease duration.
   */
  async stop(options: { release: boolean }): Promise<void> {
    this.running = false;
    this.timers.disarmAll();
    await this.inFlight;
    const held = this.held;
    this.stepDown('stopped');
    if (!options.release || held === undefined || this.observed === undefined) return;
    const now = this.microNow();
    try {
      await this.api.replaceNamespacedLease({
        namespace: this.o.namespace,
        name: this.leaseName,
        body: {
          ...this.observed,
          metadata: { ...this.observed.metadata, resourceVersion: held.resourceVersion },
          spec: {
            ...this.observed.spec,
            holderIdentity: '',
            leaseDurationSeconds: 1,
            renewTime: now,
            acquireTime: now,
          },
        },
      });
      this.o.log(`released Lease ${this.o.namespace}/${this.leaseName}`);
    } catch (err) {
      this.o.log(`could not release Lease ${this.o.namespace}/${this.leaseName}: ${describe(err)}`);
    }
  }

  private tick(): void {
    if (!this.running) return;
    this.inFlight = this.tryAcquireOrRenew()
      .catch((err: unknown) => this.o.log(`Lease ${this.o.namespace}/${this.leaseName}: ${describe(err)}`))
      .finally(() => {
        if (this.running) this.timers.arm('tick', this.renewMs, () => this.tick());
      });
  }

  private async tryAcquireOrRenew(): Promise<void> {
    const sentAtMs = this.o.clock.now();
    // A leader renews from its own copy; a standby (or a leader whose renew conflicted) reads first.
    const lease = this.held !== undefined && this.observed !== undefined ? this.observed : await this.read();
    if (lease === undefined) return this.create(sentAtMs);
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const mine = holder === this.o.identity;
    if (holder !== '' && !mine && this.o.clock.now() < this.observedAtMs + this.leaseDurationMs) {
      if (this.held !== undefined) this.stepDown(`Lease taken by ${holder}`);
      return;
    }
    const now = this.microNow();
    const next: V1Lease = {
      ...lease,
      spec: {
        ...spec,
        holderIdentity: this.o.identity,
        leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
        renewTime: now,
        acquireTime: mine ? spec.acquireTime : now,
        leaseTransitions: (spec.leaseTransitions ?? 0) + (mine || holder === '' ? 0 : 1),
      },
    };
    try {
      const written = await this.api.replaceNamespacedLease(
        { namespace: this.o.namespace, name: this.leaseName, body: next },
        this.withTimeout(),
      );
      this.leads(written, sentAtMs, mine ? undefined : holder);
    } catch (err) {
      // 409: another replica wrote first; the next look reads what it wrote.
      if (isApiCode(err, 409)) this.observed = undefined;
      else throw err;
    }
  }

  private async read(): Promise<V1Lease | undefined> {
    try {
      const lease = await this.api.readNamespacedLease(
        { namespace: this.o.namespace, name: this.leaseName },
        this.withTimeout(),
      );
      if (lease.metadata?.resourceVersion !== this.observed?.metadata?.resourceVersion)
        this.observedAtMs = this.o.clock.now();
      this.observed = lease;
      return lease;
    } catch (err) {
      if (isApiCode(err, 404)) return undefined;
      throw err;
    }
  }

  private async create(sentAtMs: number): Promise<void> {
    const now = this.microNow();
    try {
      const created = await this.api.createNamespacedLease(
        {
          namespace: this.o.namespace,
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name: this.leaseName, namespace: this.o.namespace },
            spec: {
              holderIdentity: this.o.identity,
              leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
              acquireTime: now,
              renewTime: now,
              leaseTransitions: 0,
            },
          },
        },
        this.withTimeout(),
      );
      this.leads(created, sentAtMs, '');
    } catch (err) {
      if (!isApiCode(err, 409)) throw err; // 409 AlreadyExists: another replica created it first
    }
  }

  /** A write of the Lease naming us succeeded; `from` is the previous holder when we just took it. */
  private leads(lease: V1Lease, sentAtMs: number, from: string | undefined): void {
    this.observed = lease;
    this.observedAtMs = this.o.clock.now();
    const wasLeading = this.held !== undefined;
    this.held = { resourceVersion: lease.metadata?.resourceVersion ?? '', renewSentAtMs: sentAtMs };
    this.timers.arm('deadline', sentAtMs + this.renewDeadlineMs - this.o.clock.now(), () =>
      this.stepDown(`no successful renew within ${this.renewDeadlineMs} ms`),
    );
    if (!wasLeading) {
      this.o.log(
        `${this.o.identity} leads (Lease ${this.o.namespace}/${this.leaseName}${from ? `, taken over from ${from}` : ''})`,
      );
      for (const l of this.listeners) l({ leading: true });
    }
  }

  private stepDown(reason: string): void {
    if (this.held === undefined) return;
    this.held = undefined;
    this.timers.disarm('deadline');
    this.o.log(`${this.o.identity} stopped leading: ${reason}`);
    for (const l of this.listeners) l({ leading: false, reason });
  }

  /**
   * Each Lease request is given up after half the renew deadline (on the Clock): client-node has no
   * timeout of its own, and one request hanging on a half-open connection would stop the loop.
   */
  private withTimeout() {
    const abort = new AbortController();
    const timer = this.o.clock.setTimer('lease request timeout', this.renewDeadlineMs / 2, () =>
      abort.abort(new Error(`no answer within ${this.renewDeadlineMs / 2} ms`)),
    );
    return perCall({ pre: (request) => request.setSignal(abort.signal), post: () => timer.cancel() });
  }

  private microNow(): V1MicroTime {
    return new V1MicroTime(this.o.clockEpochMs + this.o.clock.now());
  }
}

function describe(err: unknown): string {
  if (err instanceof Error && 'code' in err && typeof err.code === 'number') return `HTTP ${err.code}`;
  return err instanceof Error ? err.message : String(err);
}
