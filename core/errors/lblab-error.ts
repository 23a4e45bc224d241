/**
 * Base of every lblab failure. Each failure has its own subclass with a stable `code`, so callers and
 * reports can match on the code rather than on message text.
 */
export abstract class LblabError extends Error {
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
