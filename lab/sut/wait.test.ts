import { describe, expect, it } from 'vitest';
import { SutTimeoutError } from './errors.ts';
import { waitFor } from './wait.ts';

describe('waitFor', () => {
  it('returns the first defined value, treating a throwing probe as not yet', async () => {
    let calls = 0;
    const v = await waitFor(
      () => {
        calls++;
        if (calls < 3) return Promise.reject(new Error('socket not there yet'));
        return Promise.resolve(calls === 3 ? undefined : 'ready');
      },
      { what: 'x', withinMs: 2000, intervalMs: 1 },
    );
    expect(v).toBe('ready');
    expect(calls).toBe(4);
  });

  it('times out with what it waited for, the last error and the diagnostics', async () => {
    const t0 = Date.now();
    const err = await waitFor(() => Promise.reject(new Error('connection refused')), {
      what: 'BGP session with 198.18.0.2 established',
      withinMs: 120,
      diagnostics: () => Promise.resolve('--- bgpd.log ---\nboom'),
    }).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(120);
    expect(err).toBeInstanceOf(SutTimeoutError);
    expect((err as Error).message).toBe(
      'BGP session with 198.18.0.2 established: not within 120 ms; last error: connection refused\n--- bgpd.log ---\nboom',
    );
  });

  it('polls at most every 50 ms whatever interval is asked for', async () => {
    const times: number[] = [];
    await waitFor(
      () => {
        times.push(Date.now());
        return Promise.resolve(undefined);
      },
      { what: 'x', withinMs: 400, intervalMs: 1000 },
    ).catch(() => undefined);
    expect(times.length).toBeGreaterThanOrEqual(6);
  });
});
