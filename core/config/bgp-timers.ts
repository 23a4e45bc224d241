/**
 * A BGPPeer's session timers, checked as MetalLB's parseTimers and the CRD's CEL rules check them.
 * Given one of holdTime and keepaliveTime, the other follows the RFC 4271 ratio (keepalive = hold / 3).
 */
import { nsPerMs, nsPerSecond, nsToMs } from './durations.ts';
import type { IssueSink } from './issues.ts';

export interface Timers {
  holdTimeMs?: number;
  keepaliveTimeMs?: number;
  connectTimeMs?: number;
}

export function checkTimers(
  given: { holdTime?: bigint; keepaliveTime?: bigint; connectTime?: bigint },
  log: IssueSink,
): Timers {
  const out: Timers = {};
  const { holdTime, keepaliveTime, connectTime } = given;
  if (holdTime !== undefined || keepaliveTime !== undefined) {
    const hold = holdTime ?? (keepaliveTime ?? 0n) * 3n;
    const keepalive = keepaliveTime ?? hold / 3n;
    // MetalLB truncates the hold time to whole seconds (the unit of BGP's OPEN message) before checking it.
    const holdSeconds = hold / nsPerSecond;
    const holdPath = holdTime !== undefined ? 'spec.holdTime' : 'spec.keepaliveTime';
    const implied = holdTime !== undefined ? '' : ` (three times keepaliveTime ${show(keepalive)})`;
    if (holdSeconds !== 0n && holdSeconds < 3n) {
      log.error(holdPath, `hold time ${show(hold)}${implied} must be 0 or at least 3s (RFC 4271 §4.2)`);
    } else if (holdSeconds === 0n && hold !== 0n) {
      log.warn(
        holdPath,
        `hold time ${show(hold)}${implied} truncates to 0s, which turns the hold timer and keepalives off`,
      );
    }
    if (keepalive > hold) {
      log.error(
        'spec.keepaliveTime',
        `keepaliveTime ${show(keepalive)} is longer than the hold time ${show(hold)}`,
      );
    }
    out.holdTimeMs = nsToMs(hold);
    out.keepaliveTimeMs = nsToMs(keepalive);
  }
  if (connectTime !== undefined) {
    // The CRD's CEL rules: duration(self).getSeconds() in 1..65535 and getMilliseconds() % 1000 == 0.
    const seconds = connectTime / nsPerSecond;
    if (seconds < 1n || seconds > 65535n) {
      log.error('spec.connectTime', `connect time ${show(connectTime)} must be between 1s and 65535s`);
    } else if ((connectTime / nsPerMs) % 1000n !== 0n) {
      log.error('spec.connectTime', `connect time ${show(connectTime)} must be a whole number of seconds`);
    }
    out.connectTimeMs = nsToMs(connectTime);
  }
  return out;
}

function show(ns: bigint): string {
  if (ns % nsPerSecond === 0n) return `${ns / nsPerSecond}s`;
  if (ns % nsPerMs === 0n) return `${ns / nsPerMs}ms`;
  return `${ns}ns`;
}
