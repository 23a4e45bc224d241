import { IpAddress, MacAddress, Prefix } from '../../core/net/index.ts';
import type { CaptureEvent } from './events.ts';

/**
 * One event as a JSON object on one line. Timestamps stay exact: timeNs is a decimal string (JSON numbers
 * lose precision past 2^53 ns); addresses and prefixes are their text form; bytes are hex.
 */
export function eventJson(event: CaptureEvent): string {
  return JSON.stringify(event, (_key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof IpAddress || value instanceof MacAddress || value instanceof Prefix)
      return value.toString();
    if (value instanceof Uint8Array)
      return Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('');
    return value;
  });
}
