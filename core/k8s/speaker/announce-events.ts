/**
 * The speaker's core/v1 Events on Services, with MetalLB's reasons: `nodeAssigned` when this node starts
 * announcing a Service over a protocol, and `announceFailed` when a Service cannot be announced.
 *
 * MetalLB records nodeAssigned on every sync, so a busy cluster's Services drown in identical Events;
 * lblab records it only when the assignment to this node changes. A failure is recorded once it has
 * lasted `failGraceMs` (a BGP session still connecting at start, or an election between two views, is
 * not a failure), once per distinct reason; a Service that recovers and fails again is recorded again.
 */
import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import { statusKey, type Announcements } from './announcements.ts';
import type { EventRecorder } from '../events/event-recorder.ts';

/** What is needed of the Event recorder (core/k8s/events): recording never throws and never blocks. */
export type EventSink = Pick<EventRecorder, 'record'>;

export interface AnnounceEventsOptions {
  node: string;
  recorder: EventSink;
  clock: Clock;
  /** The Service's uid, when the cluster view has it, for the Event's involvedObject. */
  serviceUid?: (namespace: string, name: string) => string | undefined;
  /** How long a failure must last before it is recorded (default 10 s). */
  failGraceMs?: number;
}

export const DEFAULT_FAIL_GRACE_MS = 10_000;

export class AnnounceEvents {
  /** statusKey → true for each (protocol, Service) this node announced at the last update. */
  private assigned = new Set<string>();
  private readonly failing = new Map<string, { message: string; since: number; recorded: boolean }>();
  private readonly timers: NamedTimers<'failures'>;

  constructor(private readonly o: AnnounceEventsOptions) {
    this.timers = new NamedTimers(o.clock, `announce events ${o.node}: `);
  }

  update(a: Announcements): void {
    const assigned = new Set<string>();
    for (const s of a.statuses) {
      const key = statusKey(s);
      assigned.add(key);
      if (this.assigned.has(key)) continue;
      this.record(s.serviceNamespace, s.serviceName, {
        type: 'Normal',
        reason: 'nodeAssigned',
        message: `announcing from node "${this.o.node}" with protocol "${s.protocol}"`,
      });
    }
    this.assigned = assigned;
    const now = this.o.clock.now();
    for (const service of this.failing.keys()) if (!a.failures.has(service)) this.failing.delete(service);
    for (const [service, message] of a.failures) {
      const f = this.failing.get(service);
      if (f === undefined || f.message !== message)
        this.failing.set(service, { message, since: now, recorded: false });
    }
    this.recordFailures();
  }

  close(): void {
    this.timers.disarmAll();
  }

  private recordFailures(): void {
    const grace = this.o.failGraceMs ?? DEFAULT_FAIL_GRACE_MS;
    const now = this.o.clock.now();
    let next = Infinity;
    for (const [service, f] of this.failing) {
      if (f.recorded) continue;
      if (now - f.since < grace) {
        next = Math.min(next, f.since + grace);
        continue;
      }
      f.recorded = true;
      const slash = service.indexOf('/');
      this.record(service.slice(0, slash), service.slice(slash + 1), {
        type: 'Warning',
        reason: 'announceFailed',
        message: `Failed to announce service: ${f.message}`,
      });
    }
    if (next < Infinity) this.timers.arm('failures', next - now, () => this.recordFailures());
    else this.timers.disarm('failures');
  }

  private record(
    namespace: string,
    name: string,
    e: { type: 'Normal' | 'Warning'; reason: string; message: string },
  ): void {
    const uid = this.o.serviceUid?.(namespace, name);
    this.o.recorder.record({
      ...e,
      involved: { apiVersion: 'v1', kind: 'Service', namespace, name, ...(uid !== undefined && { uid }) },
    });
  }
}
