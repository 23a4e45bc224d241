import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureDecoder } from './capture-decoder.ts';
import { CaptureStream } from './capture-stream.ts';
import { CaptureFollowError, CaptureFormatError } from './errors.ts';
import { eventJson } from './event-json.ts';
import type { CaptureEvent } from './events.ts';
import { TRAFFIC, trafficPcap, trafficPcapng } from './traffic.test-support.ts';

const lines = (events: Iterable<CaptureEvent>) => Array.from(events, eventJson);

/** The whole file at once, through CaptureDecoder. */
function whole(bytes: Uint8Array) {
  const d = new CaptureDecoder(bytes, 'cap');
  return { events: lines(d.events()), notes: d.notes() };
}

/** The file as a stream of pieces ending at `cuts`, then end(). */
function pieces(bytes: Uint8Array, cuts: readonly number[]) {
  const s = new CaptureStream('cap');
  const events: string[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...lines(s.push(bytes.subarray(at, Math.max(at, cut)))));
    at = Math.max(at, cut);
  }
  events.push(...lines(s.end()));
  return { events, notes: s.notes() };
}

const variants = [
  { nano: false, littleEndian: true },
  { nano: true, littleEndian: true },
  { nano: false, littleEndian: false },
  { nano: true, littleEndian: false },
];

describe('a classic pcap decoded as it is written', () => {
  it('gives the events of the whole file, however the file grew', () => {
    const files = variants.map((o) => trafficPcap(o));
    const expected = files.map(whole);
    // ARP, BGP connect and OPEN, BFD twice, and the stream gap only the end of the file reveals; a note.
    expect(
      expected[0]!.events.map((e) => (JSON.parse(e) as { summary: string }).summary.split(' ', 2)),
    ).toEqual([
      ['ARP', 'request'],
      ['BGP', 'TCP'],
      ['BGP', 'OPEN'],
      ['BFD', 'Down'],
      ['BFD', 'Up'],
      ['BGP', 'stream'],
    ]);
    expect(expected[0]!.notes).toEqual(['1 packet: IP fragments are not reassembled (first: frame 6)']);
    for (const [i, file] of files.entries()) {
      for (const step of [1, 3, 16, 23, 24, 25, 41]) {
        const cuts = Array.from({ length: Math.ceil(file.length / step) }, (_, k) => k * step);
        expect(pieces(file, cuts)).toEqual(expected[i]);
      }
    }
    fc.assert(
      fc.property(
        fc.nat({ max: 3 }),
        fc.array(fc.nat({ max: files[0]!.length }), { maxLength: 12 }),
        (i, cuts) => {
          expect(
            pieces(
              files[i]!,
              cuts.sort((a, b) => a - b),
            ),
          ).toEqual(expected[i]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads classic pcap through pcap-parser as lblab’s own pcapng reader reads the same packets', () => {
    for (const nano of [false, true]) {
      const pcap = whole(trafficPcap({ nano }));
      const ng = whole(trafficPcapng({ nano }));
      expect(pcap.events).toEqual(ng.events);
      expect(pcap.notes).toEqual(ng.notes);
    }
  });

  it('hands a packet on with the piece that completes it', () => {
    const file = trafficPcap();
    const first = 24 + 16 + TRAFFIC[0]!.length;
    const s = new CaptureStream('cap');
    expect(lines(s.push(file.subarray(0, 3)))).toEqual([]);
    expect(lines(s.push(file.subarray(3, first - 1)))).toEqual([]);
    const [arp] = [...s.push(file.subarray(first - 1, first))];
    expect(arp?.summary).toBe('ARP request who-has 198.18.0.10 tell 198.18.0.11 (02:00:00:00:00:0a)');
    expect(arp?.time).toBe('2026-11-21T04:12:33.000000Z');
  });

  it('ends with an error where the complete file is cut, and with a note when following stopped there', () => {
    const file = trafficPcap();
    const cutAt = 24 + 16 + TRAFFIC[0]!.length + 16 + 5;
    const ended = new CaptureStream('cap');
    expect(lines(ended.push(file.subarray(0, cutAt)))).toHaveLength(1);
    expect(() => [...ended.end()]).toThrow(
      new CaptureFormatError(
        'cap',
        cutAt - 5,
        `packet record 2 (${TRAFFIC[1]!.length} bytes) needs ${TRAFFIC[1]!.length} bytes, the file has 5 left (truncated?)`,
      ),
    );
    const stopped = new CaptureStream('cap');
    expect(lines(stopped.push(file.subarray(0, cutAt)))).toHaveLength(1);
    expect(lines(stopped.stop())).toEqual([]);
    expect(stopped.notes()).toEqual([
      `stopped inside an unfinished record at byte ${cutAt - 5}: packet record 2 (${TRAFFIC[1]!.length} bytes) needs ${TRAFFIC[1]!.length} bytes, the file has 5 left (truncated?)`,
    ]);
  });

  it('refuses pcapng, and files that are no capture or empty, naming the file', () => {
    const ng = new CaptureStream('cap.pcapng');
    expect(() => [...ng.push(trafficPcapng())]).toThrow(CaptureFollowError);
    expect(() => [...ng.push(trafficPcapng())]).toThrow(
      /^cap\.pcapng: pcapng is only read whole; --follow reads classic pcap/,
    );
    const text = new CaptureStream('notes.txt');
    expect(() => [...text.push(new TextEncoder().encode('hello'))]).toThrow(
      'notes.txt: corrupt capture at byte 0: neither pcap nor pcapng (the file starts with 68 65 6c 6c)',
    );
    expect(() => [...new CaptureStream('empty.pcap').end()]).toThrow(
      'empty.pcap: corrupt capture at byte 0: the file is empty',
    );
  });
});
