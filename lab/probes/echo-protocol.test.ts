import { describe, expect, it } from 'vitest';
import { decodeEcho, encodeEcho, encodeProbe } from './echo-protocol.ts';

describe('the echo probe', () => {
  it('comes back with its sequence number, send time and the name of the server that answered', () => {
    for (const probe of [
      { seq: 0, sentAtMs: 0 },
      { seq: 4_294_967_295, sentAtMs: 1_764_000_000_123.456 },
      { seq: 123_456, sentAtMs: 0.001 },
    ]) {
      const bytes = encodeProbe(probe);
      // "LBLP", the sequence number and the send time, big-endian, as the real prober sends them.
      expect([...bytes.subarray(0, 4)]).toEqual([0x4c, 0x42, 0x4c, 0x50]);
      expect(new DataView(bytes.buffer).getUint32(4)).toBe(probe.seq);
      expect(new DataView(bytes.buffer).getFloat64(8)).toBe(probe.sentAtMs);
      expect(decodeEcho(encodeEcho(bytes, 'nöde-1')!)).toEqual({ ...probe, server: 'nöde-1' });
    }
  });

  it('is not answered, nor read, when it is not a probe', () => {
    const other = new Uint8Array(20).fill(7);
    expect(encodeEcho(other, 'n1')).toBeUndefined();
    expect(decodeEcho(other)).toBeUndefined();
    expect(decodeEcho(encodeProbe({ seq: 1, sentAtMs: 2 }).subarray(0, 15))).toBeUndefined();
  });
});
