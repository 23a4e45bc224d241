import { LblabError } from '../../errors/lblab-error.ts';

/** A BFD session or peer configured with values the protocol cannot carry or lblab cannot honour. */
export class BfdConfigError extends LblabError {
  readonly code = 'bfd-config';
}
