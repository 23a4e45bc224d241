import { describe, expect, it } from 'vitest';
import { tsharkFrames } from '../../runtime/tshark.test-support.ts';
import { BFD_MULTI_HOP_PORT, BFD_SINGLE_HOP_PORT } from '../ports.ts';
import { signControlPacket, type SigningKey } from './auth.ts';
import { encodeControlPacket } from './control-packet.ts';
import { ascii, upPacket } from './test-support.ts';
import { BFD_STATES, type ControlPacket } from './types.ts';

// Cross-check against an independent decoder: our encodings are wrapped in Ethernet/IPv4/UDP frames,
// written as a classic pcap file and read back by Wireshark's BFD dissector (tshark).

const plain = upPacket({
  diagnostic: 3,
  poll: true,
  controlPlaneIndependent: true,
  detectMultiplier: 5,
  myDiscriminator: 0xdeadbeef,
  yourDiscriminator: 7,
  desiredMinTxIntervalUs: 100_000,
  requiredMinRxIntervalUs: 200_000,
  requiredMinEchoRxIntervalUs: 0,
});
const down: ControlPacket = upPacket({ state: 'down', yourDiscriminator: 0, final: true, diagnostic: 1 });
const KEYS: SigningKey[] = [
  { type: 'simple-password', keyId: 9, key: ascii('lblab-pass') },
  { type: 'keyed-md5', keyId: 1, key: ascii('md5-key'), sequence: 1000 },
  { type: 'meticulous-keyed-md5', keyId: 2, key: ascii('md5-key'), sequence: 0xffffffff },
  { type: 'keyed-sha1', keyId: 3, key: ascii('sha1-key'), sequence: 0 },
  { type: 'meticulous-keyed-sha1', keyId: 4, key: ascii('sha1-key'), sequence: 123_456_789 },
];
/** One UDP payload per frame, with its destination port. */
const PAYLOADS: { port: number; bytes: Uint8Array }[] = [
  { port: BFD_SINGLE_HOP_PORT, bytes: encodeControlPacket(plain) },
  { port: BFD_MULTI_HOP_PORT, bytes: encodeControlPacket(down) },
  ...KEYS.map((k) => ({ port: BFD_SINGLE_HOP_PORT, bytes: signControlPacket(plain, k) })),
];

function le32(v: number): number[] {
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
}

/** One Ethernet/IPv4/UDP frame from 198.18.0.1:49152 to 198.18.0.2:`port` (UDP checksum zero: none). */
function frame(port: number, payload: Uint8Array): number[] {
  const eth = [2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00];
  const total = 28 + payload.length;
  const ipv4 = [
    0x45,
    0,
    total >> 8,
    total & 0xff,
    0,
    0,
    0x40,
    0,
    255,
    17,
    0,
    0,
    198,
    18,
    0,
    1,
    198,
    18,
    0,
    2,
  ];
  let sum = 0;
  for (let i = 0; i < 20; i += 2) sum += (ipv4[i]! << 8) | ipv4[i + 1]!;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  ipv4[10] = (~sum >> 8) & 0xff;
  ipv4[11] = ~sum & 0xff;
  const udpLength = 8 + payload.length;
  const udp = [0xc0, 0x00, port >> 8, port & 0xff, udpLength >> 8, udpLength & 0xff, 0, 0];
  return [...eth, ...ipv4, ...udp, ...payload];
}

/** A classic pcap (microsecond, link type 1 Ethernet), one payload per frame. */
function pcap(): Uint8Array {
  const out = [
    0xd4,
    0xc3,
    0xb2,
    0xa1,
    2,
    0,
    4,
    0,
    ...new Array<number>(8).fill(0),
    ...le32(0xffff),
    ...le32(1),
  ];
  PAYLOADS.forEach(({ port, bytes }, i) => {
    const f = frame(port, bytes);
    out.push(...le32(i + 1), ...le32(0), ...le32(f.length), ...le32(f.length), ...f);
  });
  return Uint8Array.from(out);
}

const FIELDS = [
  'bfd.version',
  'bfd.diag',
  'bfd.sta',
  'bfd.flags.p',
  'bfd.flags.f',
  'bfd.flags.c',
  'bfd.flags.a',
  'bfd.flags.d',
  'bfd.flags.m',
  'bfd.detect_time_multiplier',
  'bfd.message_length',
  'bfd.my_discriminator',
  'bfd.your_discriminator',
  'bfd.desired_min_tx_interval',
  'bfd.required_min_rx_interval',
  'bfd.required_min_echo_interval',
  'bfd.auth.type',
  'bfd.auth.len',
  'bfd.auth.key',
  'bfd.auth.password',
  'bfd.auth.seq_num',
  'bfd.checksum',
  'bfd.auth.len.invalid',
  'bfd.auth.no_data',
  '_ws.malformed',
];

/** tshark's view of each frame. */
const frames = tsharkFrames('bfd', pcap, FIELDS);

// tshark's JSON writes these fields in hex: diagnostic and state as 0x03, discriminators and sequence
// numbers as 0x0000000a, the digest as plain hex digits.
const hex = (v: number, digits: number) => `0x${v.toString(16).padStart(digits, '0')}`;
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** tshark shows booleans as 0/1 in JSON field output. */
const bit = (b: boolean) => [b ? '1' : '0'];

describe('tshark decodes our BFD Control packets as we meant them', () => {
  it('sees every packet on both ports, none malformed', () => {
    expect(frames().map((f) => f['bfd.version'])).toEqual(PAYLOADS.map(() => ['1']));
    expect(
      frames().filter(
        (f) => f['_ws.malformed'] ?? f['bfd.auth.len.invalid'] ?? f['bfd.auth.no_data'] ?? undefined,
      ),
    ).toEqual([]);
  });

  it.each([
    ['Up with Poll and C', 0, plain],
    ['Down with Final, multihop', 1, down],
  ])('%s: every mandatory field', (_name, index, p) => {
    const f = frames()[index]!;
    expect(f['bfd.diag']).toEqual([hex(p.diagnostic, 2)]);
    expect(f['bfd.sta']).toEqual([hex(BFD_STATES.indexOf(p.state), 2)]);
    expect([
      f['bfd.flags.p'],
      f['bfd.flags.f'],
      f['bfd.flags.c'],
      f['bfd.flags.a'],
      f['bfd.flags.d'],
    ]).toEqual([bit(p.poll), bit(p.final), bit(p.controlPlaneIndependent), bit(false), bit(p.demand)]);
    expect(f['bfd.flags.m']).toEqual(bit(false));
    expect(f['bfd.detect_time_multiplier']).toEqual([String(p.detectMultiplier)]);
    expect(f['bfd.message_length']).toEqual(['24']);
    expect(f['bfd.my_discriminator']).toEqual([hex(p.myDiscriminator, 8)]);
    expect(f['bfd.your_discriminator']).toEqual([hex(p.yourDiscriminator, 8)]);
    expect(f['bfd.desired_min_tx_interval']).toEqual([String(p.desiredMinTxIntervalUs)]);
    expect(f['bfd.required_min_rx_interval']).toEqual([String(p.requiredMinRxIntervalUs)]);
    expect(f['bfd.required_min_echo_interval']).toEqual([String(p.requiredMinEchoRxIntervalUs)]);
  });

  it.each(KEYS.map((k, i) => [k.type, k, i] as const))('%s: the Authentication Section', (_type, k, i) => {
    const f = frames()[i + 2]!;
    const bytes = PAYLOADS[i + 2]!.bytes;
    expect(f['bfd.flags.a']).toEqual(bit(true));
    // RFC 5880 §4.2-§4.4: Auth Len is the password length + 3, 24 for MD5, 28 for SHA1.
    const authLen = k.type === 'simple-password' ? 3 + k.key.length : k.type.endsWith('md5') ? 24 : 28;
    expect(f['bfd.message_length']).toEqual([String(24 + authLen)]);
    expect(f['bfd.auth.len']).toEqual([String(authLen)]);
    // KEYS lists the types in the order of their Auth Type values, 1 to 5 (§4.1).
    expect(f['bfd.auth.type']).toEqual([String(i + 1)]);
    expect(f['bfd.auth.key']).toEqual([String(k.keyId)]);
    if (k.type === 'simple-password') {
      expect(f['bfd.auth.password']).toEqual([new TextDecoder().decode(k.key)]);
      return;
    }
    expect(f['bfd.auth.seq_num']).toEqual([hex(k.sequence, 8)]);
    expect(f['bfd.checksum']).toEqual([hexOf(bytes.subarray(32))]);
  });
});
