import { describe, expect, it } from 'vitest';
import { decodeEcho, encodeEcho, encodeProbe } from './echo-protocol.ts';
import { summarise } from './outage.ts';

/** A reply to probe `seq`, sent every 5 ms, that arrived at `at`. */
const reply = (seq: number, at: number, server: string) => ({
  echo: { seq, sentAtMs: seq * 5, server },
  receivedAtMs: at,
});

describe('probe echo protocol', () => {
  it('round-trips a probe through the server answer and ignores foreign datagrams', () => {
    const echo = encodeEcho(encodeProbe({ seq: 42, sentAtMs: 1234.5 }), 'n2');
    expect(decodeEcho(echo!)).toEqual({ seq: 42, sentAtMs: 1234.5, server: 'n2' });
    expect(encodeEcho(new Uint8Array(20), 'n2')).toBeUndefined();
    expect(decodeEcho(new Uint8Array(3))).toBeUndefined();
  });

  it('puts "LBLP", the sequence number and the send time big-endian on the wire, as the real prober does', () => {
    const probe = { seq: 4_294_967_295, sentAtMs: 1_764_000_000_123.456 };
    const bytes = encodeProbe(probe);
    expect([...bytes.subarray(0, 4)]).toEqual([0x4c, 0x42, 0x4c, 0x50]);
    expect(new DataView(bytes.buffer).getUint32(4)).toBe(probe.seq);
    expect(new DataView(bytes.buffer).getFloat64(8)).toBe(probe.sentAtMs);
    expect(decodeEcho(encodeEcho(bytes, 'nöde-1')!)).toEqual({ ...probe, server: 'nöde-1' });
  });
});

describe('summarise', () => {
  it('measures the longest gap between replies, losses and the servers before and after', () => {
    const replies = [
      reply(0, 0, 'n1'),
      reply(1, 5, 'n1'),
      reply(2, 10, 'n1'),
      reply(60, 310, 'n2'),
      reply(61, 315, 'n2'),
      reply(61, 316, 'n2'),
    ];
    const s = summarise(62, replies, 25, 5);
    expect(s).toMatchObject({ sent: 62, received: 5, lost: 57, outageMs: 300 });
    expect(s.gaps).toEqual([
      {
        gapMs: 300,
        lastSeqBefore: 2,
        firstSeqAfter: 60,
        sentApartMs: 290,
        serverBefore: 'n1',
        serverAfter: 'n2',
      },
    ]);
    expect(s.servers).toEqual([
      { server: 'n1', replies: 3 },
      { server: 'n2', replies: 2 },
    ]);
    expect(s.runs).toEqual([
      { server: 'n1', firstSeq: 0, lastSeq: 2 },
      { server: 'n2', firstSeq: 60, lastSeq: 61 },
    ]);
  });

  it('tells replies held up on the way from a client that sent nothing, by when the bounding probes left', () => {
    // Nothing is lost either way. Held up: probes 3.. left on time, 5 ms apart, their replies came late.
    const heldUp = summarise(
      6,
      [0, 1, 2, 3, 4, 5].map((seq) => reply(seq, seq < 3 ? seq * 5 : 100 + seq, 'n1')),
      25,
      5,
    );
    expect(heldUp.gaps).toMatchObject([{ gapMs: 93, lastSeqBefore: 2, firstSeqAfter: 3, sentApartMs: 5 }]);
    // The client stalled: probe 3 left 95 ms after probe 2, and its reply came as soon as ever.
    const stalled = summarise(
      4,
      [0, 1, 2, 3].map((seq) => ({
        echo: { seq, sentAtMs: seq < 3 ? seq * 5 : 105, server: 'n1' },
        receivedAtMs: seq < 3 ? seq * 5 + 1 : 106,
      })),
      25,
      5,
    );
    expect(stalled.gaps).toMatchObject([{ gapMs: 95, sentApartMs: 95 }]);
  });

  it('splits served-by runs at a lost probe and at a change of server, whatever order replies came in', () => {
    // n1 answers 0-3 but 2 is lost; n2 takes over at 4 with no loss; 6 arrives before 5.
    const replies = [
      reply(0, 0, 'n1'),
      reply(1, 5, 'n1'),
      reply(3, 15, 'n1'),
      reply(4, 20, 'n2'),
      reply(6, 29, 'n2'),
      reply(5, 30, 'n2'),
    ];
    const s = summarise(8, replies, 25, 5);
    expect(s.runs).toEqual([
      { server: 'n1', firstSeq: 0, lastSeq: 1 },
      { server: 'n1', firstSeq: 3, lastSeq: 3 },
      { server: 'n2', firstSeq: 4, lastSeq: 6 },
    ]);
    // Between the runs lie exactly the lost probes (2, and 7 at the end).
    const answered = s.runs.reduce((n, r) => n + r.lastSeq - r.firstSeq + 1, 0);
    expect(s.sent - answered).toBe(s.lost);
    expect(summarise(5, [], 25, 5).runs).toEqual([]);
  });

  it('gives the same summary whatever order the replies are handed over in, a duplicate counting once', () => {
    const inOrder = [reply(0, 0, 'n1'), reply(1, 5, 'n1'), reply(4, 40, 'n2'), reply(5, 45, 'n2')];
    const shuffled = [inOrder[2]!, inOrder[0]!, inOrder[3]!, inOrder[1]!, reply(1, 7, 'n1')];
    const expected = summarise(6, inOrder, 25, 5);
    expect(expected).toMatchObject({ received: 4, lost: 2, outageMs: 35 });
    expect(summarise(6, shuffled, 25, 5)).toEqual({ ...expected });
  });

  it('reports no outage and no loss when every probe came back', () => {
    const s = summarise(3, [reply(0, 0, 'a'), reply(1, 5, 'a'), reply(2, 10, 'a')], 25, 5);
    expect(s).toMatchObject({ lost: 0, outageMs: 5, gaps: [] });
  });

  it('counts an outage that never ended, or began before the first reply, by the probes sent meanwhile', () => {
    // The server died after probe 2 and nothing answered again: 57 more probes, 5 ms apart.
    const dead = summarise(60, [reply(0, 0, 'n1'), reply(1, 5, 'n1'), reply(2, 10, 'n1')], 25, 5);
    expect(dead).toMatchObject({ lost: 57, outageMs: 285 });
    // Nothing answered the first 40 probes.
    const late = summarise(42, [reply(40, 200, 'n2'), reply(41, 205, 'n2')], 25, 5);
    expect(late).toMatchObject({ lost: 40, outageMs: 200 });
    expect(summarise(10, [], 25, 5)).toMatchObject({ lost: 10, outageMs: 50 });
  });
});
