/**
 * lblab against its peers: when a run measured the same scenario for lblab and for another
 * implementation (keepalived, FRR, ...), every key figure is also given as a ratio.
 */
import { keyFigures } from './format.ts';
import { sameRun } from './merge.ts';
import type { RunResult } from './result.ts';

/** The system under test the project ships; every other SUT in a run is a peer. */
export const ownSut = 'lblab';

/** "0.25×" = lblab's figure is a quarter of the peer's; undefined when the peer's figure is 0. */
export function ratio(a: number, b: number): string | undefined {
  return b === 0 || !Number.isFinite(a / b) ? undefined : `${(a / b).toFixed(2)}×`;
}

export interface Comparison {
  scenario: string;
  /** In a merged report: the backend both ran on. */
  backend?: string;
  runId?: string;
  measurement: string;
  value: number;
  peer: string;
  peerValue: number;
  ratio: string | undefined;
}

export function peerComparisons(result: RunResult): Comparison[] {
  const out: Comparison[] = [];
  const measured = result.scenarios.filter((s) => s.status !== 'not-applicable');
  for (const own of measured.filter((s) => s.sut === ownSut)) {
    for (const peer of measured.filter((s) => s.name === own.name && s.sut !== ownSut && sameRun(s, own))) {
      for (const { measurement } of keyFigures) {
        const value = own.measurements[measurement];
        const peerValue = peer.measurements[measurement];
        if (value === undefined || peerValue === undefined) continue;
        out.push({
          scenario: own.name,
          ...(own.backend !== undefined && { backend: own.backend }),
          ...(own.runId !== undefined && { runId: own.runId }),
          measurement,
          value,
          peer: peer.sut,
          peerValue,
          ratio: ratio(value, peerValue),
        });
      }
    }
  }
  return out;
}
