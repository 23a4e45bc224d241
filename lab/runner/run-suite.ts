import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { RunResult, ScenarioResult, TimelineEvent } from '../../reports/result.ts';
import { ownSut } from '../../reports/compare.ts';
import { keyFigures } from '../../reports/format.ts';
import { schemaVersion } from '../../reports/result.ts';
import type { Topology } from '../model/topology.ts';
import type { Backend } from './backend.ts';
import { CheckFailedError } from './checks.ts';
import type { Progress } from './progress.ts';
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
  };
}

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
  const timeline: TimelineEvent[] = [];
  let now = () => 0;
  const note = ({ atMs, ...e }: Omit<TimelineEvent, 'atMs'> & { atMs?: number }) => {
    timeline.push({ atMs: Math.round((atMs ?? now()) * 1000) / 1000, ...e });
    if (e.kind === 'step' || e.kind === 'fault') o.progress.step(e.message);
  };
  let topology: Topology;
  try {
    topology = await o.topologies(topologyPath);
  } catch (err) {
    return { ...base, status: 'error', reason: (err as Error).message, durationMs: Date.now() - started };
  }
  // Each scenario's seed derives from the run's and its name, so running it alone (--scenario) replays it.
  const seed = scenarioSeed(o.seed, s.name);
  const lab = await o.backend.up(topology, {
    seed,
    runId: o.runId,
    timeline: note,
    sut: s.sut,
    ...(o.artifactsDir !== undefined && {
      artifactsDir: join(o.artifactsDir, slug(s.sut === ownSut ? s.name : `${s.name} ${s.sut}`)),
    }),
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
    status = err instanceof CheckFailedError ? 'fail' : 'error';
    reason = (err as Error).message;
  } finally {
    await lab.down();
  }
  return {
    ...base,
    status,
    ...(reason !== undefined && { reason }),
    measurements: slab.measurements,
    gates: s.sut === ownSut ? slab.gates : [],
    steps: slab.steps,
    // Events noted after the fact (outage gaps) go where they happened.
    timeline: timeline.sort((a, b) => a.atMs - b.atMs),
    durationMs: Date.now() - started,
  };
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
  const m = r.measurements;
  const figures = keyFigures
    .map((f) => f.measurement)
    .filter((k) => m[k] !== undefined)
    .map((k) => `${k} ${m[k]}`)
    .join(', ');
  const tail = r.status === 'pass' ? figures : (r.reason ?? '');
  return `  ${r.status.toUpperCase().padEnd(14)} ${r.name}${tail ? `: ${tail}` : ''}`;
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
