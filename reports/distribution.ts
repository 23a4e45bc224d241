/** A measurement over the repeats of a scenario (`lblab run --repeat N`): the statistics a gate can name. */
import type { Distribution } from './result.ts';

/**
 * `samples` in repeat order (kept so). The median of an even count is the mean of the middle two; p95 is
 * the nearest rank (a sample that was measured, never an interpolation between two).
 */
export function distributionOf(samples: readonly number[]): Distribution {
  if (samples.length === 0) throw new RangeError('a distribution needs at least one sample');
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (rank: number) => sorted[rank]!;
  const mid = sorted.length >> 1;
  return {
    median: sorted.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2,
    p95: at(Math.ceil(0.95 * sorted.length) - 1),
    min: at(0),
    max: at(sorted.length - 1),
    samples: [...samples],
  };
}
