import { describe, expect, it } from 'vitest';
import { globMatches } from './glob.ts';

describe('globMatches', () => {
  it.each([
    ['l2: *', 'l2: node crash', true],
    ['l2: *', 'bgp: node crash', false],
    ['*', '', true],
    ['l2: graceful*', 'l2: graceful handoff (rolling restart)', true],
    ['*rolling restart*', 'l2: graceful handoff (rolling restart)', true],
    ['l2: node crash', 'l2: node crash', true],
    ['l2: node crash', 'l2: node crash twice', false],
    ['l?: *', 'l2: x', true],
    ['l?: *', 'l22: x', false],
    ['?', '😀', true],
    ['a.c', 'abc', false],
    ['(x)+', '(x)+', true],
    ['[ab]', 'a', false],
    ['L2: *', 'l2: node crash', false],
  ])('%j on %j → %s', (glob, name, expected) => {
    expect(globMatches(glob, name)).toBe(expected);
  });
});
