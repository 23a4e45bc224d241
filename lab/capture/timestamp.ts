/**
 * A packet's capture time, exactly as the file stores it: whole seconds since the Unix epoch plus a
 * decimal fraction `fraction / 10^digits`. Every resolution a capture can declare has an exact decimal
 * form (10^-n has n digits; 2^-n = 5^n / 10^n has n digits too), so nothing is rounded; `digits` is the
 * file's precision (6 for microsecond pcap, 9 for nanosecond pcap and for dumpcap's pcapng).
 */
export interface CaptureTime {
  readonly seconds: bigint;
  readonly fraction: bigint;
  readonly digits: number;
}

/** How the units of a timestamp relate to seconds: 10^-exponent or 2^-exponent of a second. */
export interface TimestampResolution {
  readonly base: 10 | 2;
  readonly exponent: number;
}

export const MICROSECONDS: TimestampResolution = { base: 10, exponent: 6 };
export const NANOSECONDS: TimestampResolution = { base: 10, exponent: 9 };

/** `units` counted at `resolution` since the epoch, plus a whole-second offset (pcapng if_tsoffset). */
export function captureTime(units: bigint, resolution: TimestampResolution, offsetSeconds = 0n): CaptureTime {
  const { base, exponent } = resolution;
  const perSecond = BigInt(base) ** BigInt(exponent);
  const seconds = units / perSecond + offsetSeconds;
  const remainder = units % perSecond;
  // k / 2^n = k * 5^n / 10^n: the same value as an n-digit decimal fraction.
  const fraction = base === 10 ? remainder : remainder * 5n ** BigInt(exponent);
  return { seconds, fraction, digits: exponent };
}

/** Nanoseconds since the epoch; exact for every resolution down to 1 ns, finer ones are truncated. */
export function timeNs(t: CaptureTime): bigint {
  const scaled =
    t.digits <= 9 ? t.fraction * 10n ** BigInt(9 - t.digits) : t.fraction / 10n ** BigInt(t.digits - 9);
  return t.seconds * 1_000_000_000n + scaled;
}

/** JavaScript dates reach ±8.64e15 ms from the epoch (ECMA-262 §21.4.1.22). */
const MAX_DATE_SECONDS = 8_640_000_000_000n;

/**
 * ISO 8601 in UTC with the capture's own precision, e.g. 2026-11-21T04:12:33.123456789Z. A timestamp no
 * calendar date can hold (a corrupt or odd if_tsresol) is written as epoch seconds instead, still exact.
 */
export function isoTime(t: CaptureTime): string {
  const fraction = t.digits === 0 ? '' : `.${t.fraction.toString().padStart(t.digits, '0')}`;
  if (t.seconds > MAX_DATE_SECONDS || t.seconds < -MAX_DATE_SECONDS) return `${t.seconds}${fraction}`;
  const date = new Date(Number(t.seconds) * 1000).toISOString();
  return `${date.slice(0, date.indexOf('.'))}${fraction}Z`;
}
