/** The trend over stored runs: each run's key figures, oldest first, for the report's trend chart. */
import { keyFigures } from '../format.ts';
import type { HistoryPoint, RunResult } from '../result.ts';

/** Points of every run given plus `current` (a stored copy of `current` counts once), oldest first. */
export function historyOf(stored: readonly RunResult[], current: RunResult): HistoryPoint[] {
  const runs = [...stored.filter((r) => r.runId !== current.runId), current].sort((a, b) =>
    a.startedAt.localeCompare(b.startedAt),
  );
  return runs.flatMap((run) =>
    run.scenarios
      .filter((s) => s.status === 'pass' || s.status === 'fail')
      .flatMap((s) =>
        keyFigures.flatMap(({ measurement }) => {
          const value = s.measurements[measurement];
          if (value === undefined || !Number.isFinite(value)) return [];
          const { runId, commit, startedAt } = run;
          const backend = s.backend ?? run.backend;
          return [{ runId, commit, startedAt, backend, scenario: s.name, sut: s.sut, measurement, value }];
        }),
      ),
  );
}
