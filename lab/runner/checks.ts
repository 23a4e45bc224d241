import type { Comparator, GateCondition } from '../../reports/index.ts';

/** A bounded check (eventually / consistently) that did not hold; the message says what and how long. */
export class CheckFailedError extends Error {
  readonly code = 'CHECK_FAILED';
}

/**
 * The lab cannot tell the scenario's story (a single-stack IPv4 Service for an IPv6 scenario, say): the
 * scenario is reported not-applicable with this message, as for a capability the backend lacks.
 */
export class NotApplicableError extends Error {
  readonly code = 'NOT_APPLICABLE';
}

/** A gate's comparison as a scenario writes it: `{ below: 1000 }`, `{ equals: 0 }`, ... */
export type Threshold = { [C in Comparator]: { [K in C]: number } }[Comparator];

export function conditionOf(t: Threshold): GateCondition {
  const [comparator, threshold] = Object.entries(t)[0] as [Comparator, number];
  return { comparator, threshold };
}
