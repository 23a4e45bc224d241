import { describe, expect, it } from 'vitest';
import { anySelectorMatches, selectorMatches } from './label-selector.ts';

const labels = { zone: 'a', role: 'edge' };

describe('label selectors (Kubernetes semantics)', () => {
  it.each([
    [{}, true],
    [{ matchLabels: { zone: 'a' } }, true],
    [{ matchLabels: { zone: 'b' } }, false],
    [{ matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['a', 'b'] }] }, true],
    [{ matchExpressions: [{ key: 'zone', operator: 'NotIn' as const, values: ['a'] }] }, false],
    [{ matchExpressions: [{ key: 'rack', operator: 'NotIn' as const, values: ['1'] }] }, true],
    [{ matchExpressions: [{ key: 'role', operator: 'Exists' as const }] }, true],
    [{ matchExpressions: [{ key: 'role', operator: 'DoesNotExist' as const }] }, false],
    [{ matchLabels: { zone: 'a' }, matchExpressions: [{ key: 'rack', operator: 'Exists' as const }] }, false],
  ])('%j → %s', (selector, expected) => {
    expect(selectorMatches(selector, labels)).toBe(expected);
  });

  it('a list of selectors matches when empty or when any one matches', () => {
    expect(anySelectorMatches([], labels)).toBe(true);
    expect(
      anySelectorMatches([{ matchLabels: { zone: 'b' } }, { matchLabels: { role: 'edge' } }], labels),
    ).toBe(true);
    expect(anySelectorMatches([{ matchLabels: { zone: 'b' } }], labels)).toBe(false);
  });
});
