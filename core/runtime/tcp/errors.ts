import { LblabError } from '../../errors/lblab-error.ts';

/** An option of connectTcp or listenTcp is invalid; `field` names it, the message says why. */
export class TcpOptionError extends LblabError {
  readonly code = 'TCP_OPTION';

  constructor(
    readonly field: string,
    reason: string,
    options?: { cause: unknown },
  ) {
    super(`TCP option ${field}: ${reason}`, options);
  }
}

/**
 * A system call on the socket failed; `errno` names it: EADDRNOTAVAIL (localAddress is not on this
 * host), EADDRINUSE (the port is taken), ENOPROTOOPT or ENOENT (a kernel built without TCP-MD5), EPERM.
 */
export class TcpSystemError extends LblabError {
  readonly code = 'TCP_SYSTEM';

  constructor(
    readonly errno: string,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** The peer answered the SYN with a reset: nothing listens on that address and port. */
export class TcpConnectRefusedError extends LblabError {
  readonly code = 'TCP_CONNECT_REFUSED';

  constructor(
    readonly host: string,
    readonly port: number,
    options: { cause: unknown },
  ) {
    super(`connection to ${endpoint(host, port)} refused`, options);
  }
}

/**
 * No answer to our SYNs in time. With TCP-MD5 or GTSM this is also how a mismatch looks: the kernel
 * drops segments with a missing or wrong signature, or a TTL below the minimum, without a word.
 */
export class TcpConnectTimeoutError extends LblabError {
  readonly code = 'TCP_CONNECT_TIMEOUT';

  constructor(
    readonly host: string,
    readonly port: number,
    /** Undefined when the kernel gave up (its SYN retries, about 2 minutes by default). */
    readonly timeoutMs: number | undefined,
    hint: string,
    options?: { cause: unknown },
  ) {
    super(
      `no answer from ${endpoint(host, port)} ${timeoutMs === undefined ? 'before the kernel gave up' : `within ${timeoutMs} ms`}${hint}`,
      options,
    );
  }
}

/** Any other failure to connect, e.g. errno EHOSTUNREACH or ENETUNREACH. */
export class TcpConnectError extends LblabError {
  readonly code = 'TCP_CONNECT';

  constructor(
    readonly host: string,
    readonly port: number,
    readonly errno: string,
    options: { cause: unknown },
  ) {
    super(`cannot connect to ${endpoint(host, port)}: ${errno}`, options);
  }
}

/** setPeerPassword on a listener that was closed (its fd may already belong to another socket). */
export class TcpListenerClosedError extends LblabError {
  readonly code = 'TCP_LISTENER_CLOSED';

  constructor(port: number) {
    super(`the TCP listener on port ${port} is closed`);
  }
}

const endpoint = (host: string, port: number) =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
