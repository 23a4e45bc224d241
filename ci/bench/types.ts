/** One timed phase of a benchmark run: `ops` operations in `durationMs` of wall-clock time. */
export interface BenchPhase {
  name: string;
  ops: number;
  durationMs: number;
  opsPerSec: number;
}

/** One scenario of a benchmark: its phases and the throughput over all of them. */
export interface BenchResult {
  name: string;
  phases: BenchPhase[];
  opsPerSec: number;
}

/** A registered benchmark; `run` performs one repetition and returns one result per scenario. */
export interface Bench {
  name: string;
  run: () => Promise<BenchResult[]>;
  /** Repetitions for the median; default 5. A run of minutes is worth one. */
  repetitions?: number;
}

export function phase(name: string, ops: number, durationMs: number): BenchPhase {
  return { name, ops, durationMs, opsPerSec: ops / (durationMs / 1000) };
}

export function result(name: string, phases: BenchPhase[]): BenchResult {
  const ops = phases.reduce((n, p) => n + p.ops, 0);
  const ms = phases.reduce((n, p) => n + p.durationMs, 0);
  return { name, phases, opsPerSec: ops / (ms / 1000) };
}
