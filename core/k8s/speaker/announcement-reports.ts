/**
 * Tells the cluster what this speaker announces: after each Layer-2 election and each change of the BGP
 * sessions or what they advertise, the status objects' desired state and the Events are brought up to
 * date. Changes in one instant fold into one report (an election and a BGP reconcile often come
 * together); nothing here waits for the API server.
 */
import type { L2Assignment } from '../../l2/election/index.ts';
import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import { announcements, type Announcements, type BgpView } from './announcements.ts';

export interface AnnouncementReportsOptions {
  node: string;
  clock: Clock;
  l2: { assignments(): readonly L2Assignment[]; onElected(listener: () => void): () => void };
  /** The BGP speaker, once one runs (it starts with the first configuration that has BGPPeers). */
  bgp?: () => (BgpView & { onChange(listener: () => void): () => void }) | undefined;
  /** Where the reports go: the status objects and the Events. */
  sinks: readonly { update(a: Announcements): void }[];
}

export class AnnouncementReports {
  private readonly timers: NamedTimers<'report'>;
  private readonly detach: (() => void)[] = [];
  private watchedBgp: unknown;

  constructor(private readonly o: AnnouncementReportsOptions) {
    this.timers = new NamedTimers(o.clock, `reports ${o.node}: `);
    this.detach.push(o.l2.onElected(() => this.changed()));
    this.watchBgp();
  }

  /** A BGP speaker was started after this (the first configuration with BGPPeers arrived). */
  watchBgp(): void {
    const bgp = this.o.bgp?.();
    if (bgp === undefined || bgp === this.watchedBgp) return;
    this.watchedBgp = bgp;
    this.detach.push(bgp.onChange(() => this.changed()));
    this.changed();
  }

  close(): void {
    this.timers.disarmAll();
    for (const d of this.detach.splice(0)) d();
  }

  private changed(): void {
    if (!this.timers.isArmed('report')) this.timers.arm('report', 0, () => this.report());
  }

  private report(): void {
    const a = announcements(this.o.node, this.o.l2.assignments(), this.o.bgp?.());
    for (const sink of this.o.sinks) sink.update(a);
  }
}
