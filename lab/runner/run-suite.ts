import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { RunResult, ScenarioResult, TimelineEvent } from '../../reports/result.ts';
import { ownSut } from '../../reports/compare.ts';
import { keyFigures } from '../../reports/format.ts';
import { schemaVersion } from '../../reports/result.ts';
import type { Topology } from '../model/topology.ts';
import type { Backend } from './backend.ts';
import { CheckFailedError, NotApplicableError } from './checks.ts';
import type { Progress } from './progress.ts';
import { aggregateRepeats, repeatSeed, type RepeatRun } from './repeats.ts';
import type { Scenario } from './scenario.ts';
import { ScenarioLab } from './scenario-lab.ts';

export interface SuiteOptions {
  backend: Backend;
  /** Topology for scenarios that do not name their own, already read and validated. */
  topologies: (path: string) => Promise<Topology>;
  defaultTopology: string;
  scenarios: readonly Scenario[];
  seed: number;
  runId: string;
  progress: Progress;
  /** The run's report directory: each scenario's lab may keep files in `<dir>/<scenario slug>/`. */
  artifactsDir?: string;
  /** `--repeat N`: each scenario runs N times, each on a fresh lab with its own seed (default 1). */
  repeat?: number;
  /** Told each scenario's result as it ends (the report draws its charts while the next one runs). */
  scenarioDone?: (result: ScenarioResult) => void;
}

/**
 * Runs scenarios one after the other, each on a fresh lab, and returns the run's result (gates from the
 * gates file are applied by the caller). A scenario needing a capability the backend lacks is reported
 * not-applicable with the reason, never silently passed.
 */
export async function runSuite(o: SuiteOptions): Promise<RunResult> {
  const started = Date.now();
  const scenarios: ScenarioResult[] = [];
  for (const [index, s] of o.scenarios.entries()) {
    const label = s.sut === ownSut ? s.name : `${s.name} [${s.sut}]`;
    o.progress.scenarioStarted(label, index, o.scenarios.length);
    const result = await runScenario(s, o);
    scenarios.push(result);
    o.progress.scenarioEnded(summaryLine(result));
    o.scenarioDone?.(result);
  }
  return {
    schemaVersion,
    runId: o.runId,
    seed: o.seed,
    backend: o.backend.name,
    commit: currentCommit(),
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    scenarios,
    ...(repeatCount(o) > 1 && { repeat: repeatCount(o) }),
  };
}

const repeatCount = (o: SuiteOptions) => o.repeat ?? 1;

async function runScenario(s: Scenario, o: SuiteOptions): Promise<ScenarioResult> {
  const started = Date.now();
  const topologyPath = s.topology ?? o.defaultTopology;
  const base = {
    name: s.name,
    topology: topologyPath,
    sut: s.sut,
    measurements: {},
    gates: [],
    steps: [],
    timeline: [],
  };
  const peer = s.sut === ownSut ? undefined : o.backend.peers?.get(s.sut);
  if (s.sut !== ownSut && !peer)
    return {
      ...base,
      status: 'not-applicable',
      reason: `the ${o.backend.name} backend cannot run ${s.sut}`,
      durationMs: 0,
    };
  if (typeof peer === 'string')
    return { ...base, status: 'not-applicable', reason: `${s.sut} cannot run here: ${peer}`, durationMs: 0 };
  const unserved = s.needs.filter((n) => peer && !peer.includes(n));
  if (unserved.length > 0)
    return {
      ...base,
      status: 'not-applicable',
      reason: `${s.sut} cannot serve ${unserved.join(', ')}`,
      durationMs: 0,
    };
  const missing = s.needs.filter((n) => o.backend.capabilities.get(n) !== true);
  if (missing.length > 0) {
    const why = missing.map((n) => `${n}${reasonOf(o.backend.capabilities.get(n))}`).join(', ');
    return {
      ...base,
      status: 'not-applicable',
      reason: `the ${o.backend.name} backend lacks ${why}`,
      durationMs: 0,
    };
  }
  let topology: Topology;
  try {
    topology = await o.topologies(topologyPath);
  } catch (err) {
    return { ...base, status: 'error', reason: (err as Error).message, durationMs: Date.now() - started };
  }
  // Each scenario's seed derives from the run's and its name, so running it alone (--scenario) replays it.
  const seed = scenarioSeed(o.seed, s.name);
  const n = repeatCount(o);
  const dir =
    o.artifactsDir === undefined
      ? undefined
      : join(o.artifactsDir, slug(s.sut === ownSut ? s.name : `${s.name} ${s.sut}`));
  if (n === 1) return (await runOnce(s, o, base, topology, seed, dir)).result;
  const runs: RepeatRun[] = [];
  for (let i = 0; i < n; i++) {
    o.progress.repeatStarted?.(i, n);
    const run = await runOnce(s, o, base, topology, repeatSeed(seed, i), dir && join(dir, `repeat-${i}`));
    runs.push(run);
    o.progress.repeatEnded?.(`    repeat ${i + 1}/${n} (seed ${run.seed}): ${outcome(run.result)}`);
  }
  return aggregateRepeats(runs, s.sut === ownSut);
}

/** One run of a scenario on a fresh lab. */
async function runOnce(
  s: Scenario,
  o: SuiteOptions,
  base: Pick<ScenarioResult, 'name' | 'topology' | 'sut'>,
  topology: Topology,
  seed: number,
  artifactsDir: string | undefined,
): Promise<RepeatRun> {
  const started = Date.now();
  const timeline: TimelineEvent[] = [];
  let now = () => 0;
  const note = ({ atMs, ...e }: Omit<TimelineEvent, 'atMs'> & { atMs?: number }) => {
    timeline.push({ atMs: Math.round((atMs ?? now()) * 1000) / 1000, ...e });
    if (e.kind === 'step' || e.kind === 'fault') o.progress.step(e.message);
  };
  const lab = await o.backend.up(topology, {
    seed,
    runId: o.runId,
    timeline: note,
    sut: s.sut,
    ...(artifactsDir !== undefined && { artifactsDir }),
  });
  now = () => lab.now();
  const slab = new ScenarioLab(lab, note, seed);
  let status: ScenarioResult['status'] = 'pass';
  let reason: string | undefined;
  try {
    await s.run(slab);
    // A scenario's own gates hold lblab to its promises; a peer is measured to compare with, not gated.
    const failed = s.sut === ownSut ? slab.gates.filter((g) => !g.pass) : [];
    if (failed.length > 0) {
      status = 'fail';
      reason = `gate ${failed.map((g) => `${g.name} ${g.threshold} (was ${g.value ?? 'missing'})`).join(', ')} failed`;
    }
  } catch (err) {
    status =
      err instanceof NotApplicableError
        ? 'not-applicable'
        : err instanceof CheckFailedError
          ? 'fail'
          : 'error';
    reason = (err as Error).message;
  } finally {
    await lab.down();
  }
  const probes = [...slab.probes].sort((a, b) => a.startedAtMs - b.startedAtMs);
  const result: ScenarioResult = {
    ...base,
    status,
    ...(reason !== undefined && { reason }),
    measurements: slab.measurements,
    gates: s.sut === ownSut ? slab.gates : [],
    steps: slab.steps,
    // Events noted after the fact (outage gaps) go where they happened.
    timeline: timeline.sort((a, b) => a.atMs - b.atMs),
    durationMs: Date.now() - started,
    ...(probes.length > 0 && { probes }),
  };
  return { seed, result, declaredGates: s.sut === ownSut ? slab.declaredGates : [] };
}

/** FNV-1a of the name mixed into the run seed. */
export function scenarioSeed(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h >>> 0;
}

/** "node crash (v4)" → "node-crash-v4": a scenario name as a directory name. */
export function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'scenario'
  );
}

function reasonOf(r: true | string | undefined): string {
  return typeof r === 'string' ? ` (${r})` : '';
}

function summaryLine(r: ScenarioResult): string {
  const tail = r.status === 'pass' ? figures(r) : (r.reason ?? '');
  const of = r.repeats ? ` (median of ${r.repeats.length} repeats)` : '';
  return `  ${r.status.toUpperCase().padEnd(14)} ${r.name}${tail ? `: ${tail}${r.status === 'pass' ? of : ''}` : ''}`;
}

/** "PASS outageMs 180, lostProbes 180" or "FAIL <reason>": how one repeat went. */
function outcome(r: ScenarioResult): string {
  const tail = r.status === 'pass' ? figures(r) : (r.reason ?? '');
  return `${r.status.toUpperCase()}${tail ? ` ${tail}` : ''}`;
}

function figures(r: ScenarioResult): string {
  const m = r.measurements;
  return keyFigures
    .map((f) => f.measurement)
    .filter((k) => m[k] !== undefined)
    .map((k) => `${k} ${m[k]}`)
    .join(', ');
}

function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}
