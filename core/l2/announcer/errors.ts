import { LblabError } from '../../errors/lblab-error.ts';

/** The announcer was built with options it cannot run with (bad burst offsets, repeated port names). */
export class AnnouncerConfigError extends LblabError {
  readonly code = 'L2_ANNOUNCER_CONFIG';
}

/**
 * setOwned named an interface the announcer has no port for. The speaker passes the interfaces the
 * election chose from what this node published, so this is a bug in the caller, refused before any state
 * changes.
 */
export class UnknownInterfaceError extends LblabError {
  readonly code = 'L2_ANNOUNCER_UNKNOWN_INTERFACE';

  constructor(
    readonly interfaceName: string,
    known: readonly string[],
  ) {
    super(`no port for interface ${JSON.stringify(interfaceName)} (ports: ${known.join(', ') || 'none'})`);
  }
}

/** The announcer was closed; the speaker must build a new one rather than drive a stopped one. */
export class AnnouncerClosedError extends LblabError {
  readonly code = 'L2_ANNOUNCER_CLOSED';
}
