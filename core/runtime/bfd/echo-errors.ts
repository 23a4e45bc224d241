import { LblabError } from '../../errors/lblab-error.ts';

/** Echo mode needs the interface of the session's local address, and this host has no such address. */
export class BfdEchoInterfaceError extends LblabError {
  readonly code = 'BFD_ECHO_INTERFACE';

  constructor(readonly localAddress: string) {
    super(`BFD echo mode: no interface of this host has ${localAddress}, the session's local address`);
  }
}
