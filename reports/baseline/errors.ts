import { LblabError } from '../../core/errors/lblab-error.ts';

/** A result.json given as a baseline or a report's input cannot be used; the message names the file. */
export class ResultFileError extends LblabError {
  readonly code = 'RESULT_FILE_INVALID';
}

/** A baseline directory holds no earlier run on the backend being compared. */
export class NoBaselineError extends LblabError {
  readonly code = 'BASELINE_NOT_FOUND';
}
