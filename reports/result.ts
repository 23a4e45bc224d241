/**
 * The result of a lab run: the contract in DESIGN.md. result.json is this object; report.md and
 * junit.xml are rendered from it, so every output says the same thing.
 */
export const schemaVersion = 1;

export type ScenarioStatus = 'pass' | 'fail' | 'error' | 'not-applicable';

export interface GateResult {
  /** The measurement the gate reads, e.g. "outageMs" or "lostProbes". */
  name: string;
  /** Human-readable threshold, e.g. "< 1000" or "= 0". */
  threshold: string;
  /** The measured value; null when the scenario did not produce it. */
  value: number | null;
  pass: boolean;
  /**
   * Which statistic of a repeated measurement the gate judged ("median", "p95", "min", "max"); absent
   * when the scenario ran once (every statistic of one sample is that sample).
   */
  statistic?: Statistic;
}

export const statistics = ['median', 'p95', 'min', 'max'] as const;
export type Statistic = (typeof statistics)[number];

export interface TimelineEvent {
  /** Milliseconds since the scenario started (virtual time on the emulated backend). */
  atMs: number;
  /** Where it happened: a node, a client, "lab". */
  source: string;
  kind: string;
  message: string;
}

export interface StepResult {
  name: string;
  status: 'pass' | 'fail' | 'error';
  durationMs: number;
  message?: string;
}

/**
 * A stretch of consecutive probes (by sequence number) that were all answered, by one server. A lost probe
 * or a change of server starts a new run, so the probes between two runs are exactly the lost ones.
 */
export interface ServedRun {
  server: string;
  firstSeq: number;
  lastSeq: number;
}

/** A stretch without replies, as the client lived it: from the last reply before it to the first after. */
export interface ProbeGap {
  /** When the last reply before the gap came, in ms since the scenario started. */
  atMs: number;
  gapMs: number;
  lostProbes: number;
  serverBefore: string;
  serverAfter: string;
}

/**
 * One client's probe run, compactly: probe `seq` was sent at `startedAtMs + seq * intervalMs` (ms since
 * the scenario started, the timeline's clock), so served-by runs and gaps redraw the whole series.
 */
export interface ProbeSeries {
  client: string;
  target: string;
  startedAtMs: number;
  intervalMs: number;
  sent: number;
  received: number;
  lost: number;
  outageMs: number;
  runs: ServedRun[];
  gaps: ProbeGap[];
}

/** A measurement over repeats of a scenario (`lblab run --repeat N`). */
export interface Distribution {
  median: number;
  p95: number;
  min: number;
  max: number;
  /** Every sample, in repeat order. */
  samples: number[];
}

/** One repeat of a scenario, with the seed that replays it. */
export interface RepeatResult {
  seed: number;
  status: ScenarioStatus;
  reason?: string;
  measurements: Record<string, number>;
  durationMs: number;
}

export interface ScenarioResult {
  name: string;
  topology: string;
  /** System under test, e.g. "lblab" (later also "keepalived", "frr", ...). */
  sut: string;
  status: ScenarioStatus;
  /** Why it failed, errored or did not apply. */
  reason?: string;
  /** Named figures: outageMs, lostProbes, probeRatePps, detectionMs, convergenceMs, ... */
  measurements: Record<string, number>;
  gates: GateResult[];
  steps: StepResult[];
  timeline: TimelineEvent[];
  /** Wall-clock duration of the scenario run. */
  durationMs: number;
  /** What each client's probes saw (absent for scenarios that do not probe). */
  probes?: ProbeSeries[];
  /**
   * Set when a report merges runs of several backends (`lblab report merge`): the backend this scenario
   * ran on. Absent in a single run, whose backend is the run's.
   */
  backend?: string;
  /**
   * Set when a report merges runs (`lblab report merge`): the run this scenario came from, so the same
   * scenario and SUT from two runs of one backend stay apart. Absent in a single run.
   */
  runId?: string;
  /**
   * With `--repeat N` (N > 1): every repeat, `measurements` holds each measurement's median and
   * `distributions` the whole distribution; steps, timeline and probes are those of repeat `shownRepeat`
   * (the first that failed, else the one with the longest outage).
   */
  repeats?: RepeatResult[];
  distributions?: Record<string, Distribution>;
  shownRepeat?: number;
}

/** One measurement of this run set beside the same one of an earlier run (`--baseline`). */
export interface BaselineComparison {
  scenario: string;
  sut: string;
  backend: string;
  measurement: string;
  baseline: number;
  value: number;
  /** value - baseline */
  delta: number;
  /** value / baseline; null when the baseline is 0. */
  ratio: number | null;
  /** With five or more repeats on both sides: the one-sided rank test's p-value (Mann-Whitney U). */
  pValue?: number;
  regressed: boolean;
}

export interface BaselineResult {
  /** The file the baseline was read from. */
  file: string;
  runId: string;
  commit: string;
  startedAt: string;
  comparisons: BaselineComparison[];
  /** Scenarios of this run the baseline did not have (new, so not a regression), as "name [sut]" per backend. */
  newScenarios?: { backend: string; scenario: string; sut: string }[];
}

/** One measurement of one stored run: a point of the trend chart. */
export interface HistoryPoint {
  runId: string;
  commit: string;
  startedAt: string;
  backend: string;
  scenario: string;
  sut: string;
  measurement: string;
  value: number;
}

/** A run merged into this report (`lblab report merge`). */
export interface SourceRun {
  file: string;
  runId: string;
  backend: string;
  seed: number;
  commit: string;
  startedAt: string;
}

export interface RunResult {
  schemaVersion: typeof schemaVersion;
  runId: string;
  seed: number;
  backend: string;
  /** The git commit the run was made from, or "unknown". */
  commit: string;
  startedAt: string;
  durationMs: number;
  scenarios: ScenarioResult[];
  /**
   * On a real-network backend: lblab's scenarios run again on the emulated backend in the same run, with
   * the same seed, so the report can set the emulator's predictions beside what the kernel did (emulator
   * fidelity). Never gated; absent on the emulated backend itself.
   */
  emulated?: ScenarioResult[];
  /** `--repeat N`: how many times each scenario ran (absent when once). */
  repeat?: number;
  /** `--baseline`: the earlier run compared with, and each comparison. */
  baseline?: BaselineResult;
  /** `--baseline DIR`: key figures of every stored run found there plus this one, oldest first. */
  history?: HistoryPoint[];
  /** Present when this result merges several runs; each scenario then names its backend. */
  sources?: SourceRun[];
}
