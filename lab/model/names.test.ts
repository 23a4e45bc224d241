import { describe, expect, it } from 'vitest';
import { interfaceNameProblem, naturalCompare } from './names.ts';

describe('naturalCompare', () => {
  it('orders numbered names by number, and everything else by character', () => {
    const names = ['n10', 'n2', 'n1', 'rack-b', 'rack-a', 'n01', 'n1a', 'n', 'c1'];
    expect([...names].sort(naturalCompare)).toEqual([
      'c1',
      'n',
      'n01',
      'n1',
      'n1a',
      'n2',
      'n10',
      'rack-a',
      'rack-b',
    ]);
  });

  it('is a total order: antisymmetric, and zero only for equal names', () => {
    expect(naturalCompare('n01', 'n1')).toBe(-naturalCompare('n1', 'n01'));
    expect(naturalCompare('n1', 'n1')).toBe(0);
  });
});

describe('interface names', () => {
  it('take what the kernel takes, at most 15 characters', () => {
    expect(interfaceNameProblem('eth0')).toBeUndefined();
    expect(interfaceNameProblem('eth0.100')).toBeUndefined();
    expect(interfaceNameProblem('a23456789012345')).toBeUndefined();
    expect(interfaceNameProblem('a234567890123456')).toContain('longer than 15');
  });
});
