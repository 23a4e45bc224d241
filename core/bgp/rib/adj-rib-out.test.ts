import { describe, expect, it } from 'vitest';
import { Prefix } from '../../net/index.ts';
import { AdjRibOut } from './adj-rib-out.ts';
import type { Route } from './route.ts';

const route = (p: string, communities: number[] = []): Route => ({
  prefix: Prefix.parse(p),
  attributes: { communities, largeCommunities: [] },
});
const prefixes = (changes: ReturnType<AdjRibOut['sync']>) => ({
  announce: changes.announce.map((g) => g.routes.map((r) => r.prefix.toString())),
  withdraw: changes.withdraw.map(String),
});

describe('Adj-RIB-Out', () => {
  it('sends only the difference, grouping routes with equal attributes', () => {
    const rib = new AdjRibOut();
    expect(
      prefixes(rib.sync([route('198.18.100.1/32'), route('198.18.100.2/32'), route('198.18.100.3/32', [1])])),
    ).toEqual({
      announce: [['198.18.100.1/32', '198.18.100.2/32'], ['198.18.100.3/32']],
      withdraw: [],
    });
    expect(
      prefixes(rib.sync([route('198.18.100.1/32'), route('198.18.100.2/32'), route('198.18.100.3/32', [1])])),
    ).toEqual({
      announce: [],
      withdraw: [],
    });
    expect(prefixes(rib.sync([route('198.18.100.1/32'), route('198.18.100.3/32', [2])]))).toEqual({
      announce: [['198.18.100.3/32']],
      withdraw: ['198.18.100.2/32'],
    });
    expect(rib.size).toBe(2);
  });

  it('re-sends everything after a reset (a new session) and on request (route refresh)', () => {
    const rib = new AdjRibOut();
    rib.sync([route('198.18.100.1/32')]);
    expect(prefixes(rib.all()).announce).toEqual([['198.18.100.1/32']]);
    rib.reset();
    expect(prefixes(rib.sync([route('198.18.100.1/32')])).announce).toEqual([['198.18.100.1/32']]);
  });
});
