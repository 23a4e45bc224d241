import { LblabError } from '../errors/lblab-error.ts';

/** Text that is not a valid address, prefix, range or MAC; `reason` says precisely what is wrong. */
export class AddressParseError extends LblabError {
  readonly code = 'ADDRESS_PARSE';

  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`invalid address ${JSON.stringify(input)}: ${reason}`);
  }
}
