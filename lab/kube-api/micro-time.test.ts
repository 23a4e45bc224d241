import { describe, expect, test } from 'vitest';
import { normaliseMicroTime } from './micro-time.ts';

describe('metav1.MicroTime decoding', () => {
  test.each([
    ['2026-11-01T10:00:00.123456Z', '2026-11-01T10:00:00.123456Z'],
    ['2026-11-01T10:00:00.000000+02:00', '2026-11-01T08:00:00.000000Z'],
    ['2026-12-31T23:30:00.000001-01:00', '2027-01-01T00:30:00.000001Z'],
  ])('%s is stored as %s', (given, stored) => {
    expect(normaliseMicroTime(given)).toBe(stored);
  });

  test.each([
    '2026-11-01T10:00:00.123Z', // a JavaScript Date's toISOString()
    '2026-11-01T10:00:00Z',
    '2026-11-01T10:00:00.123456789Z',
    '2026-11-01 10:00:00.123456Z',
    '2026-02-30T10:00:00.000000Z',
    '2026-11-01T24:00:00.000000Z',
  ])('%s is refused, as Go refuses it with layout 2006-01-02T15:04:05.000000Z07:00', (value) => {
    expect(normaliseMicroTime(value)).toBeUndefined();
  });
});
