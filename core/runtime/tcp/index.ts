// TCP for the BGP speaker, with what Node's `net` cannot set: TCP-MD5 signatures (RFC 2385), the TTL or
// hop limit of our packets and GTSM's minimum TTL (RFC 5082), and a source address. Linux only: the
// options are set by the native addon core/runtime/native/tcp_options.c before the first SYN.
export { connectTcp } from './connect.ts';
export { type TcpListener, listenTcp } from './listen.ts';
export { MD5_KEY_MAX_BYTES, type TcpConnectOptions, type TcpListenOptions } from './options.ts';
export {
  TcpConnectError,
  TcpConnectRefusedError,
  TcpConnectTimeoutError,
  TcpListenerClosedError,
  TcpOptionError,
  TcpSystemError,
} from './errors.ts';
