import { describe, expect, it } from 'vitest';
import { arpRequest, encodeFrame } from '../../core/l2/wire/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { CaptureDecoder } from './capture-decoder.ts';
import { pcapFile } from './capture-files.test-support.ts';
import { CaptureFormatError } from './errors.ts';
import { MAC_A } from './packets.test-support.ts';

const ARP = encodeFrame(
  arpRequest({
    targetIp: IpAddress.parse('198.18.0.2'),
    senderIp: IpAddress.parse('198.18.0.1'),
    senderMac: MAC_A,
  }),
);
// 2026-11-21T04:12:33Z
const SECONDS = Date.UTC(2026, 10, 21, 4, 12, 33) / 1000;

function decode(bytes: Uint8Array) {
  const d = new CaptureDecoder(bytes, 'test.pcap');
  const events = [...d.events()];
  return { events, decoder: d };
}

function corruption(bytes: Uint8Array): CaptureFormatError {
  try {
    decode(bytes);
  } catch (e) {
    if (e instanceof CaptureFormatError) return e;
    throw e;
  }
  throw new Error('the capture was accepted');
}

describe('classic pcap', () => {
  for (const littleEndian of [true, false]) {
    const order = littleEndian ? 'little-endian' : 'big-endian';

    it(`reads microsecond timestamps exactly (${order})`, () => {
      const file = pcapFile(
        [
          { seconds: SECONDS, fraction: 123456, data: ARP },
          { seconds: SECONDS + 1, fraction: 999999, data: ARP },
        ],
        { littleEndian },
      );
      const { events, decoder } = decode(file);
      expect(decoder.format).toBe('pcap');
      expect(events.map((e) => [e.frame, e.time, e.timeNs])).toEqual([
        [1, '2026-11-21T04:12:33.123456Z', BigInt(SECONDS) * 1_000_000_000n + 123_456_000n],
        [2, '2026-11-21T04:12:34.999999Z', BigInt(SECONDS + 1) * 1_000_000_000n + 999_999_000n],
      ]);
      expect(events[0]!.summary).toBe('ARP request who-has 198.18.0.2 tell 198.18.0.1 (02:00:00:00:00:0a)');
      expect(events[0]!.interface).toBe('if0');
    });

    it(`reads nanosecond timestamps exactly (${order})`, () => {
      const file = pcapFile([{ seconds: SECONDS, fraction: 123456789, data: ARP }], {
        nano: true,
        littleEndian,
      });
      const [event] = decode(file).events;
      expect(event!.time).toBe('2026-11-21T04:12:33.123456789Z');
      expect(event!.timeNs).toBe(BigInt(SECONDS) * 1_000_000_000n + 123_456_789n);
    });
  }

  it('names the byte offset where a record is cut short', () => {
    const file = pcapFile([
      { seconds: SECONDS, fraction: 1, data: ARP },
      { seconds: SECONDS, fraction: 2, data: ARP },
    ]);
    const secondRecord = 24 + 16 + ARP.length;
    // Cut inside the second record's data: the error points at where its data starts.
    const inData = corruption(file.subarray(0, secondRecord + 16 + 10));
    expect(inData.offset).toBe(secondRecord + 16);
    expect(inData.message).toBe(
      `test.pcap: corrupt capture at byte ${secondRecord + 16}: packet record 2 (${ARP.length} bytes) needs ${ARP.length} bytes, the file has 10 left (truncated?)`,
    );
    // Cut inside the second record's header.
    expect(corruption(file.subarray(0, secondRecord + 5)).offset).toBe(secondRecord);
    // Cut inside the file header.
    expect(corruption(file.subarray(0, 10)).offset).toBe(0);
  });

  it('still yields the events before the cut', () => {
    const file = pcapFile([
      { seconds: SECONDS, fraction: 1, data: ARP },
      { seconds: SECONDS, fraction: 2, data: ARP },
    ]);
    const d = new CaptureDecoder(file.subarray(0, file.length - 3), 'cut.pcap');
    const seen: number[] = [];
    expect(() => {
      for (const e of d.events()) seen.push(e.frame);
    }).toThrow(CaptureFormatError);
    expect(seen).toEqual([1]);
  });

  it('refuses a sub-second field out of range and a file that is no capture', () => {
    const bad = pcapFile([{ seconds: SECONDS, fraction: 1_000_000, data: ARP }]);
    expect(corruption(bad).offset).toBe(24 + 4);
    const text = new TextEncoder().encode('hello, world');
    expect(corruption(text).message).toBe(
      'test.pcap: corrupt capture at byte 0: neither pcap nor pcapng (the file starts with 68 65 6c 6c)',
    );
    expect(corruption(new Uint8Array(0)).message).toContain('the file is empty');
  });

  it('counts packets on link types it does not decode instead of failing', () => {
    const { events, decoder } = decode(
      pcapFile([{ seconds: SECONDS, fraction: 0, data: ARP }], { linkType: 105 }),
    );
    expect(events).toEqual([]);
    expect(decoder.notes()).toEqual(['1 packet: link type 105 is not decoded (first: frame 1)']);
  });
});
