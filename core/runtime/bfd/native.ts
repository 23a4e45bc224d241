import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BfdAddonMissingError, BfdSocketError } from './errors.ts';

/** Where node-gyp puts the addon built from core/runtime/native/udp_options.c (see binding.gyp). */
const ADDON_PATH = fileURLToPath(new URL('../../../build/Release/udp_options.node', import.meta.url));

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

let addon: UdpOptionsAddon | undefined;

export function udpAddon(): UdpOptionsAddon {
  if (addon === undefined) {
    if (!existsSync(ADDON_PATH)) throw new BfdAddonMissingError(ADDON_PATH, process.platform);
    addon = createRequire(import.meta.url)(ADDON_PATH) as UdpOptionsAddon;
  }
  return addon;
}

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
