import { LblabError } from '../../errors/lblab-error.ts';
import { ErrorCode, type NotificationMessage } from '../codec.ts';

/** A peer's OPEN we refuse, with the subcode and data its NOTIFICATION carries (RFC 4271 §6.2). */
export class OpenError extends LblabError {
  readonly code = 'bgp-open-refused';

  constructor(
    message: string,
    readonly subcode: number,
    readonly data: readonly number[] = [],
  ) {
    super(message);
  }

  notification(): NotificationMessage {
    return {
      type: 'notification',
      code: ErrorCode.openMessage,
      subcode: this.subcode,
      data: Uint8Array.from(this.data),
    };
  }
}
