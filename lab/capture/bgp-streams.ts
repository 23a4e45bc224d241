import { decodeBgpMessage, newBgpFramer, typeName, type BgpFraming } from './bgp-events.ts';
import { endpoint, type CaptureEvent, type EventBase, type EventDetails } from './events.ts';
import type { IpPacket } from './ip-packet.ts';
import { TcpStream } from './tcp-stream.ts';
import type { TcpSegment } from './transport.ts';

export const BGP_PORT = 179; // RFC 4271 §8.2.1

/** True for a segment of a BGP connection: port 179 on either side. */
export function isBgpSegment(tcp: TcpSegment): boolean {
  return tcp.srcPort === BGP_PORT || tcp.dstPort === BGP_PORT;
}

/** One direction of one BGP connection. */
interface Direction {
  readonly src: string;
  readonly dst: string;
  readonly stream: TcpStream;
  framer: BgpFraming;
  /** The framer lost sync (bad marker or length): nothing more is decoded until a new connection. */
  outOfSync: boolean;
  /** For a stream joined mid-way: bytes held while looking for the first message header. */
  seeking: Uint8Array | undefined;
  headerFound: boolean;
  /** Whether this side's OPEN advertised the four-octet AS capability; undefined until it is seen. */
  fourOctetAsCapable: boolean | undefined;
  synSeq: number | undefined;
  finSeen: boolean;
  /** The last segment seen, to date an event about the stream's end. */
  last: EventBase;
}

/**
 * Follows every BGP connection in a capture: reassembles each direction's TCP stream, cuts it into messages
 * and decodes them, deciding the AS number width from the two OPENs as the session itself did.
 */
export class BgpStreams {
  private readonly directions = new Map<string, Direction>();
  /** Connections joined after their start (the capture began mid-session). */
  midstreamJoins = 0;
  /** Bytes skipped in such streams before the first message header. */
  skippedBytes = 0;

  segment(base: EventBase, ip: IpPacket, tcp: TcpSegment): CaptureEvent[] {
    const src = endpoint(ip.src, tcp.srcPort);
    const dst = endpoint(ip.dst, tcp.dstPort);
    const d = this.direction(src, dst, base);
    d.last = base;
    const events: CaptureEvent[] = [];
    const tcpEvent = (kind: 'connect' | 'close' | 'reset', text: string) =>
      events.push(this.event(base, d, `BGP TCP ${text} ${src} → ${dst}`, { kind: 'bgp-tcp', tcp: kind }));

    const { chunks, restarted } = d.stream.push(tcp);
    if (restarted) this.restart(d);
    // A retransmitted SYN repeats the sequence number: one connect event per connection attempt.
    if (tcp.syn && !tcp.hasAck && d.synSeq !== tcp.seq) {
      d.synSeq = tcp.seq;
      tcpEvent('connect', 'connect (SYN)');
    }
    for (const chunk of chunks) events.push(...this.bytes(base, d, chunk));
    if (tcp.fin && !d.finSeen) {
      d.finSeen = true;
      tcpEvent('close', 'close (FIN)');
    }
    if (tcp.rst) tcpEvent('reset', 'reset (RST)');
    return events;
  }

  /** Events for streams that end with a hole: the capture missed segments, so later bytes were not read. */
  finish(): CaptureEvent[] {
    const out: CaptureEvent[] = [];
    for (const d of this.directions.values()) {
      const missing = d.stream.missing;
      if (missing === undefined) continue;
      out.push(
        this.event(
          d.last,
          d,
          `BGP stream ${d.src} → ${d.dst}: the capture misses bytes at seq ${missing.at}; ` +
            `${missing.heldBytes} bytes after the gap were not decoded`,
          { kind: 'bgp-stream-gap', seq: missing.at, heldBytes: missing.heldBytes },
        ),
      );
    }
    return out;
  }

  private direction(src: string, dst: string, base: EventBase): Direction {
    const key = `${src}>${dst}`;
    let d = this.directions.get(key);
    if (d === undefined) {
      d = {
        src,
        dst,
        stream: new TcpStream(),
        framer: newBgpFramer(),
        outOfSync: false,
        seeking: undefined,
        headerFound: false,
        fourOctetAsCapable: undefined,
        synSeq: undefined,
        finSeen: false,
        last: base,
      };
      this.directions.set(key, d);
    }
    return d;
  }

  private restart(d: Direction): void {
    d.framer = newBgpFramer();
    d.outOfSync = false;
    d.seeking = undefined;
    d.headerFound = false;
    d.fourOctetAsCapable = undefined;
    d.finSeen = false;
  }

  private bytes(base: EventBase, d: Direction, chunk: Uint8Array): CaptureEvent[] {
    if (d.outOfSync) return [];
    let data: Uint8Array | undefined = chunk;
    if (d.stream.midstream && !d.headerFound) {
      data = this.seekHeader(d, chunk);
      if (data === undefined) return [];
    }
    let messages: Uint8Array[];
    try {
      messages = d.framer.push(data);
    } catch (e) {
      d.outOfSync = true;
      const why = e instanceof Error ? e.message : String(e);
      const summary = `BGP stream ${d.src} → ${d.dst} out of sync: ${why}; the rest of it is not decoded`;
      return [this.event(base, d, summary, { kind: 'malformed', error: why })];
    }
    return messages.map((m) => this.message(base, d, m));
  }

  /**
   * A stream joined mid-way may start inside a message: skips to the first plausible header (marker of 16
   * ones, a length of 19..4096, a known type). Returns the bytes from there once it is found.
   */
  private seekHeader(d: Direction, chunk: Uint8Array): Uint8Array | undefined {
    if (d.seeking === undefined) {
      this.midstreamJoins++;
      d.seeking = new Uint8Array(0);
    }
    const held = new Uint8Array(d.seeking.length + chunk.length);
    held.set(d.seeking);
    held.set(chunk, d.seeking.length);
    for (let i = 0; i + 19 <= held.length; i++) {
      if (!plausibleHeader(held, i)) continue;
      this.skippedBytes += i;
      d.seeking = undefined;
      d.headerFound = true;
      return held.subarray(i);
    }
    // Keep a tail that may be the start of a header cut by the chunk boundary.
    const keep = Math.min(held.length, 18);
    this.skippedBytes += held.length - keep;
    d.seeking = held.slice(held.length - keep);
    return undefined;
  }

  private message(base: EventBase, d: Direction, bytes: Uint8Array): CaptureEvent {
    const reverse = this.directions.get(`${d.dst}>${d.src}`);
    // RFC 6793 §4: four-octet AS numbers are used only when both speakers advertised the capability.
    const known = d.fourOctetAsCapable !== undefined && reverse?.fourOctetAsCapable !== undefined;
    let fourOctetAs = known ? d.fourOctetAsCapable === true && reverse?.fourOctetAsCapable === true : true;
    let decoded = decodeBgpMessage(bytes, { fourOctetAs });
    // Joined after the OPENs: four-octet AS is what current speakers agree on; two-octet is the fallback
    // when it reads the message cleanly and four-octet does not.
    if (!known && !(decoded.ok && decoded.wellFormed)) {
      const twoOctet = decodeBgpMessage(bytes, { fourOctetAs: false });
      if (twoOctet.ok && twoOctet.wellFormed) {
        decoded = twoOctet;
        fourOctetAs = false;
      }
    }
    if (!decoded.ok) {
      const summary = `BGP ${decoded.typeName} malformed ${d.src} → ${d.dst}: ${decoded.error}`;
      return this.event(base, d, summary, { kind: 'malformed', error: decoded.error });
    }
    const { message } = decoded;
    if (message.type === 'open') d.fourOctetAsCapable = decoded.fourOctetAsCapable === true;
    const text = decoded.text === '' ? '' : ` ${decoded.text}`;
    return this.event(base, d, `BGP ${typeName(message.type)} ${d.src} → ${d.dst}${text}`, {
      kind: 'bgp-message',
      message,
      fourOctetAs,
      fourOctetAsKnown: known,
    });
  }

  private event(base: EventBase, d: Direction, summary: string, details: EventDetails): CaptureEvent {
    return { ...base, protocol: 'bgp', src: d.src, dst: d.dst, summary, details };
  }
}

function plausibleHeader(b: Uint8Array, at: number): boolean {
  for (let i = 0; i < 16; i++) if (b[at + i] !== 0xff) return false;
  const length = (b[at + 16]! << 8) | b[at + 17]!;
  const type = b[at + 18]!;
  // RFC 4271 §4.1: 19..4096 octets; types 1-4, and 5 from RFC 2918.
  return length >= 19 && length <= 4096 && type >= 1 && type <= 5;
}
