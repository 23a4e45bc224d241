import { describe, expect, it } from 'vitest';
import { applyGates } from './apply-gates.ts';
import { renderJson } from './json.ts';
import type { RunResult } from './result.ts';
import { repeatedRun } from './repeated-result.test-support.ts';
import { sampleRun } from './sample-result.test-support.ts';

const gated = () =>
  applyGates(sampleRun(), [
    { scenario: 'l2: *', measurement: 'outageMs', comparator: 'below', threshold: 1000 },
  ]);

/** The same object with every key inserted in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversedKeys(v)]),
  );
}

describe('renderJson', () => {
  it('round-trips: parsing result.json gives the result back', () => {
    const result = gated();
    expect(JSON.parse(renderJson(result))).toEqual(result);
  });

  it('gives the same bytes for the same result, whatever order its keys were set in', () => {
    const result = gated();
    expect(renderJson(result)).toBe(renderJson(gated()));
    expect(renderJson(reversedKeys(result) as RunResult)).toBe(renderJson(result));
  });

  it('lists keys in the contract order, 2-space indented, ending in a newline', () => {
    const text = renderJson(gated());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n').slice(0, 10)).toEqual([
      '{',
      '  "schemaVersion": 1,',
      '  "runId": "r-20240501-abc",',
      '  "seed": 42,',
      '  "backend": "emulated",',
      '  "commit": "57d5b95",',
      '  "startedAt": "2024-05-01T12:00:00.000Z",',
      '  "durationMs": 12345,',
      '  "scenarios": [',
      '    {',
    ]);
    const first = JSON.parse(text).scenarios[0];
    expect(Object.keys(first)).toEqual([
      'name',
      'topology',
      'sut',
      'status',
      'reason',
      'measurements',
      'gates',
      'steps',
      'timeline',
      'durationMs',
    ]);
    expect(Object.keys(first.measurements)).toEqual([
      'detectionMs',
      'lostProbes',
      'outageMs',
      'probeRatePps',
    ]);
    expect(Object.keys(first.gates[0])).toEqual(['name', 'threshold', 'value', 'pass']);
    expect(Object.keys(first.timeline[0])).toEqual(['atMs', 'source', 'kind', 'message']);
  });

  it('keeps fields added to the contract later, after the known ones and by name', () => {
    const result = { ...sampleRun(), zeta: 1, alpha: { b: 2, a: 1 } } as RunResult;
    const parsed = JSON.parse(renderJson(result));
    expect(Object.keys(parsed).slice(-3)).toEqual(['scenarios', 'alpha', 'zeta']);
    expect(Object.keys(parsed.alpha)).toEqual(['a', 'b']);
  });

  it('differs between two runs of one seed only in the run-specific fields', () => {
    const a = gated();
    const b = {
      ...gated(),
      runId: 'r-other',
      startedAt: '2024-05-02T00:00:00.000Z',
      durationMs: 1,
      commit: 'abc',
    };
    const diff = renderJson(a)
      .split('\n')
      .filter((line, i) => line !== renderJson(b).split('\n')[i]);
    expect(diff.map((l) => l.trim().split(':')[0])).toEqual([
      '"runId"',
      '"commit"',
      '"startedAt"',
      '"durationMs"',
    ]);
  });

  it('gives probe series, repeats and distributions their own stable place and shape', () => {
    const result = applyGates(repeatedRun(), [
      { scenario: 'l2: *', measurement: 'outageMs', comparator: 'below', threshold: 400, statistic: 'p95' },
    ]);
    const text = renderJson(result);
    expect(JSON.parse(text)).toEqual(result);
    expect(renderJson(reversedKeys(result) as RunResult)).toBe(text);
    const parsed = JSON.parse(text) as RunResult;
    expect(Object.keys(parsed).slice(-2)).toEqual(['scenarios', 'repeat']);
    const s = parsed.scenarios[0]!;
    expect(Object.keys(s)).toEqual([
      'name',
      'topology',
      'sut',
      'status',
      'reason',
      'measurements',
      'gates',
      'steps',
      'timeline',
      'probes',
      'durationMs',
      'repeats',
      'distributions',
      'shownRepeat',
    ]);
    expect(Object.keys(s.probes![0]!)).toEqual([
      'client',
      'target',
      'startedAtMs',
      'intervalMs',
      'sent',
      'received',
      'lost',
      'outageMs',
      'runs',
      'gaps',
    ]);
    expect(Object.keys(s.probes![0]!.gaps[0]!)).toEqual([
      'atMs',
      'gapMs',
      'lostProbes',
      'serverBefore',
      'serverAfter',
    ]);
    expect(Object.keys(s.repeats![0]!)).toEqual(['seed', 'status', 'measurements', 'durationMs']);
    expect(Object.keys(s.distributions!)).toEqual(['lostProbes', 'outageMs']);
    expect(Object.keys(s.distributions!['outageMs']!)).toEqual(['median', 'p95', 'min', 'max', 'samples']);
    expect(Object.keys(s.gates[1]!)).toEqual(['name', 'threshold', 'value', 'pass', 'statistic']);
    // Compact: a 4000-probe series is two runs and one gap, not 4000 rows.
    expect(text.split('\n').length).toBeLessThan(200);
  });
});
