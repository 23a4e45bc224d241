import { checkUint, UINT16_MAX, UINT8_MAX } from '../messages/bytes.ts';
import { expectLength } from './malformed.ts';

// RFC 4760 §8 Multiprotocol Extensions capability, code 1, length 4:
//   AFI (2) | Reserved (1) | SAFI (1)

export const CAPABILITY_MULTIPROTOCOL = 1;

export interface MultiprotocolCapability {
  code: 'multiprotocol';
  afi: number;
  safi: number;
}

export function decodeMultiprotocol(value: Uint8Array): MultiprotocolCapability {
  expectLength(CAPABILITY_MULTIPROTOCOL, value, 4, 'the multiprotocol capability');
  // RFC 4760 §8: the Reserved octet is ignored on receipt.
  return { code: 'multiprotocol', afi: (value[0]! << 8) | value[1]!, safi: value[3]! };
}

export function encodeMultiprotocol(c: MultiprotocolCapability): Uint8Array {
  checkUint(c.afi, UINT16_MAX, 'multiprotocol AFI');
  checkUint(c.safi, UINT8_MAX, 'multiprotocol SAFI');
  // RFC 4760 §8: the Reserved octet is sent as zero.
  return Uint8Array.of(c.afi >>> 8, c.afi & 0xff, 0, c.safi);
}
