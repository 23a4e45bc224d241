/**
 * Small things every client-node adapter here needs alike: wall-clock times in the form the API takes,
 * and what a failed call says in a log line.
 */
import { ApiException } from '@kubernetes/client-node';
import type { Clock } from '../runtime/clock.ts';

/**
 * Wall-clock ms at which `clock.now()` reads 0: the given value, else the clock's own `epochMs`
 * (RealClock has one), else 0 (a virtual clock's times are then read as 1970).
 */
export function clockEpoch(clock: Clock, given: number | undefined): number {
  return given ?? (clock as { epochMs?: number }).epochMs ?? 0;
}

/** metav1.Time: RFC 3339 in whole seconds (`2026-11-26T10:00:00Z`). */
export function wholeSeconds(wallMs: number): Date {
  return new Date(Math.floor(wallMs / 1000) * 1000);
}

export function rfc3339Seconds(wallMs: number): string {
  return wholeSeconds(wallMs).toISOString().replace('.000Z', 'Z');
}

/** Whether a call failed with this HTTP status. */
export function isApiCode(err: unknown, code: number): boolean {
  return err instanceof ApiException && err.code === code;
}

/** `HTTP 503` for an answered call (client-node's message carries the whole body), else the error. */
export function describeApiError(err: unknown): string {
  if (err instanceof ApiException) return `HTTP ${err.code}`;
  if (err instanceof Error) return err.message;
  const code = (err as { code?: unknown; statusCode?: unknown } | undefined)?.statusCode;
  return code === undefined ? String(err) : `HTTP ${String(code)}`;
}
