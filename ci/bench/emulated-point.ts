/**
 * What every point of an emulated scale curve measures the same way: the emulated backend with a hand on
 * the lab it brings up (to count the events its emulator fires), the scenario's figures, and the
 * process's peak memory (each point runs in a process of its own: child-point.ts).
 */
import type { EmulatedLab } from '../../lab/backends/emulated/emulated-lab.ts';
import { emulatedBackend } from '../../lab/backends/emulated/index.ts';
import type { Backend } from '../../lab/runner/backend.ts';
import type { ScenarioResult } from '../../reports/result.ts';
import type { ScalePoint } from './scale-curve.ts';

export function countingEmulator(): { backend: Backend; events: () => number } {
  let lab: EmulatedLab | undefined;
  return {
    backend: {
      ...emulatedBackend,
      up: async (t, o) => (lab = (await emulatedBackend.up(t, o)) as EmulatedLab),
    },
    events: () => lab?.eventsFired() ?? 0,
  };
}

/** A point's measured fields, for a run that started (performance.now()) at `startedMs`. */
export function measured(
  s: ScenarioResult,
  startedMs: number,
  events: number,
): Omit<ScalePoint, 'nodes' | 'services'> {
  return {
    status: s.status,
    ...(s.reason !== undefined && { reason: s.reason }),
    wallMs: Math.round(performance.now() - startedMs),
    virtualMs: s.timeline.at(-1)?.atMs ?? 0,
    events,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    outageMs: s.measurements['outageMs'],
  };
}

/** Runs a point's main, printing its JSON line, or its error and exit status 1. */
export function printPoint(point: () => Promise<object>): void {
  point().then(
    (p) => process.stdout.write(`${JSON.stringify(p)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
