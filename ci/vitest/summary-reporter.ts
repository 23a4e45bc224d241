import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Adds one plain closing line, "N passed, N failed, N skipped", after vitest's own summary: CI reads
 * that line to tell a run that tested something from one that ran no test at all.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') failedHere++;
        else counts.skipped++;
      }
      // A file that fails to load, or whose hooks fail, leaves its tests unrun or skipped: that is a
      // failure all the same, counted once for the file.
      if (failedHere === 0 && (mod.state() === 'failed' || mod.errors().length > 0)) failedHere = 1;
      counts.failed += failedHere;
    }
    process.stdout.write(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
