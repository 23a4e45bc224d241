import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TcpStream } from './tcp-stream.ts';

const bytes = (...v: number[]) => Uint8Array.from(v);
const joined = (chunks: Uint8Array[]) => Array.from(chunks.flatMap((c) => [...c]));

describe('TCP stream reassembly', () => {
  it('delivers in-order data after the SYN, which takes one sequence number', () => {
    const s = new TcpStream();
    expect(s.push({ seq: 1000, syn: true, payload: bytes() }).chunks).toEqual([]);
    expect(joined(s.push({ seq: 1001, syn: false, payload: bytes(1, 2, 3) }).chunks)).toEqual([1, 2, 3]);
    expect(joined(s.push({ seq: 1004, syn: false, payload: bytes(4) }).chunks)).toEqual([4]);
    expect(s.midstream).toBe(false);
  });

  it('holds segments that arrive early and releases them when the gap fills', () => {
    const s = new TcpStream();
    s.push({ seq: 0, syn: true, payload: bytes() });
    expect(s.push({ seq: 4, syn: false, payload: bytes(4, 5) }).chunks).toEqual([]);
    expect(s.push({ seq: 6, syn: false, payload: bytes(6) }).chunks).toEqual([]);
    expect(s.missing).toEqual({ at: 1, heldBytes: 3 });
    expect(joined(s.push({ seq: 1, syn: false, payload: bytes(1, 2, 3) }).chunks)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(s.missing).toBeUndefined();
    expect(s.stats.outOfOrder).toBe(2);
  });

  it('drops retransmissions and keeps only the new part of an overlapping segment', () => {
    const s = new TcpStream();
    s.push({ seq: 0, syn: true, payload: bytes() });
    s.push({ seq: 1, syn: false, payload: bytes(1, 2, 3) });
    expect(s.push({ seq: 1, syn: false, payload: bytes(1, 2, 3) }).chunks).toEqual([]);
    expect(joined(s.push({ seq: 2, syn: false, payload: bytes(2, 3, 4, 5) }).chunks)).toEqual([4, 5]);
    expect(s.stats).toEqual({ duplicates: 1, overlaps: 1, outOfOrder: 0 });
  });

  it('follows sequence numbers across the 2^32 wrap', () => {
    const s = new TcpStream();
    s.push({ seq: 0xfffffffe, syn: true, payload: bytes() });
    expect(joined(s.push({ seq: 0xffffffff, syn: false, payload: bytes(1, 2) }).chunks)).toEqual([1, 2]);
    expect(joined(s.push({ seq: 1, syn: false, payload: bytes(3) }).chunks)).toEqual([3]);
  });

  it('starts over when a SYN with a new initial sequence number reuses the ports', () => {
    const s = new TcpStream();
    s.push({ seq: 100, syn: true, payload: bytes() });
    s.push({ seq: 105, syn: false, payload: bytes(9) });
    expect(s.push({ seq: 100, syn: true, payload: bytes() }).restarted).toBe(false);
    const again = s.push({ seq: 5000, syn: true, payload: bytes() });
    expect(again.restarted).toBe(true);
    expect(s.missing).toBeUndefined();
    expect(joined(s.push({ seq: 5001, syn: false, payload: bytes(7) }).chunks)).toEqual([7]);
  });

  it('joins a stream mid-way at the first segment seen', () => {
    const s = new TcpStream();
    expect(joined(s.push({ seq: 777, syn: false, payload: bytes(5, 6) }).chunks)).toEqual([5, 6]);
    expect(s.midstream).toBe(true);
  });

  it('rebuilds any stream cut into segments that arrive shuffled and repeated', () => {
    const segmentation = fc
      .record({
        data: fc.uint8Array({ minLength: 1, maxLength: 300 }),
        isn: fc.nat({ max: 0xffffffff }),
        cuts: fc.array(fc.nat({ max: 300 }), { maxLength: 20 }),
        order: fc.array(fc.nat(), { maxLength: 60 }),
        repeats: fc.array(fc.nat(), { maxLength: 10 }),
      })
      .map(({ data, isn, cuts, order, repeats }) => {
        const points = [...new Set([0, ...cuts.filter((c) => c < data.length), data.length])].sort(
          (a, b) => a - b,
        );
        const segments = points.slice(1).map((end, i) => ({ start: points[i]!, end }));
        const sent = [...segments, ...repeats.map((r) => segments[r % segments.length]!)];
        // Shuffle by the drawn keys: a deterministic permutation for fast-check to shrink.
        const shuffled = sent
          .map((s, i) => ({ s, key: order[i] ?? i }))
          .sort((a, b) => a.key - b.key)
          .map((x) => x.s);
        return { data, isn, shuffled };
      });
    fc.assert(
      fc.property(segmentation, ({ data, isn, shuffled }) => {
        const s = new TcpStream();
        s.push({ seq: isn, syn: true, payload: new Uint8Array(0) });
        const out: Uint8Array[] = [];
        for (const { start, end } of shuffled) {
          out.push(
            ...s.push({ seq: (isn + 1 + start) >>> 0, syn: false, payload: data.subarray(start, end) })
              .chunks,
          );
        }
        expect(joined(out)).toEqual([...data]);
        expect(s.missing).toBeUndefined();
      }),
    );
  });
});
