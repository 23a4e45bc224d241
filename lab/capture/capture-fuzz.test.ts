import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ETHERTYPE_ARP, ETHERTYPE_IPV4, ETHERTYPE_IPV6 } from '../../core/l2/wire/index.ts';
import { CaptureDecoder } from './capture-decoder.ts';
import { CaptureStream } from './capture-stream.ts';
import { PcapngWriter, pcapFile } from './capture-files.test-support.ts';
import { CaptureFormatError } from './errors.ts';
import { eventJson } from './event-json.ts';
import { LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2 } from './link-layer.ts';
import { KEEPALIVE, bfdControl, ethernet, ipv4, ipv6, tcp, udp } from './packets.test-support.ts';

/** Runs the decoder to the end; only CaptureFormatError may escape. */
function run(bytes: Uint8Array): void {
  try {
    const d = new CaptureDecoder(bytes, 'fuzz');
    for (const e of d.events()) expect(typeof e.summary).toBe('string');
    d.notes();
  } catch (e) {
    if (!(e instanceof CaptureFormatError)) throw e;
  }
}

const sample = pcapFile([
  {
    seconds: 1,
    fraction: 2,
    data: ethernet(
      ETHERTYPE_IPV4,
      ipv4('198.18.0.1', '198.18.0.2', 6, tcp({ srcPort: 1, dstPort: 179, seq: 1, payload: KEEPALIVE })),
    ),
  },
  {
    seconds: 1,
    fraction: 3,
    data: ethernet(
      ETHERTYPE_IPV6,
      ipv6('2001:db8::1', '2001:db8::2', 17, udp(1, 3784, bfdControl({ state: 1 }))),
    ),
  },
]);
const sampleNg = new PcapngWriter()
  .section()
  .interface({ name: 'a', tsresol: 9 })
  .interface({ linkType: LINKTYPE_LINUX_SLL2 })
  .packet(0, 1n, ethernet(ETHERTYPE_ARP, new Uint8Array(28)))
  .simplePacket(new Uint8Array(40))
  .done();

const mutated = (base: Uint8Array) =>
  fc
    .record({
      cut: fc.nat({ max: base.length }),
      flips: fc.array(fc.record({ at: fc.nat({ max: base.length - 1 }), value: fc.nat({ max: 255 }) }), {
        maxLength: 8,
      }),
    })
    .map(({ cut, flips }) => {
      const b = Uint8Array.from(base);
      for (const f of flips) b[f.at] = f.value;
      return b.subarray(0, cut);
    });

/** The events as JSON lines and the error's message, decoding the whole file or pieces ending at `cuts`. */
function outcome(bytes: Uint8Array, cuts?: readonly number[]): { events: string[]; error?: string } {
  const events: string[] = [];
  try {
    if (cuts === undefined)
      for (const e of new CaptureDecoder(bytes, 'fuzz').events()) events.push(eventJson(e));
    else {
      const s = new CaptureStream('fuzz');
      let at = 0;
      for (const cut of [...cuts, bytes.length].map((c) => Math.max(c, at))) {
        for (const e of s.push(bytes.subarray(at, cut))) events.push(eventJson(e));
        at = cut;
      }
      for (const e of s.end()) events.push(eventJson(e));
    }
  } catch (e) {
    if (!(e instanceof CaptureFormatError)) throw e;
    return { events, error: e.message };
  }
  return { events };
}

describe('the capture decoder on hostile input', () => {
  it('reports corrupt pcap and pcapng files only as CaptureFormatError', () => {
    fc.assert(
      fc.property(fc.oneof(mutated(sample), mutated(sampleNg)), (bytes) => run(bytes)),
      { numRuns: 2000 },
    );
  });

  it('decodes a corrupt pcap read in pieces as it decodes the whole file, up to the same error', () => {
    fc.assert(
      fc.property(
        mutated(sample),
        fc.array(fc.nat({ max: sample.length }), { maxLength: 6 }),
        (bytes, cuts) => {
          expect(
            outcome(
              bytes,
              cuts.sort((a, b) => a - b),
            ),
          ).toEqual(outcome(bytes));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('decodes any frame content on every link type without throwing', () => {
    const frame = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc
        .record({
          etherType: fc.constantFrom(ETHERTYPE_ARP, ETHERTYPE_IPV4, ETHERTYPE_IPV6, 0x8100),
          body: fc.uint8Array({ maxLength: 200 }),
        })
        .map(({ etherType, body }) => ethernet(etherType, body)),
      fc
        .record({
          v6: fc.boolean(),
          protocol: fc.constantFrom(6, 17, 58, 0, 44),
          port: fc.constantFrom(179, 3784, 4784),
          body: fc.uint8Array({ maxLength: 120 }),
        })
        .map(({ v6, protocol, port, body }) => {
          const transport =
            protocol === 6
              ? tcp({ srcPort: port, dstPort: 40000, seq: 7, payload: body })
              : protocol === 17
                ? udp(5, port, body)
                : body;
          return v6
            ? ethernet(ETHERTYPE_IPV6, ipv6('2001:db8::1', '2001:db8::2', protocol, transport, 255))
            : ethernet(ETHERTYPE_IPV4, ipv4('198.18.0.1', '198.18.0.2', protocol, transport));
        }),
    );
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 12 }),
        fc.constantFrom(1, LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2),
        (frames, linkType) => {
          const file = pcapFile(
            frames.map((data, i) => ({ seconds: 0, fraction: i, data })),
            { linkType },
          );
          const events = [...new CaptureDecoder(file, 'fuzz').events()];
          for (const e of events) expect(e.summary.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
