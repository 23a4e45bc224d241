/** The CLI's exit codes, as DESIGN.md fixes them. */
export const exitCodes = {
  ok: 0,
  /** The input was read and found wanting: a gate failed, a configuration is invalid. */
  failed: 1,
  /** Lblab could not do what was asked: bad usage, a missing file, an internal error. */
  error: 2,
} as const;
