import type { State } from './types.ts';

// SWIM's ordering of claims about one node. A claim with a higher incarnation always wins (only the
// node raises its incarnation, so a higher one is newer news from the node itself). At equal
// incarnation, worse news wins: left over dead over alive over unknown — a monitor's "dead at 7" is
// about the node's life at 7, and only the node can answer it, with "alive at 8".

export const UNKNOWN = 0;
export const ALIVE = 1;
export const DEAD = 2;
export const LEFT = 3;
export type StateCode = typeof UNKNOWN | typeof ALIVE | typeof DEAD | typeof LEFT;

export const STATE_NAMES: readonly State[] = ['unknown', 'alive', 'dead', 'left'];
export const STATE_CODES: Readonly<Record<State, StateCode>> = { unknown: 0, alive: 1, dead: 2, left: 3 };

/** Whether the claim (state, incarnation) replaces what we hold (curState, curIncarnation). */
export function supersedes(
  state: StateCode,
  incarnation: number,
  curState: StateCode,
  curIncarnation: number,
): boolean {
  if (state === UNKNOWN) return false; // "never heard of it" is no claim
  if (curState === UNKNOWN) return true;
  return incarnation > curIncarnation || (incarnation === curIncarnation && state > curState);
}
