import { CeaseSubcode, ErrorCode, FsmErrorSubcode, UNSPECIFIC, type NotificationMessage } from '../codec.ts';

/** The NOTIFICATIONs the state machine itself sends (RFC 4271 §6, RFC 4486, RFC 6608, RFC 8538, RFC 9384). */
export const notify = {
  /** RFC 4271 §6.5: the hold timer expired. */
  holdTimerExpired: () => notification(ErrorCode.holdTimerExpired, UNSPECIFIC),
  /** RFC 6608 §3: the subcode names the state an unexpected message arrived in. */
  fsmError: (state: 'open-sent' | 'open-confirm' | 'established') =>
    notification(
      ErrorCode.fsm,
      state === 'open-sent'
        ? FsmErrorSubcode.unexpectedInOpenSent
        : state === 'open-confirm'
          ? FsmErrorSubcode.unexpectedInOpenConfirm
          : FsmErrorSubcode.unexpectedInEstablished,
    ),
  adminShutdown: () => notification(ErrorCode.cease, CeaseSubcode.administrativeShutdown),
  /** RFC 8538 §3: Hard Reset, the peer must not keep our routes; data = the Cease subcode meant. */
  hardReset: (inner: number) => notification(ErrorCode.cease, CeaseSubcode.hardReset, [inner]),
  maxPrefixes: () => notification(ErrorCode.cease, CeaseSubcode.maximumPrefixesReached),
  /** RFC 4271 §6.8. */
  collision: () => notification(ErrorCode.cease, CeaseSubcode.connectionCollisionResolution),
  /** RFC 9384 §3. */
  bfdDown: () => notification(ErrorCode.cease, CeaseSubcode.bfdDown),
};

function notification(code: number, subcode: number, data: readonly number[] = []): NotificationMessage {
  return { type: 'notification', code, subcode, data: Uint8Array.from(data) };
}

/** RFC 8538 §4: Hard Reset always ends graceful restart; other NOTIFICATIONs do not when N was agreed. */
export function isHardReset(n: NotificationMessage): boolean {
  return n.code === ErrorCode.cease && n.subcode === CeaseSubcode.hardReset;
}
