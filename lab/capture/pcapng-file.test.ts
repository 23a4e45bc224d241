import { describe, expect, it } from 'vitest';
import { ETHERTYPE_ARP, arpReply, arpRequest, encodeArp, encodeFrame } from '../../core/l2/wire/index.ts';
import { IpAddress, MacAddress } from '../../core/net/index.ts';
import { CaptureDecoder } from './capture-decoder.ts';
import { PcapngWriter } from './capture-files.test-support.ts';
import { CaptureFormatError } from './errors.ts';
import { LINKTYPE_LINUX_SLL2 } from './link-layer.ts';
import { MAC_A, MAC_B, sll2 } from './packets.test-support.ts';

const request = arpRequest({
  targetIp: IpAddress.parse('198.18.100.1'),
  senderIp: IpAddress.parse('198.18.0.1'),
  senderMac: MAC_A,
});
const reply = arpReply(request, MAC_B);
const ARP_REQUEST = encodeFrame(request);
const ARP_REPLY_SLL2 = sll2(ETHERTYPE_ARP, encodeArp(reply.arp));
const SECONDS = BigInt(Date.UTC(2026, 10, 21, 4, 12, 33) / 1000);

function decode(bytes: Uint8Array) {
  const d = new CaptureDecoder(bytes, 'test.pcapng');
  return { events: [...d.events()], decoder: d };
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

describe('pcapng', () => {
  for (const le of [true, false]) {
    const order = le ? 'little-endian' : 'big-endian';

    it(`honours if_tsresol 10^-6, 10^-9 and 2^-10 (${order} section)`, () => {
      const file = new PcapngWriter(le)
        .section()
        .interface({ name: 'us' })
        .interface({ name: 'ns', tsresol: 9 })
        .interface({ name: 'binary', tsresol: 0x80 | 10 })
        .packet(0, SECONDS * 1_000_000n + 123_456n, ARP_REQUEST)
        .packet(1, SECONDS * 1_000_000_000n + 123_456_789n, ARP_REQUEST)
        // 3/1024 s = 0.0029296875 s exactly.
        .packet(2, SECONDS * 1024n + 3n, ARP_REQUEST)
        .done();
      const { events, decoder } = decode(file);
      expect(decoder.format).toBe('pcapng');
      expect(events.map((e) => [e.interface, e.time, e.timeNs])).toEqual([
        ['us', '2026-11-21T04:12:33.123456Z', SECONDS * 1_000_000_000n + 123_456_000n],
        ['ns', '2026-11-21T04:12:33.123456789Z', SECONDS * 1_000_000_000n + 123_456_789n],
        // Shown exactly (ten digits); nanoseconds truncated.
        ['binary', '2026-11-21T04:12:33.0029296875Z', SECONDS * 1_000_000_000n + 2_929_687n],
      ]);
    });
  }

  it('reads two interfaces with different link types, and if_tsoffset', () => {
    const file = new PcapngWriter()
      .section()
      .interface({ name: 'veth0', tsresol: 9 })
      .interface({ name: 'any', linkType: LINKTYPE_LINUX_SLL2, tsresol: 6, tsoffset: 100n })
      .packet(0, SECONDS * 1_000_000_000n + 5n, ARP_REQUEST)
      .packet(1, (SECONDS - 100n) * 1_000_000n + 7n, ARP_REPLY_SLL2)
      .done();
    const { events, decoder } = decode(file);
    expect(decoder.interfaces.map((i) => [i.id, i.name, i.linkType, i.digits])).toEqual([
      [0, 'veth0', 1, 9],
      [1, 'any', LINKTYPE_LINUX_SLL2, 6],
    ]);
    expect(events.map((e) => [e.interface, e.time, e.summary])).toEqual([
      [
        'veth0',
        '2026-11-21T04:12:33.000000005Z',
        'ARP request who-has 198.18.100.1 tell 198.18.0.1 (02:00:00:00:00:0a)',
      ],
      ['any', '2026-11-21T04:12:33.000007Z', 'ARP reply 198.18.100.1 is-at 02:00:00:00:00:0b'],
    ]);
  });

  it('reads Simple Packet Blocks, which have no timestamp', () => {
    const file = new PcapngWriter().section().interface({ snapLength: 0 }).simplePacket(ARP_REQUEST).done();
    const [event] = decode(file).events;
    expect(event!.timeNs).toBeUndefined();
    expect(event!.time).toBeUndefined();
    expect(event!.summary).toContain('ARP request who-has 198.18.100.1');
  });

  it('skips blocks it does not know, statistics blocks and sections of another version', () => {
    const file = new PcapngWriter(false)
      .section()
      .interface({})
      .other(0x00000bad, Uint8Array.of(1, 2, 3, 4, 5))
      .other(5, new Uint8Array(12))
      .packet(0, 1n, ARP_REQUEST)
      .section({ major: 2 })
      .interface({})
      .packet(0, 2n, ARP_REQUEST)
      .section()
      .interface({ name: 'third' })
      .packet(0, 3n, ARP_REQUEST)
      .done();
    const { events } = decode(file);
    expect(events.map((e) => [e.frame, e.interface, e.timeNs])).toEqual([
      [1, 'if0', 1000n],
      [2, 'third', 3000n],
    ]);
  });

  it('reports a cut or inconsistent block with its byte offset', () => {
    const file = new PcapngWriter().section().interface({}).packet(0, 1n, ARP_REQUEST).done();
    // Section header block 28 bytes, interface block 24 (no options but the end marker).
    const epbAt = 28 + 24;
    const cut = corruption(file.subarray(0, file.length - 4));
    expect(cut.offset).toBe(epbAt);
    expect(cut.message).toMatch(
      /^test\.pcapng: corrupt capture at byte 52: a block of type 0x6 \(\d+ bytes\) needs/,
    );

    const mismatched = Uint8Array.from(file);
    new DataView(mismatched.buffer).setUint32(mismatched.length - 4, 12, true);
    const e = corruption(mismatched);
    expect(e.offset).toBe(file.length - 4);
    expect(e.message).toContain('trailing block length 12 differs from the leading');

    const odd = Uint8Array.from(file);
    new DataView(odd.buffer).setUint32(epbAt + 4, 13, true);
    expect(corruption(odd).offset).toBe(epbAt + 4);
  });

  it('refuses a packet on an interface no block declared, and a file without a section header', () => {
    const file = new PcapngWriter().section().interface({}).packet(3, 1n, ARP_REQUEST).done();
    const e = corruption(file);
    expect(e.offset).toBe(28 + 24 + 8);
    expect(e.message).toContain('packet on interface 3, which no Interface Description Block declared');

    const noSection = new PcapngWriter().interface({}).done();
    expect(corruption(Uint8Array.of(0x0a, 0x0d, 0x0d, 0x0a, ...noSection.subarray(4))).offset).toBe(8);
  });

  it('keeps MAC addresses of ARP replies seen on a Linux cooked v2 capture', () => {
    const file = new PcapngWriter()
      .section()
      .interface({ linkType: LINKTYPE_LINUX_SLL2 })
      .packet(0, 1n, ARP_REPLY_SLL2)
      .done();
    const [event] = decode(file).events;
    expect(event!.details).toEqual({ kind: 'arp', arp: reply.arp });
    expect(reply.arp.senderMac).toEqual(MacAddress.parse('02:00:00:00:00:0b'));
  });
});
