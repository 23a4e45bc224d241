/**
 * Emulator fidelity: each scenario's emulated figure beside the real network's, from one run. The
 * emulator earns trust in `npm run lab` only as long as its figures agree with the kernel's; the project
 * calibrates it until they do within `fidelityTolerance`, or the report says they do not.
 */
import { ownSut } from './compare.ts';
import { keyFigures } from './format.ts';
import { sameRun } from './merge.ts';
import type { RunResult } from './result.ts';

/** How far an emulated figure may stray from the real one: 20 % of the real figure. */
export const fidelityTolerance = 0.2;
/**
 * Figures this close agree whatever their ratio: one probe interval at the catalog's 1000 pps is 1 ms,
 * and a kernel's scheduling jitter on a shared runner is tens of ms, so 0.4 ms against 12 ms says
 * nothing about the emulator. Applies to times only.
 */
export const fidelityFloorMs = 50;

export interface FidelityRow {
  scenario: string;
  /** In a merged report: the real backend. */
  backend?: string;
  runId?: string;
  measurement: string;
  emulated: number;
  real: number;
  /** emulated / real, undefined when the real figure is 0. */
  ratio: number | undefined;
  agrees: boolean;
}

export function fidelityRows(result: RunResult): FidelityRow[] {
  const rows: FidelityRow[] = [];
  const measured = (s: { status: string; sut: string }) => s.status !== 'not-applicable' && s.sut === ownSut;
  for (const real of result.scenarios.filter(measured)) {
    // In a merged report fidelity runs are tagged with the backend and run they were made beside.
    const emulated = result.emulated?.find((e) => e.name === real.name && measured(e) && sameRun(e, real));
    if (!emulated) continue;
    for (const { measurement } of keyFigures) {
      const e = emulated.measurements[measurement];
      const r = real.measurements[measurement];
      if (e === undefined || r === undefined) continue;
      rows.push({
        scenario: real.name,
        ...(real.backend !== undefined && { backend: real.backend }),
        ...(real.runId !== undefined && { runId: real.runId }),
        measurement,
        emulated: e,
        real: r,
        ratio: r === 0 ? undefined : e / r,
        agrees: agrees(measurement, e, r),
      });
    }
  }
  return rows;
}

function agrees(measurement: string, emulated: number, real: number): boolean {
  const off = Math.abs(emulated - real);
  if (measurement.endsWith('Ms') && off <= fidelityFloorMs) return true;
  return off <= fidelityTolerance * Math.abs(real);
}
