import { IpAddress } from '../../net/index.ts';
import { TcpOptionError } from './errors.ts';

export interface TcpConnectOptions {
  /** The peer's address; a host name is refused, because a TCP-MD5 key is bound to an address. */
  host: IpAddress | string;
  port: number;
  /** Our source address (bound before the SYN); of the same family as `host`. */
  localAddress?: string;
  /** IP TTL / IPv6 hop limit on our packets (eBGP single hop 1 by convention, multihop N, GTSM 255). */
  ttl?: number;
  /** RFC 5082 GTSM: drop inbound packets whose TTL is below this. */
  minTtl?: number;
  /** RFC 2385 TCP-MD5 password shared with the peer: 1 to 80 bytes of UTF-8. */
  md5Password?: string;
  /** Give up after this long; without it the kernel gives up after its SYN retries (about 2 minutes). */
  timeoutMs?: number;
}

export interface TcpListenOptions {
  /** The local address to listen on; `::` also accepts IPv4 peers (as v4-mapped addresses). */
  host: string;
  /** 0 picks a free port (see TcpListener.port). */
  port: number;
  /** IP TTL / IPv6 hop limit on the packets of every accepted connection. */
  ttl?: number;
  /** RFC 5082 GTSM: drop inbound packets (SYNs included) whose TTL is below this. */
  minTtl?: number;
  /** TCP-MD5 password per peer address; peers not listed may connect without one. */
  passwords?: ReadonlyMap<string, string>;
}

/** RFC 2385 §2 leaves the nature of the key open; Linux stores at most TCP_MD5SIG_MAXKEYLEN bytes. */
export const MD5_KEY_MAX_BYTES = 80;

/** setTimeout's largest delay; a larger one would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** connectTcp's options, checked and in the form the native side takes. */
export interface ConnectPlan {
  host: IpAddress;
  port: number;
  localAddress: IpAddress | undefined;
  /** 0: the kernel's default. */
  ttl: number;
  /** 0: no minimum. */
  minTtl: number;
  md5Key: Uint8Array | undefined;
  timeoutMs: number | undefined;
}

/** listenTcp's options, checked and in the form the native side takes. */
export interface ListenPlan {
  host: IpAddress;
  port: number;
  ttl: number;
  minTtl: number;
  keys: { peer: IpAddress; key: Uint8Array }[];
}

export function checkConnectOptions(o: TcpConnectOptions): ConnectPlan {
  const host = checkAddress('host', o.host);
  const localAddress =
    o.localAddress === undefined ? undefined : checkAddress('localAddress', o.localAddress);
  if (localAddress !== undefined && localAddress.family !== host.family) {
    throw new TcpOptionError(
      'localAddress',
      `${localAddress.toString()} is IPv${localAddress.family} but host ${host.toString()} is IPv${host.family}`,
    );
  }
  if (
    o.timeoutMs !== undefined &&
    !(Number.isFinite(o.timeoutMs) && o.timeoutMs > 0 && o.timeoutMs <= MAX_TIMEOUT_MS)
  ) {
    throw new TcpOptionError('timeoutMs', `${String(o.timeoutMs)} is not a number of milliseconds above 0`);
  }
  return {
    host,
    port: checkPort('port', o.port, 1),
    localAddress,
    ttl: checkTtl('ttl', o.ttl),
    minTtl: checkTtl('minTtl', o.minTtl),
    md5Key: o.md5Password === undefined ? undefined : checkPassword('md5Password', o.md5Password),
    timeoutMs: o.timeoutMs,
  };
}

export function checkListenOptions(o: TcpListenOptions): ListenPlan {
  const host = checkAddress('host', o.host);
  const keys = [...(o.passwords ?? new Map<string, string>())].map(([peer, password]) => ({
    peer: checkPeer(host, peer),
    key: checkPassword(`passwords[${JSON.stringify(peer)}]`, password),
  }));
  return {
    host,
    port: checkPort('port', o.port, 0),
    ttl: checkTtl('ttl', o.ttl),
    minTtl: checkTtl('minTtl', o.minTtl),
    keys,
  };
}

/** A peer address for a key on a listener bound to `listener`: IPv4 peers fit an IPv6 listener too. */
export function checkPeer(listener: IpAddress, peer: string): IpAddress {
  const address = checkAddress(`peer ${JSON.stringify(peer)}`, peer);
  if (listener.family === 4 && address.family === 6) {
    throw new TcpOptionError(
      `peer ${JSON.stringify(peer)}`,
      `an IPv6 peer cannot reach a listener on IPv4 ${listener.toString()}`,
    );
  }
  return address;
}

/** The password's bytes as the kernel keys the MD5 digest with them (UTF-8, as FRR and BIRD use). */
export function checkPassword(field: string, password: unknown): Uint8Array {
  if (typeof password !== 'string') throw new TcpOptionError(field, 'a password is a string');
  const key = new TextEncoder().encode(password);
  if (key.length === 0) throw new TcpOptionError(field, 'the password is empty; leave it out for no TCP-MD5');
  if (key.length > MD5_KEY_MAX_BYTES) {
    throw new TcpOptionError(
      field,
      `the password has ${key.length} bytes; TCP-MD5 keys (RFC 2385) hold at most ${MD5_KEY_MAX_BYTES} bytes on Linux (TCP_MD5SIG_MAXKEYLEN)`,
    );
  }
  return key;
}

function checkAddress(field: string, value: unknown): IpAddress {
  if (value instanceof IpAddress) return value;
  if (typeof value !== 'string') throw new TcpOptionError(field, 'expected an IP address');
  try {
    return IpAddress.parse(value);
  } catch (e) {
    throw new TcpOptionError(
      field,
      `${JSON.stringify(value)} is not an IPv4 or IPv6 address (host names are not resolved)`,
      {
        cause: e,
      },
    );
  }
}

function checkPort(field: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 65535) {
    throw new TcpOptionError(field, `${String(value)} is not a port number (${min} to 65535)`);
  }
  return value;
}

/** A TTL or hop limit: 1 to 255 (RFC 791 §3.1, RFC 8200 §3); undefined becomes 0, "not set". */
function checkTtl(field: string, value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 255) {
    throw new TcpOptionError(field, `${String(value)} is not a TTL (1 to 255)`);
  }
  return value;
}
