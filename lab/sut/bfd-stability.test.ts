import { describe, expect, it } from 'vitest';
import { watchBfdStability } from './bfd-stability.ts';
import type { BfdSessionView } from './router.ts';

/** A router whose BFD view follows a script, one entry per read; the last entry repeats. */
function scripted(views: Partial<BfdSessionView>[]) {
  let reads = 0;
  return {
    bfdSessions: async (): Promise<BfdSessionView[]> => {
      const v = views[Math.min(reads++, views.length - 1)]!;
      return [{ peer: '198.18.0.11', state: 'up', ...v }];
    },
  };
}

describe('BFD stability over a window', () => {
  it('is stable when every poll sees Up and the counters do not move', async () => {
    const r = scripted([{ upTransitions: 1, downTransitions: 1 }]);
    const s = await watchBfdStability(r, '198.18.0.11', { durationMs: 60, pollMs: 10 });
    expect(s).toMatchObject({
      peer: '198.18.0.11',
      notUp: 0,
      downTransitions: 0,
      upTransitions: 0,
      flapped: false,
    });
    expect(s.polls).toBeGreaterThanOrEqual(4);
  });

  it('catches a flap between two polls from the counters alone', async () => {
    const r = scripted([
      { upTransitions: 1, downTransitions: 0 },
      { upTransitions: 2, downTransitions: 1 },
    ]);
    const s = await watchBfdStability(r, '198.18.0.11', { durationMs: 30, pollMs: 10 });
    expect(s).toMatchObject({ notUp: 0, downTransitions: 1, upTransitions: 1, flapped: true });
  });

  it('catches a session seen down, or gone, where the daemon has no counters', async () => {
    const down = scripted([{}, { state: 'down' }, {}]);
    expect(await watchBfdStability(down, '198.18.0.11', { durationMs: 40, pollMs: 5 })).toMatchObject({
      notUp: 1,
      flapped: true,
    });
    const gone = { bfdSessions: async () => [] };
    const s = await watchBfdStability(gone, '198.18.0.11', { durationMs: 20, pollMs: 5 });
    expect(s.flapped).toBe(true);
    expect(s).not.toHaveProperty('downTransitions');
  });
});
