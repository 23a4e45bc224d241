import { describe, expect, it } from 'vitest';
import type { ProbeSummary } from '../lab/probes/outage.ts';
import { expectCutFrom } from './served.ts';

const summary = (gaps: [number, string, string][], servers: [string, number][]): ProbeSummary => ({
  sent: 4000,
  received: 4000 - gaps.reduce((n, [ms]) => n + Math.round(ms), 0),
  lost: 0,
  outageMs: Math.max(0, ...gaps.map(([ms]) => ms)),
  gaps: gaps.map(([gapMs, serverBefore, serverAfter]) => ({
    gapMs,
    serverBefore,
    serverAfter,
    lastSeqBefore: 0,
    firstSeqAfter: 0,
    sentApartMs: gapMs,
  })),
  servers: servers.map(([server, replies]) => ({ server, replies })),
  runs: [],
});

describe('expectCutFrom: a carrier fault must cut the traffic the victim carried', () => {
  it('accepts a failover whose longest gap began with the victim answering', () => {
    const s = summary(
      [
        [6, 'n1', 'n1'],
        [212, 'n1', 'n2'],
      ],
      [
        ['n1', 1000],
        ['n2', 2788],
      ],
    );
    expect(() => expectCutFrom(s, 'n1', 'c1')).not.toThrow();
  });

  it('refuses a run where another node already answered when the fault landed (a 9 ms "outage")', () => {
    const s = summary([[9, 'n2', 'n2']], [['n2', 3991]]);
    expect(() => expectCutFrom(s, 'n1', 'c1')).toThrow(
      "the lab was not steady: n1 no longer carried c1's traffic when its fault landed (the longest gap, 9 ms, followed n2; replies: n2 3991), so this run measures no failover",
    );
  });

  it('refuses a run with no gap at all', () => {
    expect(() => expectCutFrom(summary([], [['n3', 4000]]), 'n1', 'c1')).toThrow(
      /no gap at all; replies: n3 4000/,
    );
  });
});
