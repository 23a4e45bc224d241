/** The x domain a scenario's probe and event charts share, so a gap lines up with the fault that caused it. */
import type { ScenarioResult } from '../../result.ts';

export function timeDomainEnd(s: ScenarioResult): number {
  const ends = [
    ...s.timeline.map((e) => e.atMs),
    ...(s.probes ?? []).flatMap((p) => [
      p.startedAtMs + p.sent * p.intervalMs,
      ...p.gaps.map((g) => g.atMs + g.gapMs),
    ]),
  ];
  // A scenario with one instant of events still gets a visible axis.
  return Math.max(1, ...ends);
}

export const timeAxisTitle = 'ms since scenario start';

/** The y axis of both time charts takes the same width, so their x axes line up on the page. */
export const timeChartYAxis = { minExtent: 150, maxExtent: 150, labelLimit: 140 };
