import type { GateResult, ProbeSeries, StepResult, TimelineEvent } from '../../reports/result.ts';
import type { GateCondition } from '../../reports/gate-condition.ts';
import type { ProbeSummary } from '../probes/outage.ts';
import { Random } from '../../core/runtime/random.ts';
import type { Impairment } from '../model/topology.ts';
import type { KubernetesControl, NodeControl, ProbeOptions, RunningLab } from './backend.ts';
import { evaluateGate } from '../../reports/index.ts';
import { CheckFailedError, conditionOf, NotApplicableError, type Threshold } from './checks.ts';

/** Records a timeline event now, or at `atMs` when it happened earlier (e.g. a gap found afterwards). */
type Note = (event: Omit<TimelineEvent, 'atMs'> & { atMs?: number }) => void;

/**
 * What a scenario sees: the running lab in the shared vocabulary, plus steps, bounded checks,
 * measurements and gates. Every wait goes through the backend's `drive`, so the same scenario runs in
 * virtual time on the emulator and in wall time on a real network.
 */
export class ScenarioLab {
  readonly measurements: Record<string, number> = {};
  readonly gates: GateResult[] = [];
  readonly steps: StepResult[] = [];
  /** What each finished probe call saw, in the order they finished. */
  readonly probes: ProbeSeries[] = [];
  /** The conditions behind `gates`, so repeats of a scenario can be judged together (repeats.ts). */
  readonly declaredGates: { measurement: string; condition: GateCondition }[] = [];

  private readonly rng: Random;

  /** `seed`: the scenario's own (run-suite.ts), so a choice the story makes replays with the run. */
  constructor(
    private readonly lab: RunningLab,
    private readonly note: Note,
    seed = 1,
  ) {
    this.rng = new Random(seed);
  }

  /** A number in [0, 1) from the scenario's seed: for choices a real incident would leave to chance. */
  random(): number {
    return this.rng.next();
  }

  nodes(): string[] {
    return this.lab.nodes();
  }

  service(name: string) {
    return {
      /** The service's address of a family (IPv4 by default). */
      address: (family: 4 | 6 = 4): string => {
        const addresses = this.lab.serviceAddresses(name);
        const found = addresses.find((a) => (family === 6) === a.includes(':'));
        if (found) return found;
        // Addresses of the other family only: the topology made the Service single-stack in it.
        if (addresses.length > 0)
          throw new NotApplicableError(
            `service ${name} is single-stack IPv${family === 4 ? 6 : 4} in this topology; the scenario probes IPv${family}`,
          );
        throw new Error(`service ${name} has no IPv${family} address`);
      },
      /** externalTrafficPolicy Local: the Service's ready endpoints are on `nodes` from now on. */
      moveEndpoints: async (nodes: readonly string[]): Promise<void> => {
        this.note({ source: 'lab', kind: 'fault', message: `${name}: endpoints now on ${nodes.join(', ')}` });
        await this.lab.drive(this.lab.setEndpoints(name, nodes));
      },
    };
  }

  router(name: string) {
    return {
      /** The nodes the router forwards `address` to now (its FIB's next hops). */
      nexthops: (address: string): Promise<string[]> => this.lab.drive(this.lab.nexthops(name, address)),
      /** Waits until the router spreads `address` over exactly `count` nodes (ECMP); returns how long. */
      expectEcmp: (address: string, count: number, o: { withinMs: number }): Promise<number> =>
        this.eventually(
          `${name} forwards ${address} to ${count} nodes`,
          async () => (await this.lab.nexthops(name, address)).length === count,
          { withinMs: o.withinMs, everyMs: 100 },
        ),
    };
  }

  client(name: string) {
    return {
      /** Starts probing at once; awaiting the result lets lab time pass until the probes are done. */
      probe: (target: string, options: ProbeOptions): PromiseLike<ProbeSummary> => {
        this.note({
          source: name,
          kind: 'probe',
          message: `probing ${target} at ${options.ratePps}/s for ${options.seconds} s`,
        });
        const startedAt = this.lab.now();
        const running = this.lab.probe(name, target, options).then((summary) => {
          const series = probeSeries(name, target, startedAt, 1000 / options.ratePps, summary);
          this.probes.push(series);
          // Put each outage on the timeline where it happened, between the replies around it.
          for (const [i, g] of summary.gaps.entries()) {
            this.note({
              atMs: series.gaps[i]!.atMs,
              source: name,
              kind: 'outage',
              message: `no replies from ${target} for ${Math.round(g.gapMs)} ms (probes ${g.lastSeqBefore}..${g.firstSeqAfter}; served by ${g.serverBefore}, then ${g.serverAfter})`,
            });
          }
          return summary;
        });
        // A scenario that fails while its probe runs never awaits it, and the lab's teardown then ends
        // the prober: that rejection is the scenario's failure already, not one to end the whole run.
        running.catch(() => undefined);
        return { then: (ok, fail) => this.lab.drive(running).then(ok, fail) };
      },
      /** The node the client's traffic to `target` goes to now. */
      carrier: async (target: string): Promise<string> => {
        const node = await this.lab.carrier(name, target);
        if (!node) throw new Error(`${name} has no path to ${target} (no neighbour entry, no answer)`);
        return node;
      },
    };
  }

  /** The nodes answering ARP/NDP for an address now. */
  announcers(address: string): Promise<string[]> {
    return this.lab.drive(this.lab.announcers(address));
  }

  node(name: string): NodeControl {
    const control = this.lab.node(name);
    const wrap =
      (verb: Exclude<keyof NodeControl, 'stall'>) =>
      async (...args: [string?]) => {
        this.note({ source: name, kind: 'fault', message: `${verb}${args[0] ? ` ${args[0]}` : ''}` });
        await this.lab.drive(control[verb](...args));
      };
    return {
      kill: wrap('kill'),
      hang: wrap('hang'),
      resume: wrap('resume'),
      restart: wrap('restart'),
      revive: wrap('revive'),
      linkDown: wrap('linkDown'),
      linkUp: wrap('linkUp'),
      stall: async (ms: number) => {
        this.note({ source: name, kind: 'fault', message: `speaker main loop busy for ${ms} ms` });
        await this.lab.drive(control.stall(ms));
      },
    };
  }

  /** The cluster's own faults; only on a backend with the `kubernetes` capability (the scenario needs it). */
  kubernetes(): KubernetesControl {
    const k = this.lab.kubernetes;
    if (k === undefined)
      throw new Error('this lab runs no Kubernetes cluster (the scenario must need "kubernetes")');
    const fault = async (source: string, message: string, work: () => Promise<void>) => {
      this.note({ source, kind: 'fault', message });
      await this.lab.drive(work());
    };
    const onOff = (on: boolean, set: string, cleared: string) => (on ? set : cleared);
    return {
      speakerCrash: (node) => fault(node, 'speaker pod deleted', () => k.speakerCrash(node)),
      upgrade: () => fault('lab', 'speaker DaemonSet image changed', () => k.upgrade()),
      exclude: (node, on) =>
        fault(node, onOff(on, 'excluded from load balancers (label)', 'exclusion label removed'), () =>
          k.exclude(node, on),
        ),
      networkUnavailable: (node, on) =>
        fault(node, onOff(on, 'NetworkUnavailable=True', 'NetworkUnavailable cleared'), () =>
          k.networkUnavailable(node, on),
        ),
      apiServerOutage: (on) =>
        fault('lab', onOff(on, 'API server paused', 'API server resumed'), () => k.apiServerOutage(on)),
    };
  }

  /** Impairs a host's link (netem-like, both directions); `undefined` clears it. */
  async impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void> {
    const what = impairment
      ? `delay ${impairment.delayMs} ms, jitter ${impairment.jitterMs} ms, loss ${impairment.lossPct} %`
      : 'cleared';
    this.note({ source: host, kind: 'fault', message: `impair ${iface ?? 'link'}: ${what}` });
    await this.lab.drive(this.lab.impair(host, impairment, iface));
  }

  async partition(a: readonly string[], b: readonly string[]): Promise<void> {
    this.note({ source: 'lab', kind: 'fault', message: `partition [${a.join(', ')}] | [${b.join(', ')}]` });
    await this.lab.drive(this.lab.partition(a, b));
  }

  async heal(): Promise<void> {
    this.note({ source: 'lab', kind: 'fault', message: 'heal partition' });
    await this.lab.drive(this.lab.heal());
  }

  /** Restarts the speaker of every node, one after the other, gracefully. */
  async rollingRestart(pauseMs = 2000): Promise<void> {
    for (const n of this.lab.nodes()) {
      await this.node(n).restart();
      await this.sleep(pauseMs);
    }
  }

  sleep(ms: number): Promise<void> {
    return this.lab.drive(this.lab.sleep(ms));
  }

  now(): number {
    return this.lab.now();
  }

  /** A named part of the story; a failure inside is recorded against the step and ends the scenario. */
  async step<T>(name: string, body: () => Promise<T> | T): Promise<T> {
    const start = this.lab.now();
    this.note({ source: 'lab', kind: 'step', message: name });
    try {
      const value = await body();
      this.steps.push({ name, status: 'pass', durationMs: this.lab.now() - start });
      return value;
    } catch (err) {
      const failed = err instanceof CheckFailedError;
      this.steps.push({
        name,
        status: failed ? 'fail' : 'error',
        durationMs: this.lab.now() - start,
        message: (err as Error).message,
      });
      throw err;
    }
  }

  /** Polls `check` every `everyMs` until it holds; fails after `withinMs`. Returns how long it took. */
  async eventually(
    what: string,
    check: () => Promise<boolean> | boolean,
    o: { withinMs: number; everyMs?: number },
  ): Promise<number> {
    const start = this.lab.now();
    for (;;) {
      if (await check()) return this.lab.now() - start;
      if (this.lab.now() - start >= o.withinMs)
        throw new CheckFailedError(`${what}: not within ${o.withinMs} ms`);
      await this.sleep(o.everyMs ?? 50);
    }
  }

  /** Polls `check` every `everyMs` for `forMs`; fails the first time it does not hold. */
  async consistently(
    what: string,
    check: () => Promise<boolean> | boolean,
    o: { forMs: number; everyMs?: number },
  ): Promise<void> {
    const start = this.lab.now();
    while (this.lab.now() - start < o.forMs) {
      if (!(await check()))
        throw new CheckFailedError(`${what}: stopped holding after ${this.lab.now() - start} ms`);
      await this.sleep(o.everyMs ?? 50);
    }
  }

  measure(name: string, value: number): void {
    this.measurements[name] = value;
    this.note({ source: 'lab', kind: 'measure', message: `${name} = ${value}` });
  }

  /** The author's expectation on a measurement; a missing measurement fails the gate. */
  gate(measurement: string, threshold: Threshold): void {
    const condition = conditionOf(threshold);
    this.declaredGates.push({ measurement, condition });
    this.gates.push(evaluateGate(measurement, condition, this.measurements));
  }
}

/**
 * A probe call as the result keeps it: served-by runs and gaps on the scenario's clock. A gap is placed
 * where the last probe answered before it was sent (its reply followed one round trip later).
 */
function probeSeries(
  client: string,
  target: string,
  startedAtMs: number,
  intervalMs: number,
  s: ProbeSummary,
): ProbeSeries {
  const micros = (ms: number) => Math.round(ms * 1000) / 1000;
  return {
    client,
    target,
    startedAtMs: micros(startedAtMs),
    intervalMs,
    sent: s.sent,
    received: s.received,
    lost: s.lost,
    outageMs: micros(s.outageMs),
    runs: s.runs,
    gaps: s.gaps.map((g) => ({
      atMs: micros(startedAtMs + g.lastSeqBefore * intervalMs),
      gapMs: micros(g.gapMs),
      lostProbes: g.firstSeqAfter - g.lastSeqBefore - 1,
      serverBefore: g.serverBefore,
      serverAfter: g.serverAfter,
    })),
  };
}
