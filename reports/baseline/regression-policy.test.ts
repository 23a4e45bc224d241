import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGates } from '../gates.ts';

const parse = (text: string) => parseGates('gates.yaml', `gates: []\n${text}`);
const errors = (text: string) => {
  const p = parse(text);
  return p.ok ? [] : p.errors.map((e) => [e.path, e.message]);
};

describe('the regression section of a gates file', () => {
  it('resolves the shared tolerances and the per-measurement overrides', () => {
    const p = parse(
      'regression:\n  relative: 0.25\n  absolute: 50\n  measurements: [outageMs, lostProbes]\n' +
        '  overrides: { lostProbes: { absolute: 2 } }\n',
    );
    expect(p.ok && p.regression).toEqual({
      tolerances: { outageMs: { relative: 0.25, absolute: 50 }, lostProbes: { relative: 0.25, absolute: 2 } },
    });
  });

  it('is optional: without it a baseline is compared but nothing is gated on it', () => {
    const p = parse('');
    expect(p.ok && p.regression).toBeUndefined();
  });

  it('ships in reports/gates.yaml with the documented defaults', () => {
    const p = parseGates(
      'reports/gates.yaml',
      readFileSync(new URL('../gates.yaml', import.meta.url), 'utf8'),
    );
    expect(p.ok && p.regression?.tolerances).toEqual({
      outageMs: { relative: 0.25, absolute: 50 },
      lostProbes: { relative: 0.25, absolute: 2 },
      failoverMs: { relative: 0.25, absolute: 50 },
      detectionMs: { relative: 0.25, absolute: 50 },
      convergenceMs: { relative: 0.25, absolute: 50 },
    });
  });

  it.each([
    [
      'regression: 5\n',
      'regression',
      'must be a mapping with relative, absolute, measurements, overrides, not a number',
    ],
    [
      'regression: { relative: 0.2, measurements: [outageMs] }\n',
      'regression.absolute',
      "is required: a number at least 0 (in the measurement's unit)",
    ],
    [
      'regression: { relative: -1, absolute: 1, measurements: [outageMs] }\n',
      'regression.relative',
      'must be at least 0: a tolerance cannot be negative',
    ],
    [
      'regression: { relative: "25%", absolute: 1, measurements: [outageMs] }\n',
      'regression.relative',
      'must be a finite number, not the string "25%"',
    ],
    [
      'regression: { relative: 0.2, absolute: 1, measurements: [] }\n',
      'regression.measurements',
      'must be a non-empty list of measurement names such as outageMs',
    ],
    [
      'regression: { relative: 0.2, absolute: 1, measurements: [outageMs, 3] }\n',
      'regression.measurements[1]',
      'must be a measurement name, not a number',
    ],
    [
      'regression: { relative: 0.2, absolute: 1, measurements: [outageMs], overrides: { lostProbes: { absolute: 2 } } }\n',
      'regression.overrides.lostProbes',
      'overrides lostProbes, which regression.measurements does not list',
    ],
    [
      'regression: { relative: 0.2, absolute: 1, measurements: [outageMs], overrides: { outageMs: { absolut: 2 } } }\n',
      'regression.overrides.outageMs.absolut',
      'unknown field (an override has relative, absolute)',
    ],
    [
      'regression: { relative: 0.2, absolute: 1, measurements: [outageMs], tolerance: 3 }\n',
      'regression.tolerance',
      'unknown field (regression has relative, absolute, measurements, overrides)',
    ],
  ])('%j → %s: %s', (text, path, message) => {
    expect(errors(text)).toEqual([[path, message]]);
  });
});
