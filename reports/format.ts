/** How figures and statuses read in the Markdown and JUnit reports, so both say the same thing. */
import { exitCodeFor } from './exit-code.ts';
import type { RunResult, ScenarioStatus } from './result.ts';

/** Plain words, no emoji: they survive terminals, JUnit viewers and copy-paste into tickets. */
export function statusMarker(status: ScenarioStatus | 'pass' | 'fail' | 'error'): string {
  return status === 'not-applicable' ? 'N/A' : status.toUpperCase();
}

export function verdict(result: RunResult): 'PASS' | 'FAIL' | 'ERROR' {
  return (['PASS', 'FAIL', 'ERROR'] as const)[exitCodeFor(result)];
}

/** The figures a release manager reads first, in the summary table and the peer comparison. */
export const keyFigures = [
  { label: 'Outage', measurement: 'outageMs' },
  { label: 'Lost probes', measurement: 'lostProbes' },
  { label: 'Detection', measurement: 'detectionMs' },
  { label: 'Failover', measurement: 'failoverMs' },
  { label: 'Convergence', measurement: 'convergenceMs' },
] as const;

/** Integers as they are; fractions to at most 3 decimals (sub-microsecond digits are noise in ms). */
export function formatNumber(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}

/** The unit comes from the name's suffix, the convention measurements follow (outageMs, probeRatePps). */
export function formatMeasurement(name: string, v: number): string {
  if (name.endsWith('Ms')) return `${formatNumber(v)} ms`;
  if (name.endsWith('Pps')) return `${formatNumber(v)} pps`;
  return formatNumber(v);
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}

/** Key figures first, in their order, then the rest by name: the same order in every report. */
export function measurementOrder(measurements: Readonly<Record<string, number>>): string[] {
  const first: string[] = keyFigures.map((f) => f.measurement);
  const rank = (m: string) => (first.includes(m) ? first.indexOf(m) : first.length);
  return Object.keys(measurements).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The command that reruns a run, or one scenario of it, with the same seed. */
/**
 * Only the emulator replays a run exactly; on a real network the seed replays the emulator's fidelity
 * runs, while the kernel's timing differs from run to run.
 */
export function replayLabel(result: Pick<RunResult, 'backend'>): string {
  return result.backend === 'emulated'
    ? 'Replay'
    : 'Rerun (the seed replays the emulated fidelity runs; real-network timings vary run to run)';
}

/**
 * `repeat`: how many repeats to run (default: the run's). Repeat k's seed derives from the run's seed and
 * k, so `--repeat K` replays repeats 1..K of a run exactly, the last being repeat K.
 */
export function replayCommand(
  result: RunResult,
  scenario?: string,
  sut?: string,
  repeat = result.repeat,
): string {
  const args = ['lblab', 'run', '--backend', result.backend, '--seed', String(result.seed)];
  if (scenario !== undefined) args.push('--scenario', scenario);
  // A peer's run of a scenario comes from `--peer`; lblab's own runs alongside it.
  if (sut !== undefined && sut !== 'lblab') args.push('--peer', sut);
  if (repeat !== undefined && repeat > 1) args.push('--repeat', String(repeat));
  return args.map(shellQuote).join(' ');
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
