import { describe, expect, test } from 'vitest';
import { generateName, validateName } from './names.ts';
import { compareVersions } from './resource-types.ts';

describe('metadata.name rules', () => {
  test.each([
    ['l2-abcde', 'dns-subdomain', true],
    ['a.b-c', 'dns-subdomain', true],
    ['A', 'dns-subdomain', false],
    ['-a', 'dns-subdomain', false],
    ['a.b', 'dns-label', false],
    ['1web', 'dns-1035-label', false],
    ['web-1', 'dns-1035-label', true],
    ['metallb-system:controller', 'path-segment', true],
    ['metallb-system:controller', 'dns-subdomain', false],
    ['a/b', 'path-segment', false],
  ] as const)('%s under %s is valid: %s', (name, rule, valid) => {
    expect(validateName(name, rule).length === 0).toBe(valid);
  });

  test('generateName appends five characters from upstream’s alphabet', () => {
    expect(generateName('bgp-', () => 0.999)).toBe('bgp-99999');
    expect(generateName('x'.repeat(70), () => 0)).toHaveLength(63);
  });
});

test('versions sort by kube-aware priority: GA, then beta, then alpha, higher first', () => {
  expect(['v1alpha1', 'v1beta1', 'v1', 'v1beta2', 'v2', 'v2beta1', 'foo'].sort(compareVersions)).toEqual([
    'v2',
    'v1',
    'v2beta1',
    'v1beta2',
    'v1beta1',
    'v1alpha1',
    'foo',
  ]);
});
