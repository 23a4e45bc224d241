import { LblabError } from '../../core/errors/lblab-error.ts';

/** The capture file could not be read at all (missing, a directory, no permission). */
export class CaptureFileError extends LblabError {
  readonly code = 'CAPTURE_UNREADABLE';

  constructor(
    readonly file: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: cannot read the capture: ${reason}`, options);
  }
}

/**
 * The capture file is not a pcap/pcapng file, or it is cut short or corrupt. `offset` is the byte in the file
 * where the bad or missing structure starts, so a user can look at it with a hex dump.
 */
export class CaptureFormatError extends LblabError {
  readonly code = 'CAPTURE_CORRUPT';

  constructor(
    readonly file: string,
    readonly offset: number,
    readonly detail: string,
  ) {
    super(`${file}: corrupt capture at byte ${offset}: ${detail}`);
  }
}

/**
 * A packet inside a good capture whose link, IP, TCP or UDP header cannot be read. The decoder skips the
 * packet and counts the reason; it never ends the run.
 */
export class PacketDecodeError extends LblabError {
  readonly code = 'CAPTURE_PACKET';
}
