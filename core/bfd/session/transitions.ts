import { Diagnostic, type BfdState } from '../codec.ts';
import { diagnosticText } from './state-change.ts';

export interface Transition {
  to: BfdState;
  diagnostic: number;
  reason: string;
}

/**
 * RFC 5880 §6.8.6, the state table applied to a received packet (the three-way handshake: Down → Init on
 * the peer's Down, Init → Up on its Init or Up, Down → Up on its Init). Undefined when the state stays.
 * The caller has already discarded the packet if we are AdminDown.
 */
export function transitionOnReceive(
  local: Exclude<BfdState, 'admin-down'>,
  remote: BfdState,
  remoteDiagnostic: number,
): Transition | undefined {
  const neighborDown = Diagnostic.neighborSignaledSessionDown;
  if (remote === 'admin-down') {
    // "If received state is AdminDown: if bfd.SessionState is not Down, set bfd.LocalDiag to 3 (Neighbor
    // signaled session down) and bfd.SessionState to Down."
    if (local === 'down') return undefined;
    return {
      to: 'down',
      diagnostic: neighborDown,
      reason: 'the peer is administratively down, which is no path failure (RFC 5882 §3.2)',
    };
  }
  switch (local) {
    case 'down':
      if (remote === 'down') return { to: 'init', diagnostic: Diagnostic.none, reason: 'the peer is Down' };
      if (remote === 'init') return { to: 'up', diagnostic: Diagnostic.none, reason: 'the peer is in Init' };
      return undefined;
    case 'init':
      if (remote === 'init' || remote === 'up') {
        return {
          to: 'up',
          diagnostic: Diagnostic.none,
          reason: `the peer is ${remote === 'up' ? 'Up' : 'in Init'}`,
        };
      }
      return undefined;
    case 'up':
      if (remote !== 'down') return undefined;
      return {
        to: 'down',
        diagnostic: neighborDown,
        reason: `the peer went Down (${diagnosticText(remoteDiagnostic)})`,
      };
  }
}
