import { LblabError } from '../../core/errors/lblab-error.ts';

/** A router spec the daemons cannot be configured from (bad name, address, prefix or community). */
export class SutSpecError extends LblabError {
  readonly code = 'SUT_SPEC_INVALID';
}

/** A daemon exited or never became ready while starting; the message carries its log tail. */
export class SutStartError extends LblabError {
  readonly code = 'SUT_START_FAILED';
}

/** A bounded wait ran out; the message says what was awaited, what was last seen and the log tail. */
export class SutTimeoutError extends LblabError {
  readonly code = 'SUT_WAIT_TIMEOUT';
}

/** A control command (vtysh, birdc, gobgp) failed or the daemon refused the change. */
export class SutCommandError extends LblabError {
  readonly code = 'SUT_COMMAND_FAILED';
}

/** Output of a daemon that does not have the shape this module knows. */
export class SutOutputError extends LblabError {
  readonly code = 'SUT_OUTPUT_UNPARSEABLE';
}

/** A feature the daemon does not have (GoBGP and BFD, for instance). */
export class SutUnsupportedError extends LblabError {
  readonly code = 'SUT_UNSUPPORTED';
}
