/**
 * The main thread's side of the BFD worker thread: a BfdWatcher whose sessions run in the worker
 * (worker-main.ts). If the worker dies, every session is reported down: BFD shares fate with the
 * speaker, which is why lblab sends the C bit clear.
 */
import { Worker } from 'node:worker_threads';
import type {
  BfdChange,
  BfdSessionSpec,
  BfdSessionStats,
  BfdStatsSource,
  BfdWatch,
  BfdWatcher,
} from '../../speaker/bfd-watcher.ts';
import type { FromWorker, ToWorker, WorkerOptions } from './messages.ts';

/** How long a shutdown waits for the AdminDown packets to leave before the worker is ended. */
const SHUTDOWN_WAIT_MS = 1000;

export class BfdWorker implements BfdWatcher, BfdStatsSource {
  private nextId = 1;
  private readonly watching = new Map<number, { onChange: (c: BfdChange) => void; last?: BfdChange }>();
  /** `stats` questions waiting for the worker's answer, by id. */
  private readonly asking = new Map<number, (sessions: BfdSessionStats[]) => void>();
  /** Started by the first watch: a speaker without BFD peers runs no thread. */
  private worker: Worker | undefined;
  private exited = false;

  constructor(
    private readonly options: WorkerOptions,
    private readonly log: (message: string) => void,
  ) {}

  watch(spec: BfdSessionSpec, onChange: (change: BfdChange) => void): BfdWatch {
    const id = this.nextId++;
    this.watching.set(id, { onChange });
    this.post({ op: 'watch', id, spec });
    return {
      update: (next) => this.post({ op: 'update', id, spec: next }),
      close: ({ adminDown }) => {
        this.watching.delete(id);
        this.post({ op: 'close', id, adminDown });
      },
    };
  }

  /** Every session's counters, from the worker; none when it never started or has ended. */
  stats(): Promise<BfdSessionStats[]> {
    if (this.worker === undefined || this.exited) return Promise.resolve([]);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.asking.set(id, resolve);
      this.post({ op: 'stats', id });
    });
  }

  /** AdminDown to every peer (RFC 5880 §6.8.16), then the worker ends. */
  async shutdown(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined || this.exited) return;
    this.watching.clear();
    const shut = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
      worker.on('message', (m: FromWorker) => {
        if (m.op === 'shut') resolve(clearTimeout(timer));
      });
    });
    this.post({ op: 'shutdown' });
    await shut;
    await worker.terminate();
  }

  private post(m: ToWorker): void {
    if (this.exited) return;
    // Messages posted before the worker listens are queued for it, so nothing waits for it to start.
    this.worker ??= this.spawn();
    this.worker.postMessage(m);
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: this.options });
    worker.on('message', (m: FromWorker) => this.onMessage(m));
    worker.on('error', (err) => this.log(`BFD worker failed: ${err.message}`));
    worker.on('exit', (code) => this.onExit(code));
    return worker;
  }

  private onMessage(m: FromWorker): void {
    if (m.op === 'log') return this.log(m.message);
    if (m.op === 'stats') {
      this.asking.get(m.id)?.(m.sessions);
      this.asking.delete(m.id);
      return;
    }
    if (m.op !== 'change') return;
    const w = this.watching.get(m.id);
    if (w === undefined) return;
    w.last = m.change;
    w.onChange(m.change);
  }

  private onExit(code: number): void {
    this.exited = true;
    for (const resolve of this.asking.values()) resolve([]);
    this.asking.clear();
    if (this.watching.size === 0) return;
    this.log(`BFD worker exited (code ${code}): every BFD session is down`);
    for (const w of this.watching.values()) {
      w.onChange({
        state: 'down',
        previous: w.last?.state ?? 'down',
        remoteState: w.last?.remoteState ?? 'down',
        remoteControlPlaneIndependent: w.last?.remoteControlPlaneIndependent ?? false,
        reason: `the BFD worker exited (code ${code})`,
      });
    }
    this.watching.clear();
  }
}
