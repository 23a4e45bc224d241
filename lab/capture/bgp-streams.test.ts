import { describe, expect, it } from 'vitest';
import { CaptureDecoder } from './capture-decoder.ts';
import { pcapFile } from './capture-files.test-support.ts';
import type { CaptureEvent } from './events.ts';
import {
  KEEPALIVE,
  bgpMessage,
  bgpNotification,
  bgpOpen,
  bgpUpdate,
  concat,
  tcp4Frame,
  tcp6Frame,
} from './packets.test-support.ts';

/** One end of a TCP connection that writes frames and keeps its own sequence number. */
class Side {
  seq: number;
  constructor(
    readonly ip: string,
    readonly port: number,
    isn: number,
  ) {
    this.seq = isn;
  }

  /** A segment to `peer` carrying `payload` at the current sequence number, which then advances. */
  send(peer: Side, payload: Uint8Array, flags = 'PA'): Uint8Array {
    const o = { srcPort: this.port, dstPort: peer.port, seq: this.seq, ack: peer.seq, flags, payload };
    const frame = this.ip.includes(':') ? tcp6Frame(this.ip, peer.ip, o) : tcp4Frame(this.ip, peer.ip, o);
    this.seq = (this.seq + payload.length + (flags.includes('S') || flags.includes('F') ? 1 : 0)) >>> 0;
    return frame;
  }

  /** The segment `send` would write at sequence number `seq`, without advancing. */
  at(peer: Side, seq: number, payload: Uint8Array): Uint8Array {
    const o = { srcPort: this.port, dstPort: peer.port, seq, ack: peer.seq, flags: 'PA', payload };
    return tcp4Frame(this.ip, peer.ip, o);
  }
}

function decode(frames: readonly Uint8Array[]): { events: CaptureEvent[]; notes: string[] } {
  const file = pcapFile(frames.map((data, i) => ({ seconds: 1_795_234_353, fraction: i, data })));
  const d = new CaptureDecoder(file, 'bgp.pcap');
  return { events: [...d.events()], notes: d.notes() };
}

/** Opens a session: handshake and both OPENs. */
function established(router: Side, speaker: Side): Uint8Array[] {
  return [
    speaker.send(router, new Uint8Array(0), 'S'),
    router.send(speaker, new Uint8Array(0), 'SA'),
    speaker.send(router, new Uint8Array(0), 'A'),
    speaker.send(router, bgpOpen({ as: 64513, id: '198.18.0.11' })),
    router.send(speaker, bgpOpen({ as: 64512, id: '198.18.0.10' })),
  ];
}

const update = bgpUpdate({
  prefix: '198.18.100.1/32',
  nextHop: '198.18.0.11',
  asPath: [64513],
  communities: [[64513, 100]],
});

const types = (events: CaptureEvent[]) =>
  events.map((e) => (e.details.kind === 'bgp-message' ? e.details.message.type : e.details.kind));

describe('BGP over reassembled TCP', () => {
  it('reports the connection and the OPENs in both directions', () => {
    const router = new Side('198.18.0.10', 179, 5000);
    const speaker = new Side('198.18.0.11', 40000, 0xfffffff0);
    const { events } = decode(established(router, speaker));
    expect(events.map((e) => e.summary)).toEqual([
      'BGP TCP connect (SYN) 198.18.0.11:40000 → 198.18.0.10:179',
      'BGP OPEN 198.18.0.11:40000 → 198.18.0.10:179 as 64513 id 198.18.0.11 hold 90s caps ipv4-unicast,4-octet-as',
      'BGP OPEN 198.18.0.10:179 → 198.18.0.11:40000 as 64512 id 198.18.0.10 hold 90s caps ipv4-unicast,4-octet-as',
    ]);
    expect(events.map((e) => e.frame)).toEqual([1, 4, 5]);
    expect(events.every((e) => e.protocol === 'bgp')).toBe(true);
    expect(events[1]!.details).toMatchObject({
      kind: 'bgp-message',
      message: { type: 'open', myAs: 64513, holdTimeSec: 90 },
    });
  });

  it('decodes a message split over three segments when its last byte arrives', () => {
    const router = new Side('198.18.0.10', 179, 1);
    const speaker = new Side('198.18.0.11', 40000, 2);
    const frames = established(router, speaker);
    frames.push(
      speaker.send(router, update.subarray(0, 10)),
      speaker.send(router, update.subarray(10, 30)),
      speaker.send(router, update.subarray(30)),
    );
    const { events } = decode(frames);
    const last = events.at(-1)!;
    expect(last.summary).toBe(
      'BGP UPDATE 198.18.0.11:40000 → 198.18.0.10:179 announce 198.18.100.1/32 nh 198.18.0.11 as-path 64513 communities 64513:100',
    );
    expect(last.details).toMatchObject({ kind: 'bgp-message', fourOctetAs: true, fourOctetAsKnown: true });
    expect(last.frame).toBe(frames.length);
    expect(last.timeNs).toBe(1_795_234_353_000_000_000n + BigInt(frames.length - 1) * 1000n);
    expect(last.src).toBe('198.18.0.11:40000');
    expect(last.dst).toBe('198.18.0.10:179');
  });

  it('decodes two messages carried by one segment, in order', () => {
    const router = new Side('198.18.0.10', 179, 1);
    const speaker = new Side('198.18.0.11', 40000, 2);
    const frames = established(router, speaker);
    frames.push(speaker.send(router, concat([update, KEEPALIVE])));
    const { events } = decode(frames);
    expect(types(events.slice(-2))).toEqual(['update', 'keepalive']);
    expect(events.slice(-2).map((e) => e.frame)).toEqual([6, 6]);
  });

  it('reorders segments and ignores retransmissions', () => {
    const router = new Side('198.18.0.10', 179, 1);
    const speaker = new Side('198.18.0.11', 40000, 2);
    const frames = established(router, speaker);
    const start = speaker.seq;
    const first = speaker.at(router, start, update.subarray(0, 25));
    const second = speaker.at(router, start + 25, concat([update.subarray(25), KEEPALIVE]));
    // The second half arrives first, then the first half, then the first half again.
    frames.push(second, first, first);
    const { events } = decode(frames);
    expect(types(events.slice(3))).toEqual(['update', 'keepalive']);
    // Both become readable when the first half fills the gap (frame 7).
    expect(events.slice(3).map((e) => e.frame)).toEqual([7, 7]);
  });

  it('turns a malformed message into an event and goes on with the next one', () => {
    const router = new Side('198.18.0.10', 179, 1);
    const speaker = new Side('198.18.0.11', 40000, 2);
    const frames = established(router, speaker);
    frames.push(speaker.send(router, concat([bgpMessage(9, [1, 2]), KEEPALIVE])));
    const { events } = decode(frames);
    const [bad, next] = events.slice(-2);
    expect(bad!.details.kind).toBe('malformed');
    expect(bad!.summary).toBe(
      'BGP message malformed 198.18.0.11:40000 → 198.18.0.10:179: unknown message type 9 (NOTIFICATION 1/3)',
    );
    expect(types([next!])).toEqual(['keepalive']);
  });

  it('stops decoding a direction whose stream loses sync, and says so', () => {
    const router = new Side('198.18.0.10', 179, 1);
    const speaker = new Side('198.18.0.11', 40000, 2);
    const frames = established(router, speaker);
    const garbage = Uint8Array.from(KEEPALIVE);
    garbage[3] = 0;
    frames.push(
      speaker.send(router, garbage),
      speaker.send(router, KEEPALIVE),
      router.send(speaker, KEEPALIVE),
    );
    const { events } = decode(frames);
    expect(events.slice(3).map((e) => e.summary)).toEqual([
      'BGP stream 198.18.0.11:40000 → 198.18.0.10:179 out of sync: the message marker is not all ones; the rest of it is not decoded',
      'BGP KEEPALIVE 198.18.0.10:179 → 198.18.0.11:40000',
    ]);
  });

  it('reports the close and reset of the connection, and a hole the capture left', () => {
    const router = new Side('198.18.0.10', 179, 1);
    const speaker = new Side('198.18.0.11', 40000, 2);
    const frames = established(router, speaker);
    const lost = speaker.seq;
    speaker.seq += KEEPALIVE.length; // this KEEPALIVE was never captured
    frames.push(
      speaker.send(router, KEEPALIVE),
      router.send(speaker, bgpNotification(6, 2)),
      router.send(speaker, new Uint8Array(0), 'FA'),
      speaker.send(router, new Uint8Array(0), 'R'),
    );
    const { events } = decode(frames);
    expect(events.slice(3).map((e) => e.summary)).toEqual([
      'BGP NOTIFICATION 198.18.0.10:179 → 198.18.0.11:40000 cease/administrative-shutdown (6/2)',
      'BGP TCP close (FIN) 198.18.0.10:179 → 198.18.0.11:40000',
      'BGP TCP reset (RST) 198.18.0.11:40000 → 198.18.0.10:179',
      `BGP stream 198.18.0.11:40000 → 198.18.0.10:179: the capture misses bytes at seq ${lost}; ` +
        '19 bytes after the gap were not decoded',
    ]);
  });

  it('decodes AS numbers two octets wide when one OPEN lacks the four-octet capability', () => {
    const router = new Side('198.18.0.10', 179, 1);
    const speaker = new Side('198.18.0.11', 40000, 2);
    const twoOctet = bgpUpdate({
      prefix: '198.18.100.2/32',
      nextHop: '198.18.0.10',
      asPath: [64512, 65000],
      fourOctetAs: false,
    });
    const frames = [
      speaker.send(router, new Uint8Array(0), 'S'),
      router.send(speaker, new Uint8Array(0), 'SA'),
      speaker.send(router, bgpOpen({ as: 64513, id: '198.18.0.11', fourOctetAs: false })),
      router.send(speaker, bgpOpen({ as: 64512, id: '198.18.0.10' })),
      router.send(speaker, twoOctet),
    ];
    const last = decode(frames).events.at(-1)!;
    expect(last.summary).toBe(
      'BGP UPDATE 198.18.0.10:179 → 198.18.0.11:40000 announce 198.18.100.2/32 nh 198.18.0.10 as-path 64512 65000',
    );
    expect(last.details).toMatchObject({ fourOctetAs: false, fourOctetAsKnown: true });
  });

  it('falls back to two-octet AS numbers for a session joined after its OPENs when four do not fit', () => {
    const router = new Side('198.18.0.10', 179, 1);
    const speaker = new Side('198.18.0.11', 40000, 2);
    const twoOctet = bgpUpdate({
      prefix: '198.18.100.2/32',
      nextHop: '198.18.0.10',
      asPath: [64512],
      fourOctetAs: false,
    });
    const [four, two] = decode([router.send(speaker, update), router.send(speaker, twoOctet)]).events;
    expect(four!.details).toMatchObject({ fourOctetAs: true, fourOctetAsKnown: false });
    expect(two!.details).toMatchObject({ fourOctetAs: false, fourOctetAsKnown: false });
    expect(two!.summary).toContain('as-path 64512');
  });

  it('finds the first whole message in a stream the capture joined mid-way', () => {
    const router = new Side('2001:db8::10', 179, 1);
    const speaker = new Side('2001:db8::11', 40000, 2);
    const tail = update.subarray(update.length - 7);
    const { events, notes } = decode([speaker.send(router, concat([tail, KEEPALIVE, update]))]);
    expect(types(events)).toEqual(['keepalive', 'update']);
    expect(events[0]!.src).toBe('[2001:db8::11]:40000');
    expect(notes).toEqual([
      '1 BGP stream direction(s) joined after their start (no SYN seen); 7 bytes before the first whole message were skipped',
    ]);
  });
});
