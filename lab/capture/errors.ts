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

/** The CaptureFileError for an error of the file system (from `fs`) on `file`, with a reason a user reads. */
export function unreadable(file: string, error: unknown): CaptureFileError {
  const code = (error as { code?: string }).code;
  const reasons: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EISDIR: 'it is a directory',
  };
  const reason = reasons[code ?? ''] ?? (error instanceof Error ? error.message : String(error));
  return new CaptureFileError(file, reason, { cause: error });
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

/** The CaptureFormatError for a structure of `count` bytes at `offset` that the file ends inside of. */
export function cutShort(file: string, offset: number, what: string, count: number, left: number) {
  return new CaptureFormatError(
    file,
    offset,
    `${what} needs ${count} bytes, the file has ${Math.max(0, left)} left (truncated?)`,
  );
}

/** `--follow` was asked of a capture format that is only read whole (pcapng). */
export class CaptureFollowError extends LblabError {
  readonly code = 'CAPTURE_NOT_FOLLOWABLE';

  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

/**
 * A packet inside a good capture whose link, IP, TCP or UDP header cannot be read. The decoder skips the
 * packet and counts the reason; it never ends the run.
 */
export class PacketDecodeError extends LblabError {
  readonly code = 'CAPTURE_PACKET';
}
