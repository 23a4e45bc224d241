// The BFD Control packet codec (RFC 5880 §4): one entry point for the session, the transport and the lab.

export {
  BFD_STATES,
  type BfdState,
  Diagnostic,
  AuthType,
  type AuthSection,
  type ControlPacket,
} from './packet/types.ts';
export { BfdPacketError } from './packet/packet-error.ts';
export { encodeControlPacket, decodeControlPacket } from './packet/control-packet.ts';
export { type AuthTypeName, type DigestAuthType, authTypeCode } from './packet/auth-section.ts';
export {
  type AuthKey,
  type SigningKey,
  signControlPacket,
  authenticationFailure,
  sequenceInWindow,
  isMeticulous,
} from './packet/auth.ts';
export { BFD_SINGLE_HOP_PORT, BFD_MULTI_HOP_PORT, BFD_ECHO_PORT, BFD_SOURCE_PORTS } from './ports.ts';
