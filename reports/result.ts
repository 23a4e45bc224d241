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
}

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
}
