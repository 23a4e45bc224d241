/**
 * Go duration strings ("90s", "1m30s", "500ms", "1.5h"), as metav1.Duration fields (holdTime,
 * keepaliveTime, connectTime) carry them. The grammar is Go's time.ParseDuration.
 */
import { goDurationPattern } from './patterns.ts';
import type { Decoder } from './schema.ts';
import { describe, described } from './schema.ts';

export const nsPerMs = 1_000_000n;
export const nsPerSecond = 1_000_000_000n;

const unitNs: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu, both accepted by Go
  ms: nsPerMs,
  s: nsPerSecond,
  m: 60n * nsPerSecond,
  h: 3600n * nsPerSecond,
};

const maxNs = (1n << 63n) - 1n;

export type DurationParse = { ok: true; ns: bigint } | { ok: false; reason: string };

/** Parses a Go duration into nanoseconds; fractions below a nanosecond are truncated, as Go does. */
export function parseGoDuration(text: string): DurationParse {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return { ok: true, ns: 0n };
  if (rest === '') return { ok: false, reason: 'is empty' };
  let total = 0n;
  const term = /^(\d*)(?:\.(\d*))?([a-zµμ]+)/;
  while (rest !== '') {
    const m = term.exec(rest);
    if (m === null && /^[\d.]+$/.test(rest))
      return { ok: false, reason: 'has a number without a unit (write "90s")' };
    if (m === null || (m[1] === '' && (m[2] ?? '') === '')) {
      return { ok: false, reason: 'is not a Go duration such as "90s", "1m30s" or "500ms"' };
    }
    const [whole, intDigits = '', fracDigits = '', unitText = ''] = m;
    const unit = unitNs[unitText];
    if (unit === undefined) {
      return { ok: false, reason: `unit ${JSON.stringify(unitText)} is not one of ns, us, ms, s, m, h` };
    }
    total += BigInt(intDigits || '0') * unit;
    if (fracDigits !== '') total += fraction(fracDigits, unit);
    if (total > maxNs) return { ok: false, reason: 'is too long (Go durations stop at about 292 years)' };
    rest = rest.slice(whole.length);
  }
  return { ok: true, ns: negative ? -total : total };
}

/**
 * Go scales the fraction in float64 ("to be nanosecond accurate for fractions of hours"), keeping at most
 * the digits that fit an int64; doing the same gives the same nanoseconds ("0.3333333333333333333h" is
 * exactly 20m in Go, not 1 ns less).
 */
function fraction(digits: string, unit: bigint): bigint {
  let x = 0n;
  let scale = 1;
  for (const d of digits) {
    const next = x * 10n + BigInt(d);
    if (next > 1n << 63n) break;
    x = next;
    scale *= 10;
  }
  return BigInt(Math.trunc(Number(x) * (Number(unit) / scale)));
}

/**
 * A duration field. Negative durations parse in Go but mean nothing for BGP timers, so they are refused
 * here rather than passed on to the session.
 */
const decodeDuration: Decoder<bigint> = (value, path, log) => {
  if (typeof value !== 'string') {
    log.error(path, `expected a duration string such as "90s", got ${describe(value)}`);
    return undefined;
  }
  const parsed = parseGoDuration(value);
  if (!parsed.ok) {
    log.error(path, `duration ${JSON.stringify(value)} ${parsed.reason}`);
    return undefined;
  }
  if (parsed.ns < 0n) {
    log.error(path, `duration ${JSON.stringify(value)} is negative`);
    return undefined;
  }
  return parsed.ns;
};
export const duration = described({ type: 'string', pattern: goDurationPattern }, decodeDuration);

/** Nanoseconds as (possibly fractional) milliseconds, the unit of the model. */
export function nsToMs(ns: bigint): number {
  return Number(ns / nsPerMs) + Number(ns % nsPerMs) / 1e6;
}
