import { LblabError } from '../../errors/lblab-error.ts';

/**
 * A BFD Control packet that must not be sent or must be discarded on receipt. `field` is the RFC's name
 * of the offending field (e.g. "Detect Mult"), `section` the RFC 5880 section whose rule it breaks.
 */
export class BfdPacketError extends LblabError {
  readonly code = 'bfd-packet';

  constructor(
    readonly field: string,
    problem: string,
    readonly section: string,
  ) {
    super(`${field} ${problem} (RFC 5880 ${section})`);
  }
}
