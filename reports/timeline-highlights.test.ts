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

  it('keeps faults, then outages and measurements, then ownership changes, then the rest, in time order', () => {
    const timeline = [
      event(0, 'probe'),
      event(1, 'owner'),
      event(2, 'probe'),
      event(3, 'measure'),
      event(4, 'fault'),
      event(5, 'probe'),
    ];
    expect(highlights(timeline, 4)).toEqual({
      // Of the routine events, the one right after the fault is kept.
      events: [event(1, 'owner'), event(3, 'measure'), event(4, 'fault'), event(5, 'probe')],
      leftOut: 2,
    });
    expect(highlights(timeline, 2).events.map((e) => e.kind)).toEqual(['measure', 'fault']);
  });

  it('prefers what followed a fault most closely over what came before any fault', () => {
    const startup = Array.from({ length: 10 }, (_, i) => event(i, 'arp announce'));
    const timeline = [
      ...startup,
      event(100, 'fault'),
      event(450, 'arp announce'),
      event(340, 'arp announce'),
      event(2000, 'fault'),
      event(2100, 'announcer'),
    ];
    expect(highlights(timeline, 5).events.map((e) => e.atMs)).toEqual([100, 450, 340, 2000, 2100]);
    // Without faults, the earliest are kept.
    expect(highlights(startup, 3).events.map((e) => e.atMs)).toEqual([0, 1, 2]);
  });

  it('shows at most 20 events by default and counts the rest', () => {
    const timeline = Array.from({ length: 1000 }, (_, i) => event(i, i === 700 ? 'node-crash' : 'probe'));
    const { events, leftOut } = highlights(timeline);
    expect(events).toHaveLength(20);
    expect(leftOut).toBe(980);
    // The crash and what followed it.
    expect(events.map((e) => e.atMs)).toEqual(Array.from({ length: 20 }, (_, i) => 700 + i));
  });
});
