import { SimConfigError } from './errors.ts';

/**
 * What tc netem would be told for one link, applied in both directions; the same fields as the
 * topology model's Impairment, so a topology's impairment is passed through unchanged.
 */
export interface Impairment {
  readonly delayMs: number;
  /** netem's default (uniform) jitter: each frame's delay is drawn from delay ± jitter, so frames can reorder. */
  readonly jitterMs: number;
  readonly lossPct: number;
  /** Serialisation rate in megabits per second; frames queue behind each other. Undefined: unlimited. */
  readonly rateMbps?: number;
}

/** A complete, checked impairment from the fields given (missing ones are zero). */
export function impairment(given: Partial<Impairment>, where: string): Impairment {
  const out: Impairment = {
    delayMs: given.delayMs ?? 0,
    jitterMs: given.jitterMs ?? 0,
    lossPct: given.lossPct ?? 0,
    ...(given.rateMbps === undefined ? {} : { rateMbps: given.rateMbps }),
  };
  const bad = (field: string, value: number, rule: string) =>
    new SimConfigError(`${where}: ${field} is ${value}, it must be ${rule}`);
  for (const field of ['delayMs', 'jitterMs'] as const) {
    const v = out[field];
    if (!Number.isFinite(v) || v < 0) throw bad(field, v, 'a finite number ≥ 0');
  }
  if (!(out.lossPct >= 0 && out.lossPct <= 100)) throw bad('lossPct', out.lossPct, 'within 0..100');
  if (out.rateMbps !== undefined && !(Number.isFinite(out.rateMbps) && out.rateMbps > 0))
    throw bad('rateMbps', out.rateMbps, 'a finite number > 0');
  return out;
}
