import { VirtualClock } from '../../core/runtime/virtual-clock.ts';
import type { ProbeSummary } from '../probes/outage.ts';
import type { NodeControl, RunningLab } from './backend.ts';

/**
 * A scripted RunningLab for testing the DSL and the runner without a network: time is a VirtualClock
 * advanced by `drive`; probes answer with the summary the test set; faults are recorded.
 */
export class FakeLab implements RunningLab {
  readonly clock = new VirtualClock();
  readonly faults: string[] = [];
  announcing: string[] = ['n1'];
  nextProbe: ProbeSummary = {
    sent: 10,
    received: 10,
    lost: 0,
    outageMs: 10,
    gaps: [],
    servers: [{ server: 'n1', replies: 10 }],
    runs: [{ server: 'n1', firstSeq: 0, lastSeq: 9 }],
  };
  downCalls = 0;
  /** What `nexthops` answers: the router's ECMP set. */
  routed: string[] = ['n1', 'n2', 'n3'];

  now(): number {
    return this.clock.now();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimer('sleep', ms, resolve));
  }

  async drive<T>(work: Promise<T>): Promise<T> {
    let done = false;
    void work.finally(() => (done = true)).catch(() => undefined);
    for (let i = 0; i < 100_000 && !done; i++) {
      await new Promise((r) => setImmediate(r));
      if (!done && !this.clock.step()) break;
    }
    return work;
  }

  nodes(): string[] {
    return ['n1', 'n2', 'n3'];
  }

  /** Every Service's addresses (a dual-stack pair unless a test says otherwise). */
  addresses = ['198.18.0.192', '2001:db8::100'];

  serviceAddresses(): string[] {
    return this.addresses;
  }

  probe(_client: string, _target: string, o: { seconds: number }): Promise<ProbeSummary> {
    const summary = this.nextProbe;
    return new Promise((resolve) => this.clock.setTimer('probe', o.seconds * 1000, () => resolve(summary)));
  }

  async carrier(): Promise<string | undefined> {
    return this.announcing[0];
  }

  async announcers(): Promise<string[]> {
    return this.announcing;
  }

  node(name: string): NodeControl {
    const record = (verb: string) => async () => {
      this.faults.push(`${verb} ${name}`);
    };
    return {
      kill: record('kill'),
      hang: record('hang'),
      resume: record('resume'),
      restart: record('restart'),
      revive: record('revive'),
      linkDown: record('linkDown'),
      linkUp: record('linkUp'),
      stall: record('stall'),
    };
  }

  async nexthops(): Promise<string[]> {
    return this.routed;
  }

  async setEndpoints(service: string, nodes: readonly string[]): Promise<void> {
    this.faults.push(`endpoints ${service} ${nodes.join(',')}`);
  }

  async impair(host: string, impairment: unknown): Promise<void> {
    this.faults.push(`impair ${host} ${impairment ? 'on' : 'off'}`);
  }

  async partition(a: readonly string[], b: readonly string[]): Promise<void> {
    this.faults.push(`partition ${a.join(',')}|${b.join(',')}`);
  }

  async heal(): Promise<void> {
    this.faults.push('heal');
  }

  async down(): Promise<void> {
    this.downCalls++;
  }
}
