import type { BgpConnection } from '../../core/bgp/session/transport.ts';
import type { IpAddress } from '../../core/net/index.ts';
import type { Clock, Timer } from '../../core/runtime/clock.ts';
import type { Addr } from './addresses.ts';
import { ByteQueue } from './byte-queue.ts';
import type { Gate } from './gate.ts';
import { ACK, FIN, PSH, RST, SYN, type TcpSegment } from './tcp-segment.ts';

/** What a connection needs from its host's TCP: the wire, and forgetting it (its table entry goes). */
export interface TcpWire {
  readonly clock: Clock;
  transmit(conn: SimStream, flags: number, seq: number, ack: number, payload: Uint8Array): void;
  forget(conn: SimStream): void;
}

export interface StreamEnds {
  readonly local: Addr;
  readonly localPort: number;
  readonly remote: Addr;
  readonly remotePort: number;
  /** TTL / hop limit of our packets. Put on the wire; the receiver does not check it (no GTSM, RFC 5082). */
  readonly ttl: number;
  /** Our initial sequence number. */
  readonly iss: number;
}

// Linux's figures (include/net/tcp.h, Documentation/networking/ip-sysctl.rst).
/** TCP_TIMEOUT_INIT: the SYN's (and SYN-ACK's) first retransmission timeout, doubling (RFC 6298 §2.1). */
const RTO_INIT_MS = 1000;
/** TCP_TIMEOUT_FALLBACK: RFC 6298 §5.7, the RTO once established when the handshake gave no RTT sample. */
const RTO_FALLBACK_MS = 3000;
/** TCP_RTO_MIN: Linux keeps the variance term at least this, so RTO ≈ RTT + 200 ms on a LAN. */
const RTO_MIN_MS = 200;
/** TCP_RTO_MAX. */
const RTO_MAX_MS = 120_000;
/** net.ipv4.tcp_retries2: retransmissions of data before the connection is given up ("timed out"). */
const RETRIES2 = 15;
/** net.ipv4.tcp_syn_retries and tcp_synack_retries. */
const SYN_RETRIES = 6;
const SYNACK_RETRIES = 5;
/** net.ipv4.tcp_fin_timeout: how long a closed socket waits in FIN-WAIT-2 for the peer's FIN. */
const FIN_TIMEOUT_MS = 60_000;
/** 1500-byte MTU less the IP and TCP headers. */
const MSS = { 4: 1460, 6: 1440 } as const;
/** RFC 6928's initial window (Linux's TCP_INIT_CWND), in segments. */
const INITIAL_WINDOW_SEGMENTS = 10;
/** The most in flight: the 64 KiB window every segment offers (no window scaling). */
const MAX_IN_FLIGHT = 0xffff;

type Phase = 'syn-sent' | 'syn-received' | 'established' | 'gone';

/**
 * One end of an emulated TCP connection, as the BGP session sees it (BgpConnection). The kernel part
 * (handshake, acknowledgment, retransmission, buffering) runs on the network's clock whatever the owning
 * process does; only handing data, the accept and close notifications to the process goes through its
 * gate, so a frozen process gets them on resume and a killed one never.
 *
 * Modelled as Linux does it: the handshake (SYN retransmitted after 1, 2, 4 … s; SYN-ACK likewise),
 * cumulative ACKs sent at once for every segment (Linux's quick-ack mode; delayed ACKs are not modelled),
 * out-of-order segments kept and acknowledged with duplicate ACKs, fast retransmit on the third duplicate,
 * RTO = SRTT + max(4·RTTVAR, 200 ms) (RFC 6298 with Linux's floor) doubling to 120 s, go-back-N after a
 * timeout (Linux marks everything outstanding lost), tcp_retries2 = 15 retransmissions then "timed out".
 * Not modelled: options (MSS, SACK, timestamps, window scale), flow control (the receiver's buffer never
 * fills, even for a frozen process), congestion avoidance beyond slow start from 10 segments, TIME-WAIT,
 * keepalives, simultaneous open, Nagle.
 */
export class SimStream implements BgpConnection {
  readonly localAddress: IpAddress;
  readonly remoteAddress: IpAddress;
  private phase: Phase;
  /** The peer's initial sequence number; sequence numbers below are relative: the SYN is 0, data from 1. */
  private irs = 0;
  private sndUna = 0;
  private sndNxt = 0;
  private sndMax = 0;
  private readonly out = new ByteQueue(1);
  private written = 0;
  private finQueued = false;
  private finAcked = false;
  private cwnd: number;
  private rto = RTO_INIT_MS;
  private srtt: number | undefined;
  private rttvar = 0;
  private timing: { end: number; atMs: number } | undefined;
  private retries = 0;
  private dupAcks = 0;
  private timer: Timer | undefined;
  private rcvNxt = 0;
  private readonly outOfOrder = new Map<number, { data: Uint8Array; fin: boolean }>();
  private peerFin = false;
  /** Received in order, not yet handed to the process (the socket's receive queue). */
  private inbox: Uint8Array[] = [];
  /** Why the kernel ended the connection, told to the process after what it has not read yet. */
  private ended: string | undefined;
  /** close() was called (or the peer's FIN made the runtime end it): the socket is an orphan. */
  private closed = false;
  private notified: string | undefined;
  private drainQueued = false;
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();

  constructor(
    readonly ends: StreamEnds,
    private readonly wire: TcpWire,
    private readonly gate: Gate,
    private readonly events: {
      /** The handshake completed (client: SYN-ACK received; server: its SYN-ACK acknowledged). */
      established(): void;
      /** The handshake failed: `refused` on RST, otherwise it timed out (client only). */
      failed(refused: boolean): void;
    },
    /** Set for the server end: the peer's SYN. */
    syn?: TcpSegment,
  ) {
    this.localAddress = ends.local.ip;
    this.remoteAddress = ends.remote.ip;
    this.cwnd = INITIAL_WINDOW_SEGMENTS * MSS[ends.local.family];
    this.sndNxt = this.sndMax = 1;
    this.phase = syn === undefined ? 'syn-sent' : 'syn-received';
    if (syn !== undefined) {
      this.irs = syn.seq;
      this.rcvNxt = 1;
    }
  }

  /** @internal Sends the SYN (client) or SYN-ACK (server), once the host's table holds the connection. */
  start(): void {
    this.sendSyn(this.phase === 'syn-sent' ? SYN : SYN | ACK, 0);
  }

  send(bytes: Uint8Array): void {
    // A frozen or dead process sends nothing (as its UDP sockets); a closed socket takes no more data.
    if (this.closed || this.notified !== undefined || this.phase === 'gone' || !this.gate.canSend) return;
    if (bytes.length === 0) return;
    this.out.push(bytes.slice());
    this.written += bytes.length;
    this.pump();
  }

  /**
   * close(2): the process is told at once ("closed by us"); the kernel sends what is queued, then the FIN,
   * and keeps retransmitting them. Unread received data makes it a reset instead (tcp_close, RFC 2525 §2.17).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.gate.disown(this);
    if (this.notified === undefined) this.notify('closed by us');
    if (this.phase === 'gone') return;
    if (this.phase !== 'established') return this.drop();
    if (this.inbox.length > 0) return this.reset();
    this.finQueued = true;
    this.pump();
  }

  /**
   * SIGKILL: the kernel closes the socket as close(2) would (FIN after the queued data, or RST over unread
   * data), but sends that once and forgets the connection: a packet that cannot leave now (link down,
   * neighbour unresolved) is never retransmitted, and a later segment for it is answered with RST.
   * Linux would keep the orphan retransmitting (tcp_orphan_retries); the lab's crash is a cut wire first.
   */
  abort(): void {
    this.notified ??= 'killed';
    this.closed = true;
    if (this.phase === 'established') {
      if (this.inbox.length > 0) return this.reset();
      this.finQueued = true;
      this.pump(true);
    }
    this.drop();
  }

  onData(fn: (chunk: Uint8Array) => void): void {
    this.dataListeners.add(fn);
    if (this.inbox.length > 0 || this.ended !== undefined || this.peerFin) this.scheduleDrain(true);
  }

  onClose(fn: (reason: string) => void): void {
    if (this.notified !== undefined && this.notified !== 'killed') fn(this.notified);
    else this.closeListeners.add(fn);
  }

  /** @internal A segment for this connection. */
  input(seg: TcpSegment): void {
    if (this.phase === 'gone') return;
    if (this.phase === 'syn-sent') return this.inputSynSent(seg);
    if (this.phase === 'syn-received') {
      if ((seg.flags & RST) !== 0) return this.drop();
      // The peer did not hear our SYN-ACK.
      if ((seg.flags & SYN) !== 0) return this.sendSyn(SYN | ACK, 0);
      if ((seg.flags & ACK) === 0) return;
      if (this.ackRel(seg) !== 1) return this.wire.transmit(this, RST, seg.ack, 0, EMPTY);
      this.establish();
      this.events.established();
      // The listener may have gone meanwhile, and the connection with it.
      if ((this.phase as Phase) !== 'established') return;
    }
    // RFC 9293 §3.10.7.4 (first check, with RFC 5961 §3 left out): a reset ends the connection.
    if ((seg.flags & RST) !== 0) return this.fail('connection reset');
    // RFC 5961 §4.2: a SYN on a synchronized connection gets a challenge ACK (a restarted peer then
    // answers it with RST, which ends this connection).
    if ((seg.flags & SYN) !== 0) return this.sendAck();
    // RFC 9293 §3.10.7.4 fifth check: no ACK bit, drop.
    if ((seg.flags & ACK) === 0) return;
    if (!this.inputAck(seg)) return;
    this.inputData(seg);
  }

  private inputSynSent(seg: TcpSegment): void {
    const hasAck = (seg.flags & ACK) !== 0;
    // RFC 9293 §3.10.7.3: an ACK of anything but our SYN is answered with RST (unless it is one).
    if (hasAck && this.ackRel(seg) !== 1) {
      if ((seg.flags & RST) === 0) this.wire.transmit(this, RST, seg.ack, 0, EMPTY);
      return;
    }
    if ((seg.flags & RST) !== 0) {
      if (!hasAck) return;
      this.drop();
      return this.events.failed(true);
    }
    // A SYN without ACK would be a simultaneous open, which is not modelled.
    if ((seg.flags & SYN) === 0 || !hasAck) return;
    this.irs = seg.seq;
    this.rcvNxt = 1;
    this.establish();
    this.sendAck();
    this.events.established();
  }

  private establish(): void {
    this.cancelTimer();
    this.phase = 'established';
    this.sndUna = 1;
    if (this.timing !== undefined) this.sample(this.wire.clock.now() - this.timing.atMs);
    else this.rto = RTO_FALLBACK_MS;
    this.timing = undefined;
    this.retries = 0;
  }

  /** Returns false when the segment ended the connection or must go no further. */
  private inputAck(seg: TcpSegment): boolean {
    const ack = this.ackRel(seg);
    // RFC 9293 §3.10.7.4: an ACK for something not yet sent is answered with an ACK and dropped.
    if (ack > this.sndMax) {
      this.sendAck();
      return false;
    }
    const dataEnd = 1 + this.written;
    if (ack > this.sndUna) {
      const acked = ack - this.sndUna;
      this.out.dropTo(Math.min(ack, dataEnd));
      this.sndUna = ack;
      if (this.sndNxt < ack) this.sndNxt = ack;
      if (this.timing !== undefined && ack >= this.timing.end) {
        this.sample(this.wire.clock.now() - this.timing.atMs);
        this.timing = undefined;
      }
      this.retries = 0;
      this.dupAcks = 0;
      this.cwnd = Math.min(this.cwnd + acked, MAX_IN_FLIGHT);
      this.cancelTimer();
      if (this.finQueued && ack === dataEnd + 1) this.finAcked = true;
      this.pump();
      if (this.finAcked && this.closed) {
        if (this.peerFin) this.drop();
        else this.timer ??= this.wire.clock.setTimer('tcp:fin-wait-2', FIN_TIMEOUT_MS, () => this.drop());
      }
    } else if (
      ack === this.sndUna &&
      this.sndMax > this.sndUna &&
      seg.payload.length === 0 &&
      (seg.flags & FIN) === 0 &&
      ++this.dupAcks === 3
    ) {
      // RFC 5681 §3.2: the third duplicate ACK resends the first unacknowledged segment at once.
      this.cwnd = Math.max(this.cwnd / 2, 2 * this.mss);
      this.timing = undefined;
      this.sendAt(this.sndUna);
    }
    return this.phase !== 'gone';
  }

  private inputData(seg: TcpSegment): void {
    let data = seg.payload;
    const fin = (seg.flags & FIN) !== 0;
    if (data.length === 0 && !fin) return;
    // Everything up to the peer's FIN is here: a retransmission, our ACK was lost.
    if (this.peerFin) return this.sendAck();
    const seq = (seg.seq - this.irs) >>> 0;
    const end = seq + data.length;
    // Linux (tcp_rcv_state_process, TCPAbortOnData): new data for a socket the process closed is
    // answered with RST.
    if (this.closed && data.length > 0 && end > this.rcvNxt) return this.reset();
    if (seq > this.rcvNxt) {
      // Out of order (an earlier segment was lost): kept, and a duplicate ACK asks for the gap.
      if (seq - this.rcvNxt < MAX_IN_FLIGHT * 4) {
        const held = this.outOfOrder.get(seq);
        if (held === undefined || held.data.length < data.length) this.outOfOrder.set(seq, { data, fin });
      }
      return this.sendAck();
    }
    if (seq < this.rcvNxt) {
      const skip = this.rcvNxt - seq;
      if (skip > data.length || (skip === data.length && !fin)) return this.sendAck();
      data = data.subarray(skip);
    }
    this.accept(data, fin);
    this.pullOutOfOrder();
    this.sendAck();
    this.scheduleDrain(false);
    if (this.peerFin && this.finAcked) this.drop();
  }

  private accept(data: Uint8Array, fin: boolean): void {
    if (data.length > 0) {
      this.inbox.push(data);
      this.rcvNxt += data.length;
    }
    if (fin) {
      this.peerFin = true;
      this.rcvNxt += 1;
      this.outOfOrder.clear();
    }
  }

  private pullOutOfOrder(): void {
    for (let moved = true; moved && !this.peerFin;) {
      moved = false;
      for (const [seq, held] of this.outOfOrder) {
        if (seq > this.rcvNxt) continue;
        this.outOfOrder.delete(seq);
        const skip = this.rcvNxt - seq;
        if (skip < held.data.length || (skip === held.data.length && held.fin))
          this.accept(held.data.subarray(skip), held.fin);
        moved = true;
        break;
      }
    }
  }

  /** Sends what the window allows, then the FIN once the data is out. `all`: everything, once (a kill). */
  private pump(all = false): void {
    if (this.phase !== 'established') return;
    const dataEnd = 1 + this.written;
    const limit = this.sndUna + this.cwnd;
    while (this.sndNxt < dataEnd) {
      const n = Math.min(this.mss, dataEnd - this.sndNxt);
      if (!all && this.sndNxt + n > limit && this.sndNxt > this.sndUna) break;
      this.sendAt(this.sndNxt);
      this.sndNxt += n;
    }
    if (this.finQueued && this.sndNxt === dataEnd) {
      this.sendAt(dataEnd);
      this.sndNxt = dataEnd + 1;
    }
    if (this.sndNxt > this.sndMax) this.sndMax = this.sndNxt;
    if (!all && this.sndMax > this.sndUna && this.timer === undefined) this.armRto();
  }

  /** The segment starting at `seq`: up to one MSS of data, or the FIN. */
  private sendAt(seq: number): void {
    const dataEnd = 1 + this.written;
    if (seq >= dataEnd) return this.transmit(FIN | ACK, seq, EMPTY);
    const end = Math.min(seq + this.mss, dataEnd);
    // RTT is timed on new data only (Karn's algorithm, RFC 6298 §3).
    if (this.timing === undefined && seq >= this.sndMax) this.timing = { end, atMs: this.wire.clock.now() };
    this.transmit(PSH | ACK, seq, this.out.slice(seq, end));
  }

  private armRto(): void {
    this.timer = this.wire.clock.setTimer('tcp:rto', this.rto, () => {
      this.timer = undefined;
      if (this.sndMax <= this.sndUna || this.phase !== 'established') return;
      if (this.retries >= RETRIES2) return this.fail('timed out');
      this.retries++;
      this.rto = Math.min(this.rto * 2, RTO_MAX_MS);
      this.timing = undefined;
      this.cwnd = this.mss;
      this.dupAcks = 0;
      // Linux marks everything outstanding lost after a timeout and sends it again from the first hole.
      this.sndNxt = this.sndUna;
      this.pump();
    });
  }

  /** SYN (client) or SYN-ACK (server), retransmitted at 1, 2, 4 … s until the handshake completes. */
  private sendSyn(flags: number, attempt: number): void {
    if (attempt === 0) this.timing = { end: 1, atMs: this.wire.clock.now() };
    else this.timing = undefined;
    this.transmit(flags, 0, EMPTY);
    this.cancelTimer();
    const retries = flags === SYN ? SYN_RETRIES : SYNACK_RETRIES;
    this.timer = this.wire.clock.setTimer('tcp:syn', RTO_INIT_MS * 2 ** attempt, () => {
      this.timer = undefined;
      if (attempt < retries) return this.sendSyn(flags, attempt + 1);
      this.drop();
      if (flags === SYN) this.events.failed(false);
    });
  }

  /** RFC 6298 §2.2–2.3, with Linux's floor on the variance term (RTO_MIN_MS). */
  private sample(rttMs: number): void {
    if (this.srtt === undefined) {
      this.srtt = rttMs;
      this.rttvar = rttMs / 2;
    } else {
      this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - rttMs);
      this.srtt = 0.875 * this.srtt + 0.125 * rttMs;
    }
    this.rto = Math.min(this.srtt + Math.max(4 * this.rttvar, RTO_MIN_MS), RTO_MAX_MS);
  }

  private sendAck(): void {
    this.transmit(ACK, this.sndNxt, EMPTY);
  }

  private transmit(flags: number, seq: number, payload: Uint8Array): void {
    const ack = (flags & ACK) !== 0 ? this.irs + this.rcvNxt : 0;
    this.wire.transmit(this, flags, this.ends.iss + seq, ack, payload);
  }

  /** Ends the connection with a RST to the peer. */
  private reset(): void {
    this.transmit(RST | ACK, this.sndNxt, EMPTY);
    this.drop();
  }

  /** The kernel gives the connection up; the process hears `reason` after what it has not read. */
  private fail(reason: string): void {
    this.drop();
    this.ended = reason;
    this.scheduleDrain(false);
  }

  /** Forgets the connection: timers stop, the table entry goes, later segments are answered with RST. */
  private drop(): void {
    if (this.phase === 'gone') return;
    this.phase = 'gone';
    this.cancelTimer();
    this.outOfOrder.clear();
    this.wire.forget(this);
  }

  private cancelTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Hands the receive queue, then an end, to the process through its gate (later if it is frozen). */
  private scheduleDrain(later: boolean): void {
    if (this.drainQueued || this.notified !== undefined) return;
    this.drainQueued = true;
    const run = () => this.gate.admit(this, () => this.drain());
    if (later) this.wire.clock.setTimer('tcp:deliver', 0, run);
    else run();
  }

  private drain(): void {
    this.drainQueued = false;
    if (this.notified !== undefined) return;
    if (this.inbox.length > 0) {
      // Wait for the process to listen: the data stays in the receive queue.
      if (this.dataListeners.size === 0) return;
      const chunks = this.inbox;
      this.inbox = [];
      const all = chunks.length === 1 ? chunks[0]! : concat(chunks);
      for (const fn of this.dataListeners) {
        fn(all);
        if (this.notified !== undefined) return;
      }
    }
    if (this.ended !== undefined) return this.notify(this.ended);
    if (this.peerFin) {
      this.notify('the peer closed the connection');
      // Node's socket is not half-open (allowHalfOpen false) and core/runtime/bgp-socket.ts ends it on
      // 'end' anyway: our FIN follows the peer's.
      this.close();
    }
  }

  private notify(reason: string): void {
    this.notified = reason;
    this.inbox = [];
    this.gate.disown(this);
    for (const fn of this.closeListeners) fn(reason);
    this.closeListeners.clear();
    this.dataListeners.clear();
  }

  private ackRel(seg: TcpSegment): number {
    return (seg.ack - this.ends.iss) >>> 0;
  }

  private get mss(): number {
    return MSS[this.ends.local.family];
  }
}

const EMPTY = new Uint8Array(0);

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
