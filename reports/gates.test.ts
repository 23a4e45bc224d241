import { describe, expect, it } from 'vitest';
import { formatIssue } from '../core/config/issues.ts';
import { parseGates } from './gates.ts';

const ok = (text: string) => {
  const r = parseGates('gates.yaml', text);
  if (!r.ok) throw new Error(r.errors.map(formatIssue).join('\n'));
  return r.rules;
};
const errors = (text: string) => {
  const r = parseGates('gates.yaml', text);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
};

describe('parseGates', () => {
  it('reads every comparator and the optional sut', () => {
    const rules = ok(`
gates:
  - { scenario: "l2: *", measurement: outageMs, below: 1000, sut: lblab }
  - { scenario: "a?", measurement: m, atMost: 1.5 }
  - { scenario: b, measurement: m, above: -2 }
  - { scenario: c, measurement: m, atLeast: 0x10 }
  - { scenario: d, measurement: lostProbes, equals: 0 }
  - { scenario: e, measurement: outageMs, below: 500, statistic: p95 }
`);
    expect(rules).toEqual([
      { scenario: 'l2: *', measurement: 'outageMs', comparator: 'below', threshold: 1000, sut: 'lblab' },
      { scenario: 'a?', measurement: 'm', comparator: 'atMost', threshold: 1.5 },
      { scenario: 'b', measurement: 'm', comparator: 'above', threshold: -2 },
      { scenario: 'c', measurement: 'm', comparator: 'atLeast', threshold: 16 },
      { scenario: 'd', measurement: 'lostProbes', comparator: 'equals', threshold: 0 },
      { scenario: 'e', measurement: 'outageMs', comparator: 'below', threshold: 500, statistic: 'p95' },
    ]);
  });

  it('takes an empty list as no gates', () => {
    expect(ok('gates: []')).toEqual([]);
  });

  const rule = (extra: string) => `gates:\n  - scenario: x\n    measurement: m\n${extra}`;
  it.each([
    ['', '', 'a gates file is a mapping with a `gates` list'],
    ['- gates', '', 'a gates file is a mapping with a `gates` list'],
    ['gates: {}', 'gates', 'must be a list of gates'],
    ['gates: [1]', 'gates[0]', 'must be a mapping with scenario, measurement and one comparator'],
    [rule('    below: "1000"\n'), 'gates[0].below', 'must be a number, not the string "1000"'],
    [rule('    equals: null\n'), 'gates[0].equals', 'must be a number, not null'],
    [rule('    atLeast: [1]\n'), 'gates[0].atLeast', 'must be a number, not a list'],
    [rule('    atMost: .inf\n'), 'gates[0].atMost', 'must be a finite number'],
    [rule('    above: .nan\n'), 'gates[0].above', 'must be a finite number'],
    [rule(''), 'gates[0]', 'needs one comparator: below, atMost, above, atLeast, equals'],
    [
      rule('    below: 1\n    equals: 0\n'),
      'gates[0]',
      'has below and equals; a gate takes exactly one comparator',
    ],
    [rule('    below: 1\n    sut: 7\n'), 'gates[0].sut', 'must be a non-empty string: such as lblab'],
    [
      rule('    below: 1\n    statistic: p99\n'),
      'gates[0].statistic',
      'must be one of median, p95, min, max, not the string "p99"',
    ],
    [
      rule('    below: 1\n    statistic: 95\n'),
      'gates[0].statistic',
      'must be one of median, p95, min, max, not a number',
    ],
    [
      'gates:\n  - { measurement: m, below: 1 }',
      'gates[0].scenario',
      'is required: a glob on scenario names such as "l2: *"',
    ],
    [
      'gates:\n  - { scenario: a, measurement: m, below: 1 }\n  - { scenario: a, measurement: "", below: 1 }',
      'gates[1].measurement',
      'must be a non-empty string: a measurement name such as outageMs',
    ],
  ])('%j → %s: %s', (text, path, message) => {
    expect(errors(text)).toEqual([{ file: 'gates.yaml', document: 0, path, message }]);
  });

  it('names unknown fields with their exact path, quoting keys that are not identifiers', () => {
    const e = errors('gates:\n  - { scenario: a, measurement: m, bellow: 1 }\n"my gates": []\n');
    expect(e.map((i) => [i.path, i.message])).toEqual([
      ['["my gates"]', 'unknown field (a gates file has gates and regression)'],
      [
        'gates[0].bellow',
        'unknown field (a gate has scenario, measurement, sut, statistic, below, atMost, above, atLeast, equals)',
      ],
      ['gates[0]', 'needs one comparator: below, atMost, above, atLeast, equals'],
    ]);
  });

  it('requires the gates key', () => {
    expect(errors('gate: []').map((i) => i.path)).toEqual(['gate', 'gates']);
    expect(errors('gate: []')[1]?.message).toBe('is required (write `gates: []` for none)');
  });

  it('reports YAML syntax errors and duplicate keys with their line', () => {
    const [syntax] = errors('gates:\n  - [unclosed\n');
    expect(syntax).toMatchObject({ file: 'gates.yaml', document: 0, path: '', line: 3 });
    expect(syntax?.message).toMatch(/^YAML: /);
    const [duplicate] = errors('gates: []\ngates: []\n');
    expect(duplicate).toMatchObject({
      path: '',
      message: 'YAML: Map keys must be unique',
      line: 2,
      column: 1,
    });
  });

  it('refuses a second document, naming it', () => {
    expect(errors('gates: []\n---\ngates: []\n')).toEqual([
      { file: 'gates.yaml', document: 1, path: '', message: 'a gates file holds one YAML document' },
    ]);
  });

  it('formats like configuration issues: file, document, path, message', () => {
    expect(errors(rule('    below: "1000"\n')).map(formatIssue)).toEqual([
      'gates.yaml: document 0: gates[0].below: must be a number, not the string "1000"',
    ]);
  });
});
