/**
 * What a gate checks and how: one comparator against one threshold. Gates from the gates file and gates
 * a scenario declares itself (`lab.gate('outageMs', { below: 1000 })`) are evaluated here, so both read
 * a threshold the same way.
 */
import type { Distribution, GateResult, Statistic } from './result.ts';

export const comparators = ['below', 'atMost', 'above', 'atLeast', 'equals'] as const;
export type Comparator = (typeof comparators)[number];

export interface GateCondition {
  comparator: Comparator;
  threshold: number;
}

const symbols: Record<Comparator, string> = {
  below: '<',
  atMost: '<=',
  above: '>',
  atLeast: '>=',
  equals: '=',
};

/** "< 1000", "= 0": ASCII, so it reads the same in a terminal, in Markdown and in JUnit XML. */
export function thresholdText(c: GateCondition): string {
  return `${symbols[c.comparator]} ${c.threshold}`;
}

export function meets(value: number, c: GateCondition): boolean {
  switch (c.comparator) {
    case 'below':
      return value < c.threshold;
    case 'atMost':
      return value <= c.threshold;
    case 'above':
      return value > c.threshold;
    case 'atLeast':
      return value >= c.threshold;
    case 'equals':
      return value === c.threshold;
  }
}

/** "p95 of outageMs" when the gate judged a statistic of repeats, else the measurement's name. */
export function gateSubject(g: Pick<GateResult, 'name' | 'statistic'>): string {
  return g.statistic === undefined ? g.name : `${g.statistic} of ${g.name}`;
}

/**
 * A gate on one measurement. A measurement the scenario did not produce (or could not: NaN, Infinity,
 * which JSON cannot carry either) is null and fails: a gate that cannot be evaluated must not pass.
 * `repeated`: the scenario ran several times, and the gate judges that statistic of its distribution.
 */
export function evaluateGate(
  measurement: string,
  c: GateCondition,
  measurements: Readonly<Record<string, number>>,
  repeated?: { distributions: Readonly<Record<string, Distribution>>; statistic: Statistic },
): GateResult {
  // Own properties only: a measurement called "constructor" must not read Object.prototype.
  const raw = repeated
    ? Object.hasOwn(repeated.distributions, measurement)
      ? repeated.distributions[measurement]![repeated.statistic]
      : undefined
    : Object.hasOwn(measurements, measurement)
      ? measurements[measurement]
      : undefined;
  const value = raw !== undefined && Number.isFinite(raw) ? raw : null;
  const gate: GateResult = {
    name: measurement,
    threshold: thresholdText(c),
    value,
    pass: value !== null && meets(value, c),
  };
  if (repeated) gate.statistic = repeated.statistic;
  return gate;
}
