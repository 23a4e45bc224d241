import { LblabError } from '../../core/errors/lblab-error.ts';

/** Neither LBLAB_CHROMIUM nor /usr/bin/chromium names a browser; the message says how to install one. */
export class ChromiumNotFoundError extends LblabError {
  readonly code = 'CHROMIUM_NOT_FOUND';
}

/** Chromium started but did not turn the report into a PDF (crash, refusal or a wait that ran out). */
export class PdfRenderError extends LblabError {
  readonly code = 'PDF_RENDER_FAILED';
}

/** The path given to `lblab report pdf` is not a report.html, a result.json or a run directory holding one. */
export class PdfSourceError extends LblabError {
  readonly code = 'PDF_SOURCE_INVALID';
}
