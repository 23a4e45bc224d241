/** report.pdf: report.html printed by Debian's chromium through playwright-core. */
export { ChromiumNotFoundError, PdfRenderError, PdfSourceError } from './errors.ts';
export { debianChromium, findChromium } from './find-chromium.ts';
export { pdfPageCount } from './page-count.ts';
export { printReportPdf, type PrintOptions, type PrintedPdf } from './print-pdf.ts';
