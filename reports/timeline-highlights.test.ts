import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from './result.ts';
import { highlights } from './timeline-highlights.ts';

const event = (atMs: number, kind: string): TimelineEvent => ({
  atMs,
  source: 'lab',
  kind,
  message: `${kind}@${atMs}`,
});

describe('highlights', () => {
  it('keeps a short timeline whole', () => {
    const timeline = [event(0, 'probe'), event(1, 'step')];
    expect(highlights(timeline)).toEqual({ events: timeline, leftOut: 0 });
  });

  it('keeps faults, then outages and measurements, then ownership changes, then the earliest rest, in time order', () => {
    const timeline = [
      event(0, 'probe'),
      event(1, 'owner'),
      event(2, 'probe'),
      event(3, 'measure'),
      event(4, 'fault'),
      event(5, 'probe'),
    ];
    expect(highlights(timeline, 4)).toEqual({
      events: [event(0, 'probe'), event(1, 'owner'), event(3, 'measure'), event(4, 'fault')],
      leftOut: 2,
    });
    expect(highlights(timeline, 2).events.map((e) => e.kind)).toEqual(['measure', 'fault']);
  });

  it('shows at most 20 events by default and counts the rest', () => {
    const timeline = Array.from({ length: 1000 }, (_, i) => event(i, i === 700 ? 'node-crash' : 'probe'));
    const { events, leftOut } = highlights(timeline);
    expect(events).toHaveLength(20);
    expect(leftOut).toBe(980);
    expect(events.at(-1)?.kind).toBe('node-crash');
  });
});
