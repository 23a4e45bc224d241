/**
 * `--baseline FILE|DIR`: load before anything runs (a bad file must not cost a lab run), then compare
 * once the run's result is known. A file is the baseline; in a directory the newest stored run on the
 * same backend that is not this run is, and every run found there makes the trend history.
 */
import type { RunResult } from '../result.ts';
import { compareWithBaseline } from './compare-baseline.ts';
import { NoBaselineError } from './errors.ts';
import { historyOf } from './history.ts';
import type { RegressionPolicy } from './regression-policy.ts';
import { readStoredRuns, type StoredRun } from './stored-runs.ts';

export interface LoadedBaseline {
  path: string;
  directory: boolean;
  runs: StoredRun[];
}

/** Reads and checks the baseline for a run on `backend`; throws ResultFileError or NoBaselineError. */
export async function loadBaseline(path: string, backend: string, runId?: string): Promise<LoadedBaseline> {
  const loaded = { path, ...(await readStoredRuns(path)) };
  chooseBaseline(loaded, backend, runId);
  return loaded;
}

/** The baseline run compared with `current`, its comparisons and regression gates, and the history. */
export function withBaseline(
  current: RunResult,
  loaded: LoadedBaseline,
  policy: RegressionPolicy | undefined,
): RunResult {
  const base = chooseBaseline(loaded, current.backend, current.runId);
  const compared = compareWithBaseline(current, base, policy);
  if (!loaded.directory) {
    // A history kept from an earlier comparison with a directory is not this comparison's.
    const { history: _stale, ...rest } = compared;
    return rest;
  }
  return {
    ...compared,
    history: historyOf(
      loaded.runs.map((r) => r.result),
      current,
    ),
  };
}

function chooseBaseline(loaded: LoadedBaseline, backend: string, runId: string | undefined): StoredRun {
  const { path, runs, directory } = loaded;
  if (!directory) {
    const [only] = runs;
    if (only!.result.backend !== backend)
      throw new NoBaselineError(
        `${path}: a run on backend ${only!.result.backend}; this run is on ${backend}, and a baseline must be on the same backend`,
      );
    if (only!.result.runId === runId) throw new NoBaselineError(`${path}: is this run (${runId}) itself`);
    return only!;
  }
  const candidates = runs.filter((r) => r.result.backend === backend && r.result.runId !== runId);
  const newest = candidates.at(-1);
  if (newest !== undefined) return newest;
  const found = [...new Set(runs.map((r) => r.result.backend))];
  throw new NoBaselineError(
    `${path}: no earlier run on backend ${backend} (${runs.length} result.json found one and two levels deep` +
      (found.length > 0 ? `, on ${found.join(', ')})` : ')'),
  );
}

/** What a command prints after comparing: the baseline, and each regression with how much it grew. */
export function baselineSummary(result: RunResult): string[] {
  const base = result.baseline;
  if (base === undefined) return [];
  const lines = result.scenarios.flatMap((s) =>
    (s.reason ?? '')
      .split('; ')
      .filter((r) => / vs baseline: /.test(r))
      .map((r) => `  REGRESSED ${s.name}${s.backend ? ` on ${s.backend}` : ''}: ${r}`),
  );
  return [
    `baseline: run ${base.runId} (commit ${base.commit}, ${base.file}): ${lines.length} regressed`,
    ...lines,
  ];
}
