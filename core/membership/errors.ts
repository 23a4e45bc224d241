import { LblabError } from '../errors/lblab-error.ts';

/** Options or a node list that cannot work (a bad number, a duplicate or over-long node name). */
export class MembershipConfigError extends LblabError {
  readonly code = 'MEMBERSHIP_CONFIG';

  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`membership ${field}: ${detail}`);
  }
}

/** Metadata that cannot travel: not a JSON object, or larger than one datagram allows. */
export class MembershipMetaError extends LblabError {
  readonly code = 'MEMBERSHIP_META';

  constructor(detail: string) {
    super(`membership metadata: ${detail}`);
  }
}

/**
 * A message handed to an encoder that the decoder would refuse (a name too long, too many updates). That
 * is a bug in the caller, so it is thrown; bytes off the wire never throw (decodeMessage returns errors).
 */
export class MembershipEncodeError extends LblabError {
  readonly code = 'MEMBERSHIP_ENCODE';

  constructor(detail: string) {
    super(`membership encode: ${detail}`);
  }
}
