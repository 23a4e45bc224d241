import { describe, expect, it } from 'vitest';
import { signControlPacket } from '../../core/bfd/codec.ts';
import { upPacket } from '../../core/bfd/packet/test-support.ts';
import { ETHERTYPE_IPV4, ETHERTYPE_IPV6 } from '../../core/l2/wire/index.ts';
import { CaptureDecoder } from './capture-decoder.ts';
import { pcapFile } from './capture-files.test-support.ts';
import { eventJson } from './event-json.ts';
import type { CaptureEvent } from './events.ts';
import { bfdControl, ethernet, ipv4, ipv6, udp } from './packets.test-support.ts';

function decode(frames: readonly Uint8Array[]): CaptureEvent[] {
  const file = pcapFile(frames.map((data, i) => ({ seconds: 1_795_234_353, fraction: i, data })));
  return [...new CaptureDecoder(file, 'bfd.pcap').events()];
}

const a = (payload: Uint8Array, port = 3784) =>
  ethernet(ETHERTYPE_IPV4, ipv4('198.18.0.1', '198.18.0.2', 17, udp(49152, port, payload)));
const b = (payload: Uint8Array) =>
  ethernet(ETHERTYPE_IPV4, ipv4('198.18.0.2', '198.18.0.1', 17, udp(49153, 3784, payload)));

/** `packet` with the A bit set and `section` appended, the Length covering it. */
function withAuthSection(packet: Uint8Array, section: number[]): Uint8Array {
  const b = new Uint8Array([...packet, ...section]);
  b[1] = b[1]! | 0x04;
  b[3] = b.length;
  return b;
}

describe('BFD Control packets (RFC 5880 §4.1)', () => {
  it('shows every field under the names the JSON output has always had', () => {
    const [event] = decode([
      a(
        bfdControl({
          state: 3,
          diag: 3,
          my: 7,
          your: 9,
          txUs: 100_000,
          rxUs: 50_000,
          mult: 5,
          flags: 0x20 | 0x08,
        }),
      ),
    ]);
    const packet = {
      version: 1,
      diag: 3,
      diagName: 'neighbor-signaled-session-down',
      state: 'Up',
      poll: true,
      final: false,
      controlPlaneIndependent: true,
      authenticationPresent: false,
      demand: false,
      multipoint: false,
      detectMult: 5,
      length: 24,
      myDiscriminator: 7,
      yourDiscriminator: 9,
      desiredMinTxUs: 100_000,
      requiredMinRxUs: 50_000,
      requiredMinEchoRxUs: 0,
    };
    expect(event!.details).toEqual({ kind: 'bfd', hop: 'single', packet });
    expect(JSON.parse(eventJson(event!)).details.packet).toEqual(packet);
  });

  it('names reserved diagnostics and shows the Auth Type of an authenticated packet', () => {
    const p = upPacket({
      diagnostic: 9,
      state: 'admin-down',
      myDiscriminator: 1,
      yourDiscriminator: 0,
      desiredMinTxIntervalUs: 1_000_000,
      requiredMinRxIntervalUs: 1_000_000,
      requiredMinEchoRxIntervalUs: 0,
    });
    const signed = signControlPacket(p, {
      type: 'keyed-sha1',
      keyId: 1,
      key: new Uint8Array(20),
      sequence: 1,
    });
    const [event] = decode([a(signed)]);
    expect(event!.details).toMatchObject({
      kind: 'bfd',
      packet: {
        diagName: 'reserved-9',
        state: 'AdminDown',
        authenticationPresent: true,
        authType: 4,
        length: 52,
      },
    });
    expect(event!.summary).toMatch(/^BFD AdminDown 198\.18\.0\.1 → 198\.18\.0\.2 diag reserved-9 /);
  });

  it('marks each change of the state a sender reports', () => {
    const events = decode([
      a(bfdControl({ state: 1, my: 1 })),
      b(bfdControl({ state: 2, my: 2, your: 1 })),
      a(bfdControl({ state: 3, my: 1, your: 2 })),
      a(bfdControl({ state: 3, my: 1, your: 2, flags: 0x10 })),
      a(bfdControl({ state: 1, diag: 1, my: 1, your: 2 })),
    ]);
    expect(events.map((e) => e.summary)).toEqual([
      'BFD Down 198.18.0.1 → 198.18.0.2 diag none my-disc 1 your-disc 0 tx 300ms rx 300ms mult 3',
      'BFD Init 198.18.0.2 → 198.18.0.1 diag none my-disc 2 your-disc 1 tx 300ms rx 300ms mult 3',
      'BFD Down→Up 198.18.0.1 → 198.18.0.2 diag none my-disc 1 your-disc 2 tx 300ms rx 300ms mult 3',
      'BFD Up 198.18.0.1 → 198.18.0.2 diag none my-disc 1 your-disc 2 tx 300ms rx 300ms mult 3 final',
      'BFD Up→Down 198.18.0.1 → 198.18.0.2 diag control-detection-time-expired my-disc 1 your-disc 2 tx 300ms rx 300ms mult 3',
    ]);
    expect(events[2]!.src).toBe('198.18.0.1:49152');
    expect(events[2]!.dst).toBe('198.18.0.2:3784');
    expect(events[2]!.details).toMatchObject({ kind: 'bfd', hop: 'single', previousState: 'Down' });
  });

  it('reads multihop BFD over IPv6', () => {
    const frame = ethernet(
      ETHERTYPE_IPV6,
      ipv6('2001:db8::1', '2001:db8::2', 17, udp(49152, 4784, bfdControl({ state: 1 }))),
    );
    const [event] = decode([frame]);
    expect(event!.summary).toBe(
      'BFD Down 2001:db8::1 → 2001:db8::2 diag none my-disc 1 your-disc 0 tx 300ms rx 300ms mult 3 multihop',
    );
    expect(event!.src).toBe('[2001:db8::1]:49152');
  });

  it('reports packets RFC 5880 §6.8.6 discards as malformed events', () => {
    const events = decode([
      a(bfdControl({ state: 1, version: 0 })),
      a(bfdControl({ state: 1, mult: 0 })),
      a(bfdControl({ state: 3, your: 0 })),
      a(bfdControl({ state: 1, my: 0 })),
      a(bfdControl({ state: 1, flags: 0x01 })),
      a(bfdControl({ state: 1 }).subarray(0, 20)),
      a(withAuthSection(bfdControl({ state: 1 }), [9, 4, 1, 0])),
    ]);
    expect(
      events.map((e) => [e.details.kind, e.summary.replace('BFD malformed 198.18.0.1 → 198.18.0.2: ', '')]),
    ).toEqual([
      ['malformed', 'Version is 0, not 1 (RFC 5880 §6.8.6)'],
      ['malformed', 'Detect Mult is zero (RFC 5880 §6.8.6)'],
      ['malformed', 'Your Discriminator is zero while State is Up (RFC 5880 §6.8.6)'],
      ['malformed', 'My Discriminator is zero (RFC 5880 §6.8.6)'],
      ['malformed', 'Multipoint (M) is set (RFC 5880 §6.8.6)'],
      ['malformed', 'Packet is 20 octets, shorter than the 24-octet mandatory section (RFC 5880 §4.1)'],
      ['malformed', 'Auth Type 9 is reserved (RFC 5880 §4.1)'],
    ]);
  });

  it('ignores other UDP traffic, including BFD echo', () => {
    expect(decode([a(bfdControl({ state: 1 }), 3785), a(new Uint8Array(8), 53)])).toEqual([]);
  });
});
