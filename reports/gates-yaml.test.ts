/** The release gates the project ships: they parse, and they gate the L2 scenarios as intended. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyGates } from './apply-gates.ts';
import { parseGates } from './gates.ts';
import { sampleRun, scenario } from './sample-result.test-support.ts';

const parsed = parseGates(
  'reports/gates.yaml',
  readFileSync(new URL('./gates.yaml', import.meta.url), 'utf8'),
);

describe('reports/gates.yaml', () => {
  it('parses', () => {
    expect(parsed.ok ? [] : parsed.errors).toEqual([]);
  });

  const gatesOf = (name: string, sut = 'lblab') => {
    const rules = parsed.ok ? parsed.rules : [];
    const [s] = applyGates({ ...sampleRun(), scenarios: [scenario({ name, sut })] }, rules).scenarios;
    return s?.gates.map((g) => `${g.name} ${g.threshold}`);
  };

  it.each([
    ['l2: node crash', ['outageMs < 1000']],
    ['l2: speaker hang', ['outageMs < 1000']],
    ['l2: graceful handoff (rolling restart)', ['lostProbes = 0']],
    ['l2: partition and heal', ['convergenceMs < 1000']],
  ])('%s is gated on %j', (name, gates) => {
    expect(gatesOf(name)).toEqual(gates);
  });

  it('does not gate peers measured side by side', () => {
    expect(gatesOf('l2: node crash', 'keepalived')).toEqual([]);
  });
});
