import type { ControlPacket } from './types.ts';

/** An Up packet with every field distinct from its neighbours', so a misplaced field shows. */
export function upPacket(fields: Partial<ControlPacket> = {}): ControlPacket {
  return {
    version: 1,
    diagnostic: 0,
    state: 'up',
    poll: false,
    final: false,
    controlPlaneIndependent: false,
    demand: false,
    multipoint: false,
    detectMultiplier: 3,
    myDiscriminator: 0x01020304,
    yourDiscriminator: 0x0a0b0c0d,
    desiredMinTxIntervalUs: 300_000,
    requiredMinRxIntervalUs: 250_000,
    requiredMinEchoRxIntervalUs: 50_000,
    ...fields,
  };
}

/** ASCII text as octets, for passwords and keys. */
export function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
