/**
 * Which timeline events a report shows. A scenario's timeline can hold thousands of events (every probe
 * at 1000 pps); a reader wants the fault, the outage it caused and who took over, so those are kept first.
 * Event kinds are free-form strings chosen by the lab, so they are classified by the words they contain.
 */
import type { TimelineEvent } from './result.ts';

export const highlightLimit = 20;

/** Lower is more telling; anything unclassified is routine. */
const classes: readonly RegExp[] = [
  /fault|kill|crash|hang|freeze|partition|heal|restart|impair|link/i,
  // A measurement event states the figure the scenario is about.
  /outage|gap|lost|loss|recover|measure/i,
  /owner|leader|elect|takeover|handoff|failover|announce|withdraw|carrier/i,
];

function rank(e: TimelineEvent): number {
  const i = classes.findIndex((re) => re.test(e.kind));
  return i === -1 ? classes.length : i;
}

export interface Highlights {
  /** In timeline order. */
  events: TimelineEvent[];
  leftOut: number;
}

/**
 * The most telling events, shown in the order they happened. Within a class, what followed a fault most
 * closely comes first (the takeover it caused, the packets on the wire right after it), then the earliest
 * of what came before any fault.
 */
export function highlights(timeline: readonly TimelineEvent[], limit = highlightLimit): Highlights {
  const faults = timeline.filter((e) => rank(e) === 0).map((e) => e.atMs);
  const sinceFault = (e: TimelineEvent) => {
    const latest = Math.max(...faults.filter((t) => t <= e.atMs));
    return Number.isFinite(latest) ? e.atMs - latest : Infinity;
  };
  const kept = timeline
    .map((event, index) => ({ event, index, rank: rank(event), sinceFault: sinceFault(event) }))
    .sort((a, b) => a.rank - b.rank || compare(a.sinceFault, b.sinceFault) || a.index - b.index)
    .slice(0, limit)
    .sort((a, b) => a.index - b.index);
  return { events: kept.map((k) => k.event), leftOut: timeline.length - kept.length };
}

/** Ascending, with Infinity equal to itself (Infinity - Infinity is NaN). */
function compare(a: number, b: number): number {
  return a === b ? 0 : a - b;
}
