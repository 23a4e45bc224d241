import { LblabError } from '../../errors/lblab-error.ts';

/** Echo mode needs the interface of the session's local address, and this host has no such address. */
export class BfdEchoInterfaceError extends LblabError {
  readonly code = 'BFD_ECHO_INTERFACE';

  constructor(readonly localAddress: string) {
    super(`BFD echo mode: no interface of this host has ${localAddress}, the session's local address`);
  }
}

/** The node would drop its own looped echoes as martians (they come back from its own address). */
export class BfdEchoAcceptLocalError extends LblabError {
  readonly code = 'BFD_ECHO_ACCEPT_LOCAL';

  constructor(readonly interfaceName: string) {
    super(
      `BFD echo mode on ${interfaceName}: our echoes come back from our own address, which the kernel drops ` +
        `unless net.ipv4.conf.${interfaceName}.accept_local=1 (or conf.all); set it, or turn echoMode off`,
    );
  }
}
