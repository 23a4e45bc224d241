import { addonLoader } from '../native/addon.ts';
import { TcpSystemError } from './errors.ts';

/** What the addon exports: plain system calls on socket fds that Node has not adopted yet. */
export interface TcpOptionsAddon {
  /** A non-blocking, close-on-exec TCP socket; ttl and minTtl 0 leave them unset. */
  open(family: 4 | 6, ttl: number, minTtl: number): number;
  /** An empty key removes the peer's key. */
  setMd5Key(fd: number, peer: Uint8Array, key: Uint8Array): void;
  bind(fd: number, address: Uint8Array, port: number): void;
  listen(fd: number, backlog: number): void;
  close(fd: number): void;
}

/** The addon built from core/runtime/native/tcp_options.c. */
export const tcpAddon = addonLoader<TcpOptionsAddon>({
  target: 'tcp_options',
  label: 'the TCP options addon',
  needsLinux: 'TCP-MD5, TTL and GTSM on BGP sessions need Linux',
});

/** Runs a native call, turning its errno-carrying Error into a TcpSystemError that says what for. */
export function native<T>(what: string, call: () => T): T {
  try {
    return call();
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    throw systemError(what, e);
  }
}

/** A TcpSystemError for a failed system call; `e` is Node's or the addon's Error with an errno `code`. */
export function systemError(what: string, e: unknown): TcpSystemError {
  const errno = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  return new TcpSystemError(typeof errno === 'string' ? errno : 'UNKNOWN', `${what}: ${message}`, {
    cause: e,
  });
}

/**
 * A socket with its options set, still owned by the caller; on any failure the fd is closed before the
 * error propagates, so no path leaks it.
 */
export function openConfigured(
  what: string,
  family: 4 | 6,
  ttl: number,
  minTtl: number,
  configure: (fd: number) => void,
): number {
  const a = tcpAddon();
  const fd = native(what, () => a.open(family, ttl, minTtl));
  try {
    configure(fd);
  } catch (e) {
    a.close(fd);
    throw e;
  }
  return fd;
}
