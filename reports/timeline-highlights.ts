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

/** The most telling events (earliest first within a class), shown in the order they happened. */
export function highlights(timeline: readonly TimelineEvent[], limit = highlightLimit): Highlights {
  const kept = timeline
    .map((event, index) => ({ event, index, rank: rank(event) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, limit)
    .sort((a, b) => a.index - b.index);
  return { events: kept.map((k) => k.event), leftOut: timeline.length - kept.length };
}
