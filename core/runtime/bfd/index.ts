// BFD's network side on real sockets (RFC 5881 single-hop, RFC 5883 multihop, IPv4 and IPv6), with the
// received TTL checked in the kernel by a socket filter. Linux only: the sockets come from the native
// addon core/runtime/native/udp_options.c.
export { type UdpBfdNetworkOptions, type UdpBfdPath, UdpBfdNetwork } from './udp-network.ts';
export type { UdpBfdOpenSpec } from './open-spec.ts';
// The Echo function's packets (RFC 5881 §4): raw frames out, UDP port 3785 in.
export { type AfPacketEchoNetworkOptions, AfPacketEchoNetwork } from './echo-network.ts';
export { BfdEchoAcceptLocalError, BfdEchoInterfaceError } from './echo-errors.ts';
export {
  BfdFilterTooLargeError,
  BfdNetworkClosedError,
  BfdOptionError,
  BfdSocketError,
  BfdSourcePortsExhaustedError,
} from './errors.ts';
