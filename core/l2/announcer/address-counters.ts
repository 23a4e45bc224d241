/**
 * The announcer's counts per service address, as MetalLB's layer2 metrics count them (label `ip`):
 * requests received for an owned address, responses sent to them, gratuitous frames sent. Only owned
 * addresses are ever counted, so the table holds what this node answers for, plus what it stopped
 * answering for less than RETAIN_RELEASED_MS ago: the last counts of a released address are still there
 * for the next scrape, and an address that comes back (a failover and back) keeps counting up instead of
 * starting again at zero. Older ones are dropped, so the table does not grow with the cluster's history.
 */

/** Columns indexed alike: one entry per address, as its text. Compact for a thread's message port. */
export interface AddressCounts {
  ips: string[];
  requests: number[];
  responses: number[];
  gratuitous: number[];
}

/** How long a released address's counters are kept: longer than any sensible scrape interval. */
export const RETAIN_RELEASED_MS = 10 * 60_000;

/** Released addresses are looked for at most this often (a scan of the table), and at every snapshot. */
const SWEEP_EVERY_MS = 60_000;

interface Entry {
  requests: number;
  responses: number;
  gratuitous: number;
  /** When it was released; undefined while owned. */
  releasedAtMs: number | undefined;
}

export class AddressCounters {
  private readonly entries = new Map<string, Entry>();
  private lastSweepMs: number;

  constructor(private readonly now: () => number) {
    this.lastSweepMs = now();
  }

  /** `ip` is owned (again): it counts from where it was, or from zero. */
  owned(ip: string): void {
    const e = this.entries.get(ip);
    if (e === undefined)
      this.entries.set(ip, { requests: 0, responses: 0, gratuitous: 0, releasedAtMs: undefined });
    else e.releasedAtMs = undefined;
  }

  released(ip: string): void {
    const e = this.entries.get(ip);
    if (e === undefined) return;
    const now = this.now();
    e.releasedAtMs = now;
    if (now - this.lastSweepMs >= SWEEP_EVERY_MS) this.sweep(now);
  }

  request(ip: string): void {
    const e = this.entries.get(ip);
    if (e !== undefined) e.requests++;
  }

  response(ip: string): void {
    const e = this.entries.get(ip);
    if (e !== undefined) e.responses++;
  }

  gratuitous(ip: string): void {
    const e = this.entries.get(ip);
    if (e !== undefined) e.gratuitous++;
  }

  snapshot(): AddressCounts {
    this.sweep(this.now());
    const out: AddressCounts = { ips: [], requests: [], responses: [], gratuitous: [] };
    for (const [ip, e] of this.entries) {
      out.ips.push(ip);
      out.requests.push(e.requests);
      out.responses.push(e.responses);
      out.gratuitous.push(e.gratuitous);
    }
    return out;
  }

  private sweep(now: number): void {
    this.lastSweepMs = now;
    for (const [ip, e] of this.entries)
      if (e.releasedAtMs !== undefined && now - e.releasedAtMs >= RETAIN_RELEASED_MS) this.entries.delete(ip);
  }
}
