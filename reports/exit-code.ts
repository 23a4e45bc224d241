import type { RunResult } from './result.ts';

/**
 * The run's exit code, as DESIGN.md fixes it for `lblab run`: 2 when any scenario errored (the lab could
 * not tell), else 1 when any failed, else 0. Not-applicable scenarios do not fail a run: each says why.
 */
export function exitCodeFor(result: RunResult): 0 | 1 | 2 {
  const statuses = new Set(result.scenarios.map((s) => s.status));
  if (statuses.has('error')) return 2;
  if (statuses.has('fail')) return 1;
  return 0;
}
