import { checkUint, UINT32_MAX } from '../messages/bytes.ts';
import { BgpWireError, ErrorCode, OpenErrorSubcode } from '../wire-error.ts';
import { expectLength } from './malformed.ts';

// RFC 6793 §3 Support for 4-octet AS number capability, code 65, length 4: the speaker's AS number.

export const CAPABILITY_FOUR_OCTET_AS = 65;

export interface FourOctetAsCapability {
  code: 'four-octet-as';
  asn: number;
}

export function decodeFourOctetAs(value: Uint8Array): FourOctetAsCapability {
  expectLength(CAPABILITY_FOUR_OCTET_AS, value, 4, 'the 4-octet AS capability');
  const asn = ((value[0]! << 24) | (value[1]! << 16) | (value[2]! << 8) | value[3]!) >>> 0;
  // RFC 7607 §2: AS 0 announced as the peer's AS → OPEN Message Error, Bad Peer AS.
  if (asn === 0) {
    throw new BgpWireError(
      'the 4-octet AS capability carries AS 0',
      ErrorCode.openMessage,
      OpenErrorSubcode.badPeerAs,
      new Uint8Array(0),
      'session-reset',
    );
  }
  return { code: 'four-octet-as', asn };
}

export function encodeFourOctetAs(c: FourOctetAsCapability): Uint8Array {
  checkUint(c.asn, UINT32_MAX, 'four-octet-as AS number');
  return Uint8Array.of(c.asn >>> 24, (c.asn >>> 16) & 0xff, (c.asn >>> 8) & 0xff, c.asn & 0xff);
}
