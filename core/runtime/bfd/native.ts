import { addonLoader } from '../native/addon.ts';
import { BfdSocketError } from './errors.ts';

/** What the addon exports: plain system calls on socket fds that Node has not adopted yet. */
export interface UdpOptionsAddon {
  /**
   * A non-blocking, close-on-exec UDP socket of the address's family (IPv6-only for IPv6), with the
   * filter attached and the TTL / hop limit set (0 keeps the default), bound to address and port.
   */
  open(address: Uint8Array, port: number, ttl: number, filter: number[]): number;
  /** Replaces the socket's filter. */
  setFilter(fd: number, filter: number[]): void;
  close(fd: number): void;
}

/** The addon built from core/runtime/native/udp_options.c. */
export const udpAddon = addonLoader<UdpOptionsAddon>({
  target: 'udp_options',
  label: 'the UDP options addon',
  needsLinux: 'BFD over real sockets checks received TTLs with a Linux socket filter and needs Linux',
});

/** The errno name Node's and the addon's system errors carry in `code`, or undefined. */
export function errnoOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A BfdSocketError saying what failed and, for the usual causes, why. */
export function socketError(what: string, e: unknown, hint = ''): BfdSocketError {
  const message = e instanceof Error ? e.message : String(e);
  return new BfdSocketError(errnoOf(e) ?? 'UNKNOWN', `${what}: ${message}${hint}`, { cause: e });
}
