import { describe, expect, it } from 'vitest';
import type { AsPathSegment } from './as-path.ts';
import { mergeAs4Path } from './as4-path.ts';
import { pathLength } from './as-path.ts';

const seq = (...asns: number[]): AsPathSegment => ({ type: 'sequence', asns });
const set = (...asns: number[]): AsPathSegment => ({ type: 'set', asns });
const confed = (...asns: number[]): AsPathSegment => ({ type: 'confed-sequence', asns });
const T = 23456;

describe('AS_PATH / AS4_PATH merge (RFC 6793 §4.2.3)', () => {
  it('counts an AS_SET as one and confederation segments as none (RFC 4271 §9.1.2.2, RFC 5065)', () => {
    expect(pathLength([confed(1, 2), seq(3, 4), set(5, 6, 7)])).toBe(3);
  });

  it('replaces the whole path when both count the same', () => {
    expect(mergeAs4Path([seq(64512, T)], [seq(64512, 4_200_000_001)])).toEqual([seq(64512, 4_200_000_001)]);
  });

  it('prepends the AS numbers a 2-octet speaker added after the AS4_PATH was built', () => {
    expect(mergeAs4Path([seq(65001, 65002, T, 64512)], [seq(4_200_000_001, 64512)])).toEqual([
      seq(65001, 65002, 4_200_000_001, 64512),
    ]);
  });

  it('ignores AS4_PATH when it counts more AS numbers than AS_PATH', () => {
    expect(mergeAs4Path([seq(T)], [seq(4_200_000_001, 64512)])).toEqual([seq(T)]);
  });

  it('keeps a leading confederation segment and one adjacent to a prepended segment', () => {
    expect(mergeAs4Path([confed(65100), seq(T)], [seq(4_200_000_001)])).toEqual([
      confed(65100),
      seq(4_200_000_001),
    ]);
    expect(mergeAs4Path([seq(65001), confed(65100), seq(T)], [seq(4_200_000_001)])).toEqual([
      seq(65001),
      confed(65100),
      seq(4_200_000_001),
    ]);
  });

  it('prepends a whole AS_SET as one AS number', () => {
    expect(mergeAs4Path([set(65001, 65002), seq(T)], [seq(4_200_000_001)])).toEqual([
      set(65001, 65002),
      seq(4_200_000_001),
    ]);
  });
});
