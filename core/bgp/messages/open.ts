import { IpAddress } from '../../net/index.ts';
import { type Capability, decodeCapabilities, encodeCapabilities } from '../capabilities/capability.ts';
import { BgpWireError, ErrorCode, OpenErrorSubcode, UNSPECIFIC } from '../wire-error.ts';
import { checkUint, UINT16_MAX, UINT8_MAX, Writer } from './bytes.ts';

// RFC 4271 §4.2 OPEN, after the header:
//   Version (1) | My Autonomous System (2) | Hold Time (2) | BGP Identifier (4)
//   | Opt Parm Len (1) | Optional Parameters: Parm. Type (1) | Parm. Length (1) | Parm. Value

export const BGP_VERSION = 4;
/** RFC 5492 §4: the optional parameter that carries capabilities. */
const PARAM_CAPABILITIES = 2;
const FIXED_BYTES = 10;

export interface OpenMessage {
  type: 'open';
  version: number;
  /** The 2-octet field as sent: AS_TRANS (23456) when the real AS needs 4 octets (RFC 6793 §4.1). */
  myAs: number;
  holdTimeSec: number;
  /** An IPv4 address (RFC 4271 §4.2; RFC 6286 §2.1 any non-zero 32-bit value). */
  bgpId: IpAddress;
  /** All capabilities of all Capabilities parameters, in the order received. */
  capabilities: Capability[];
}

function openError(message: string, subcode: number, data: Uint8Array = new Uint8Array(0)): BgpWireError {
  return new BgpWireError(message, ErrorCode.openMessage, subcode, data, 'session-reset');
}

/** Decodes an OPEN body (the message after its 19-octet header); throws BgpWireError (RFC 4271 §6.2). */
export function decodeOpen(body: Uint8Array): OpenMessage {
  // The header check guarantees the ten fixed octets (RFC 4271 §6.1 minimum length 29).
  const version = body[0]!;
  // RFC 4271 §6.2: an unsupported version → Unsupported Version Number, Data = a 2-octet version we
  // support: the largest below the peer's bid, else the smallest above it. We support 4 alone.
  if (version !== BGP_VERSION) {
    throw openError(
      `BGP version ${version} is not supported`,
      OpenErrorSubcode.unsupportedVersionNumber,
      Uint8Array.of(0, BGP_VERSION),
    );
  }
  const myAs = (body[1]! << 8) | body[2]!;
  // RFC 7607 §2: AS 0 as the peer's AS → Bad Peer AS. (Checking it against the configured peer AS,
  // RFC 4271 §6.2, is the session's job.)
  if (myAs === 0) throw openError('My Autonomous System is 0', OpenErrorSubcode.badPeerAs);
  const holdTimeSec = (body[3]! << 8) | body[4]!;
  // RFC 4271 §6.2: a Hold Time of one or two seconds MUST be rejected → Unacceptable Hold Time.
  if (holdTimeSec === 1 || holdTimeSec === 2) {
    throw openError(
      `hold time ${holdTimeSec} s is not 0 or at least 3`,
      OpenErrorSubcode.unacceptableHoldTime,
    );
  }
  const bgpId = IpAddress.fromBytes(body.slice(5, 9));
  // RFC 6286 §2.2 (updating RFC 4271 §6.2): the BGP Identifier is a non-zero 32-bit value; zero is
  // syntactically incorrect → Bad BGP Identifier.
  if (bgpId.value === 0n) throw openError('the BGP Identifier is 0', OpenErrorSubcode.badBgpIdentifier);
  const paramsLength = body[9]!;
  // RFC 4271 §4.2: the parameters fill the message exactly. No subcode names a mismatch: Unspecific.
  if (FIXED_BYTES + paramsLength !== body.length) {
    throw openError(
      `Opt Parm Len ${paramsLength} does not match the ${body.length - FIXED_BYTES} octets that follow`,
      UNSPECIFIC,
    );
  }
  const capabilities: Capability[] = [];
  let at = FIXED_BYTES;
  while (at < body.length) {
    if (at + 2 > body.length) throw openError('an optional parameter header is cut short', UNSPECIFIC);
    const type = body[at]!;
    const length = body[at + 1]!;
    if (at + 2 + length > body.length) {
      throw openError(`optional parameter ${type} of ${length} octets runs past the message`, UNSPECIFIC);
    }
    // RFC 4271 §6.2: an optional parameter that is not recognised → Unsupported Optional Parameter.
    // (RFC 9072 extended parameters, type 255, are not supported and land here too.)
    if (type !== PARAM_CAPABILITIES) {
      throw openError(
        `optional parameter type ${type} is not supported`,
        OpenErrorSubcode.unsupportedOptionalParameter,
      );
    }
    capabilities.push(...decodeCapabilities(body.subarray(at + 2, at + 2 + length)));
    at += 2 + length;
  }
  return { type: 'open', version, myAs, holdTimeSec, bgpId, capabilities };
}

/** Encodes an OPEN body; all capabilities go in one Capabilities parameter (RFC 5492 §4 allows either). */
export function encodeOpen(m: OpenMessage): Uint8Array {
  checkUint(m.version, UINT8_MAX, 'OPEN version');
  checkUint(m.myAs, UINT16_MAX, 'OPEN My Autonomous System (use AS_TRANS above 65535)');
  checkUint(m.holdTimeSec, UINT16_MAX, 'OPEN hold time');
  if (m.bgpId.family !== 4) throw new Error(`BGP Identifier ${m.bgpId.toString()} is not an IPv4 address`);
  const caps = encodeCapabilities(m.capabilities);
  const w = new Writer().u8(m.version).u16(m.myAs).u16(m.holdTimeSec).bytes(m.bgpId.toBytes());
  if (caps.length === 0) return w.u8(0).finish();
  if (caps.length + 2 > UINT8_MAX) {
    throw new Error(`capabilities take ${caps.length} octets; the optional parameters hold at most 253`);
  }
  return w
    .u8(caps.length + 2)
    .u8(PARAM_CAPABILITIES)
    .u8(caps.length)
    .bytes(caps)
    .finish();
}
