/**
 * `lblab report merge`: several runs (of several backends, or several runs of one) as one result, so a
 * release has one report and one verdict. Every scenario names its backend and run; emulator fidelity
 * lists stay with the backend they were run beside; seeds and commits that differ stay visible in
 * `sources`. Gates are applied by the caller, once, over the merged result.
 */
import { ResultFileError } from './baseline/errors.ts';
import type { StoredRun } from './baseline/stored-runs.ts';
import type { RunResult, ScenarioResult, SourceRun } from './result.ts';
import { schemaVersion } from './result.ts';

export function mergeRuns(inputs: readonly StoredRun[]): RunResult {
  const sources: SourceRun[] = [];
  const scenarios: ScenarioResult[] = [];
  const emulated: ScenarioResult[] = [];
  const from = new Map<string, string>();
  for (const { file, result: r } of inputs) {
    // A merged result merged again keeps its sources and its scenarios' tags.
    for (const source of r.sources ?? [{ file, ...pick(r) }]) {
      const seen = from.get(source.runId);
      if (seen !== undefined)
        throw new ResultFileError(`${file}: run ${source.runId} is also in ${seen}; a run is merged once`);
      from.set(source.runId, file);
      sources.push(source);
    }
    const tag = (s: ScenarioResult): ScenarioResult => ({
      ...s,
      backend: s.backend ?? r.backend,
      runId: s.runId ?? r.runId,
    });
    scenarios.push(...r.scenarios.map(tag));
    // Fidelity runs are tagged with the real backend they predicted, to be set beside its figures.
    emulated.push(...(r.emulated ?? []).map(tag));
  }
  const repeats = new Set(inputs.map((i) => i.result.repeat));
  const [repeat] = repeats;
  const [first] = sources;
  if (first === undefined) throw new ResultFileError('no result.json to merge');
  return {
    schemaVersion,
    runId: sources.map((s) => s.runId).join('+'),
    seed: first.seed,
    backend: unique(sources.map((s) => s.backend)).join('+'),
    commit: unique(sources.map((s) => s.commit)).join('+'),
    startedAt: sources.map((s) => s.startedAt).sort()[0]!,
    durationMs: inputs.reduce((sum, i) => sum + i.result.durationMs, 0),
    scenarios,
    ...(emulated.length > 0 && { emulated }),
    ...(repeats.size === 1 && repeat !== undefined && { repeat }),
    sources,
  };
}

function pick(r: RunResult): Omit<SourceRun, 'file'> {
  return { runId: r.runId, backend: r.backend, seed: r.seed, commit: r.commit, startedAt: r.startedAt };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * The run a scenario came from, as replayCommand and the report headers need it: in a merged result its
 * source run's backend and seed, else the run's own.
 */
export function runOf(result: RunResult, s: Pick<ScenarioResult, 'backend' | 'runId'>): RunResult {
  const source = result.sources?.find((r) => r.runId === s.runId);
  return source === undefined ? result : { ...result, ...source };
}

/** A merged result's scenario label: the backend, and the run too when one backend ran more than once. */
export function scenarioOrigin(result: RunResult, s: Pick<ScenarioResult, 'backend' | 'runId'>): string {
  if (result.sources === undefined) return '';
  const runs = result.sources.filter((r) => r.backend === s.backend).length;
  return runs > 1 ? `${s.backend ?? result.backend} (run ${s.runId})` : (s.backend ?? result.backend);
}

/** Both from the same run of the same backend (both untagged in a single run's result). */
export function sameRun(
  a: Pick<ScenarioResult, 'backend' | 'runId'>,
  b: Pick<ScenarioResult, 'backend' | 'runId'>,
) {
  return a.backend === b.backend && a.runId === b.runId;
}
