import { LblabError } from '../../core/errors/lblab-error.ts';

/** A host, interface, address or socket name used twice where it must be unique. */
export class SimDuplicateError extends LblabError {
  readonly code = 'SIM_DUPLICATE';
}

/** A host name the network does not have. */
export class SimUnknownHostError extends LblabError {
  readonly code = 'SIM_UNKNOWN_HOST';

  constructor(readonly host: string) {
    super(`the network has no host ${JSON.stringify(host)}`);
  }
}

/** An interface name the host does not have. */
export class SimUnknownInterfaceError extends LblabError {
  readonly code = 'SIM_UNKNOWN_INTERFACE';

  constructor(
    readonly host: string,
    readonly ifname: string,
  ) {
    super(`host ${host} has no interface ${JSON.stringify(ifname)}`);
  }
}

/** EADDRINUSE: a UDP socket is already bound to this address and port. */
export class SimAddressInUseError extends LblabError {
  readonly code = 'SIM_ADDRESS_IN_USE';
}

/** EADDRNOTAVAIL: binding to an address the host does not have (interface or loopback). */
export class SimAddressNotLocalError extends LblabError {
  readonly code = 'SIM_ADDRESS_NOT_LOCAL';
}

/** An impairment, address or option the emulator cannot use; the message names the field. */
export class SimConfigError extends LblabError {
  readonly code = 'SIM_CONFIG';
}

/** `settle` or `runUntil` reached its virtual-time limit first. */
export class SimTimeoutError extends LblabError {
  readonly code = 'SIM_TIMEOUT';
}

/** Nothing is scheduled any more, so what is awaited can never happen. */
export class SimStalledError extends LblabError {
  readonly code = 'SIM_STALLED';
}

/** ECONNREFUSED: the peer answered the SYN with a reset (nothing listens on that port). */
export class SimConnectionRefusedError extends LblabError {
  readonly code = 'SIM_CONNECTION_REFUSED';
}

/** ETIMEDOUT: no answer to the SYN within the connect timeout (or tcp_syn_retries). */
export class SimConnectTimeoutError extends LblabError {
  readonly code = 'SIM_CONNECT_TIMEOUT';
}

/** ENETUNREACH: no route to the address connected to. */
export class SimNetworkUnreachableError extends LblabError {
  readonly code = 'SIM_NETWORK_UNREACHABLE';
}
