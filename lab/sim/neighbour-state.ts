/**
 * Neighbour cache entry states as `ip neigh` names them (include/uapi/linux/neighbour.h NUD_*). NONE is an
 * entry just created and not yet resolving; PERMANENT and NOARP are not modelled (no static entries).
 */
export type NeighbourState = 'NONE' | 'INCOMPLETE' | 'REACHABLE' | 'STALE' | 'DELAY' | 'PROBE' | 'FAILED';

/** NUD_VALID: the entry holds a link-layer address packets can be sent to. */
export function isValid(s: NeighbourState): boolean {
  return s === 'REACHABLE' || s === 'STALE' || s === 'DELAY' || s === 'PROBE';
}

/** NUD_IN_TIMER: the states that run the entry's timer. */
export function inTimer(s: NeighbourState): boolean {
  return s === 'INCOMPLETE' || s === 'REACHABLE' || s === 'DELAY' || s === 'PROBE';
}

/** One entry as a test or a scenario check sees it. */
export interface NeighbourView {
  ip: string;
  mac: string | undefined;
  state: NeighbourState;
}
