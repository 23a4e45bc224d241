import type { Random } from '../../runtime/random.ts';

/**
 * The wait before the next periodic packet. RFC 5880 §6.8.7: the interval "MUST be reduced by a random
 * value of 0 to 25%" per packet so systems on one subnet do not synchronise; when bfd.DetectMult is 1 it
 * "MUST be no more than 90%" and "no less than 75%" of the negotiated interval, so one late packet cannot
 * take the session down on its own.
 */
export function jitteredIntervalMs(intervalMs: number, detectMultiplier: number, random: Random): number {
  const spread = detectMultiplier === 1 ? 0.15 : 0.25;
  return intervalMs * (0.75 + spread * random.next());
}
