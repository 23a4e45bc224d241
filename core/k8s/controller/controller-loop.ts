/**
 * The controller in a cluster: the allocator's Controller (core/controller) driven by the Kubernetes
 * sources, its decisions written back through the fenced status writers and told as core/v1 Events.
 *
 * One pass at a time: a change that arrives during a pass is folded into one more pass after it. A
 * pass whose writes failed is repeated after `retryMs` (the informers may have nothing new to say).
 * With leader election, only the leader runs passes; it builds its Controller afresh each time it
 * starts leading, so the first pass restores every address already in a Service's status before it
 * allocates anything (nothing moves across a failover or a restart).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { serviceKey, type ClusterSnapshot } from '../../cluster/types.ts';
import type { ConfigIssue, LbConfig } from '../../config/index.ts';
import { Controller, formatEvent, type ControllerEvent } from '../../controller/index.ts';
import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import type { LeadershipChange } from './leader-election.ts';
import { PoolStatusWriter } from './pool-status-writer.ts';
import { ServiceStatusWriter } from './service-status-writer.ts';
import type { Guard, WriteReport } from './write-report.ts';
import type { EventRecorder } from '../events/event-recorder.ts';

/** What the loop reads of the cluster source (KubeClusterSource, or any ClusterSource). */
export interface SnapshotFeed {
  current(): ClusterSnapshot;
  onChange(listener: (snapshot: ClusterSnapshot) => void): () => void;
}

/** What the loop reads of the configuration source (KubeConfigSource). */
export interface ConfigFeed {
  current(): LbConfig | undefined;
  onChange(listener: (config: LbConfig) => void): () => void;
  onRejected(listener: (errors: readonly ConfigIssue[]) => void): () => void;
  /** The metallb.io objects as last listed: the pools' resourceVersions save a GET per status write. */
  resources(): readonly unknown[];
}

/** What is needed of the Event recorder (core/k8s/events): recording never throws and never blocks. */
export type EventSink = Pick<EventRecorder, 'record'>;

/** The election as the loop sees it; absent: this replica always leads. */
export interface Leadership {
  guard: Guard;
  isLeader(): boolean;
  onChange(listener: (change: LeadershipChange) => void): () => void;
}

/** MetalLB's metallb_k8s_client_* counters (K8sClientMetrics). */
export interface LoopMetrics {
  processed(ok: boolean): void;
  configLoaded(): void;
  configRejected(): void;
}

export interface ControllerLoopOptions {
  kc: KubeConfig;
  namespace: string;
  clock: Clock;
  cluster: SnapshotFeed;
  config: ConfigFeed;
  recorder?: EventSink;
  leadership?: Leadership;
  metrics?: LoopMetrics;
  loadBalancerClass?: string;
  /** Pause before repeating a pass whose writes failed; default 1000 ms. */
  retryMs?: number;
  log: (line: string) => void;
}

/** MetalLB's Event reasons for what the Controller reports; a deleted Service gets none (it is gone). */
const reasons: Record<ControllerEvent['reason'], string | undefined> = {
  IPAllocated: 'IPAllocated',
  AllocationFailed: 'AllocationFailed',
  IPsCleared: 'ClearAssignment',
  IPReleased: undefined,
};

export class ControllerLoop {
  private controller: Controller | undefined;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly timers: NamedTimers<'retry'>;
  private queue: Promise<void> = Promise.resolve();
  private queued = false;
  private stopped = false;
  private passes = 0;
  private readonly services: ServiceStatusWriter;
  private pools: PoolStatusWriter;

  constructor(private readonly o: ControllerLoopOptions) {
    this.timers = new NamedTimers(o.clock, 'controller: ');
    this.services = new ServiceStatusWriter(this.writerOptions());
    this.pools = new PoolStatusWriter({ ...this.writerOptions(), namespace: o.namespace });
  }

  start(): void {
    const { cluster, config, leadership } = this.o;
    this.unsubscribe.push(
      cluster.onChange(() => this.schedule()),
      config.onChange((next) => this.configChanged(next)),
      config.onRejected((errors) => {
        this.o.metrics?.configRejected();
        this.o.log(`configuration refused, keeping the last good one: ${errors.length} error(s)`);
      }),
    );
    if (leadership === undefined) return this.lead();
    this.unsubscribe.push(
      leadership.onChange((change) => (change.leading ? this.lead() : this.standBy(change.reason))),
    );
    if (leadership.isLeader()) this.lead();
  }

  /** The allocator of the Controller in charge, while this replica leads (for metrics). */
  current(): Controller | undefined {
    return this.controller;
  }

  /** Passes finished since start (readiness: the leader is ready after its first). */
  passCount(): number {
    return this.passes;
  }

  /** Resolves when no pass is running or queued (tests). */
  async idle(): Promise<void> {
    for (let q = this.queue; ; q = this.queue) {
      await q;
      if (q === this.queue) return;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timers.disarmAll();
    for (const u of this.unsubscribe.splice(0)) u();
    await this.idle();
  }

  private lead(): void {
    const config = this.o.config.current();
    // Fresh state: its first pass restores what the Services' statuses say before allocating.
    this.controller =
      config === undefined
        ? undefined
        : new Controller(config, {
            ...(this.o.loadBalancerClass !== undefined && { loadBalancerClass: this.o.loadBalancerClass }),
          });
    this.pools = new PoolStatusWriter({ ...this.writerOptions(), namespace: this.o.namespace });
    if (config === undefined) this.o.log('waiting for a valid configuration before allocating');
    this.schedule();
  }

  private standBy(reason: string): void {
    this.controller = undefined;
    this.timers.disarm('retry');
    this.o.log(`standing by (${reason}): no allocation writes until this replica leads again`);
  }

  private configChanged(config: LbConfig): void {
    this.o.metrics?.configLoaded();
    if (!this.leads()) return;
    if (this.controller === undefined) {
      this.lead();
      return;
    }
    const events = this.controller.setConfig(config);
    this.enqueue(async () => this.tell(events, this.o.cluster.current()));
    this.schedule();
  }

  private leads(): boolean {
    return !this.stopped && (this.o.leadership?.isLeader() ?? true);
  }

  private schedule(): void {
    if (this.queued || this.stopped) return;
    this.queued = true;
    this.enqueue(async () => {
      this.queued = false;
      await this.pass();
    });
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((err: unknown) => {
      this.o.metrics?.processed(false);
      this.o.log(`reconciliation failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private async pass(): Promise<void> {
    const controller = this.controller;
    if (controller === undefined || !this.leads()) return;
    const snapshot = this.o.cluster.current();
    const r = controller.reconcile(snapshot);
    this.tell(r.events, snapshot);
    // Each Service is read before its PUT: a snapshot holds only the fields lblab reads, and a PUT of
    // /status takes the whole metadata and status from its body (owners, finalizers, conditions).
    const services = await this.services.apply(r.updates);
    const poolObjects = new Map(
      this.o.config
        .resources()
        .filter((o): o is PoolObject => (o as PoolObject).kind === 'IPAddressPool')
        .map((o) => [o.metadata?.name, o]),
    );
    const pools = await this.pools.apply(
      controller.allocator.poolNames().map((name) => ({ name, counters: controller.allocator.stats(name)! })),
      (name) => poolObjects.get(name),
    );
    this.passes++;
    const failed = [...services.failed, ...pools.failed];
    this.o.metrics?.processed(failed.length === 0);
    report(this.o.log, 'service status', services);
    report(this.o.log, 'pool status', pools);
    if (failed.length > 0 && this.controller === controller && !this.stopped)
      this.timers.arm('retry', this.o.retryMs ?? 1000, () => this.schedule());
  }

  private tell(events: readonly ControllerEvent[], snapshot: ClusterSnapshot): void {
    const uids = new Map(
      snapshot.services.map((s) => [serviceKey(s), (s.metadata as { uid?: string }).uid] as const),
    );
    for (const e of events) {
      this.o.log(formatEvent(e));
      const reason = reasons[e.reason];
      if (reason === undefined || this.o.recorder === undefined) continue;
      const [namespace = 'default', name = ''] = e.service.split('/');
      const uid = uids.get(e.service);
      this.o.recorder.record({
        type: e.type,
        reason,
        message: e.message,
        involved: { apiVersion: 'v1', kind: 'Service', namespace, name, ...(uid !== undefined && { uid }) },
      });
    }
  }

  private writerOptions() {
    return {
      kc: this.o.kc,
      clock: this.o.clock,
      ...(this.o.leadership && { guard: this.o.leadership.guard }),
    };
  }
}

interface PoolObject {
  kind?: string;
  metadata?: { name?: string };
}

function report(log: (line: string) => void, what: string, r: WriteReport): void {
  if (r.written.length > 0) log(`wrote ${what} of ${r.written.length} object(s)`);
  if (r.conflicts > 0) log(`${what}: ${r.conflicts} conflict(s) retried`);
  // A leader that lost its Lease mid-pass fails every remaining write alike: a few lines say it.
  for (const f of r.failed.slice(0, 5))
    log(`${what} of ${f.key} not written (retried on the next pass): ${f.error.message}`);
  if (r.failed.length > 5) log(`${what}: ${r.failed.length - 5} more not written`);
}
