import { LblabError } from '../../errors/lblab-error.ts';
import type { IpFamily } from '../../net/index.ts';

/** An option of UdpBfdNetwork or of one session is invalid; `field` names it, the message says why. */
export class BfdOptionError extends LblabError {
  readonly code = 'BFD_OPTION';

  constructor(
    readonly field: string,
    reason: string,
    options?: { cause: unknown },
  ) {
    super(`BFD option ${field}: ${reason}`, options);
  }
}

/**
 * A system call on a BFD socket failed; `errno` names it: EADDRINUSE (another BFD implementation holds
 * port 3784 or 4784), EADDRNOTAVAIL (the local address is not on this host), EPERM.
 */
export class BfdSocketError extends LblabError {
  readonly code = 'BFD_SOCKET';

  constructor(
    readonly errno: string,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** Every source port of RFC 5881 §4's range (49152-65535) is held by a session or by another socket. */
export class BfdSourcePortsExhaustedError extends LblabError {
  readonly code = 'BFD_SOURCE_PORTS_EXHAUSTED';

  constructor(localAddress: string) {
    super(`no free UDP source port in 49152-65535 on ${localAddress} for another BFD session`);
  }
}

/** More multihop sessions with their own minimumTtl than one kernel socket filter can check. */
export class BfdFilterTooLargeError extends LblabError {
  readonly code = 'BFD_FILTER_TOO_LARGE';

  constructor(family: IpFamily, rules: number, max: number) {
    super(
      `${rules} IPv${family} multihop BFD sessions with a minimumTtl other than the network's default: ` +
        `at most ${max} fit the kernel's socket filter`,
    );
  }
}

/** open() on a network that was closed. */
export class BfdNetworkClosedError extends LblabError {
  readonly code = 'BFD_NETWORK_CLOSED';

  constructor() {
    super('the BFD network is closed');
  }
}
