/** RFC 5880 §6.8.3: while not Up, bfd.DesiredMinTxInterval is at least one second. */
export const SLOW_START_US = 1_000_000;

/**
 * idle: no Poll Sequence. polling: our periodic packets carry P until a Final arrives (RFC 5880 §6.5).
 * settling: a Poll ended while another change waited; before polling again we wait for a packet with F
 * clear, so a late Final of the old Poll cannot pass for the new one's (§6.8.3, the third choice).
 */
type PollState = 'idle' | 'polling' | 'settling';

/**
 * A session's own two intervals (RFC 5880 §6.8.3) in microseconds: what is configured, what we advertise
 * (bfd.DesiredMinTxInterval, bfd.RequiredMinRxInterval), what is in force for our sending and for the
 * Detection Time, and the Poll Sequence (§6.5) that moves the one to the other.
 */
export class Intervals {
  /** bfd.DesiredMinTxInterval as advertised; starts at the slow-start floor (§6.8.1, §6.8.3). */
  desiredMinTxUs: number;
  /** bfd.RequiredMinRxInterval as advertised. */
  requiredMinRxUs: number;
  /** The Desired Min TX in force for our sending: §6.8.3 holds an increase until the Final. */
  txUs: number;
  /** The Required Min RX in force for the Detection Time: §6.8.3 holds a decrease until the Final. */
  detectRxUs: number;
  private poll: PollState = 'idle';
  /** A change waits for the Poll Sequence in progress to end. */
  private changePending = false;

  constructor(private wanted: { txUs: number; rxUs: number }) {
    // RFC 5880 §6.8.1: bfd.DesiredMinTxInterval "MUST be initialized to a value of at least one second".
    this.desiredMinTxUs = this.txUs = Math.max(wanted.txUs, SLOW_START_US);
    this.requiredMinRxUs = this.detectRxUs = wanted.rxUs;
  }

  /** Our periodic packets carry P. */
  get polling(): boolean {
    return this.poll === 'polling';
  }

  /** New configured intervals; retime() applies them. */
  configure(wanted: { txUs: number; rxUs: number }): void {
    this.wanted = wanted;
  }

  /**
   * Brings the advertised intervals to what the state and configuration want, starting a Poll Sequence
   * when they change (RFC 5880 §6.8.3: "If either bfd.DesiredMinTxInterval is changed or
   * bfd.RequiredMinRxInterval is changed, a Poll Sequence MUST be initiated").
   */
  retime(up: boolean): void {
    // RFC 5880 §6.8.3: "When bfd.SessionState is not Up, the system MUST set bfd.DesiredMinTxInterval to a
    // value of not less than one second"; once Up, the configured interval (slow start ends by a Poll).
    const tx = up ? this.wanted.txUs : Math.max(this.wanted.txUs, SLOW_START_US);
    const rx = this.wanted.rxUs;
    if (tx === this.desiredMinTxUs && rx === this.requiredMinRxUs) {
      this.changePending = false;
      return;
    }
    // RFC 5880 §6.8.3: several changes needing a Poll "MUST be communicated in a single BFD Control packet"
    // or wait until the last Poll is unambiguously over; while Up we wait (see PollState). When not Up the
    // new values go out at once: the 1 s floor is a MUST, and nothing waits on that Final.
    if (up && this.poll !== 'idle') {
      this.changePending = true;
      return;
    }
    this.desiredMinTxUs = tx;
    this.requiredMinRxUs = rx;
    // RFC 5880 §6.8.3: "If bfd.DesiredMinTxInterval is increased and bfd.SessionState is Up, the actual
    // transmission interval used MUST NOT change until the Poll Sequence ... has terminated." A decrease
    // applies at once: the peer's Detection Time only shrinks once it reads the new value, so sending
    // faster early is safe, while waiting for the Final would let a lost Final time the peer out.
    if (!up || tx < this.txUs) this.txUs = tx;
    // RFC 5880 §6.8.3: "If bfd.RequiredMinRxInterval is reduced and bfd.SessionState is Up, the previous
    // value ... MUST be used when calculating the Detection Time ... until the Poll Sequence ... has
    // terminated." An increase lengthens the Detection Time at once, which is safe.
    if (!up || rx > this.detectRxUs) this.detectRxUs = rx;
    this.poll = 'polling';
    this.changePending = false;
  }

  /** A packet from the peer was accepted; its Final bit may end our Poll Sequence. */
  received(final: boolean, up: boolean): void {
    // RFC 5880 §6.8.6: "If a Poll Sequence is being transmitted by the local system and the Final (F) bit
    // in the received packet is set, the Poll Sequence MUST be terminated."
    if (final && this.poll === 'polling') {
      this.poll = this.changePending ? 'settling' : 'idle';
      this.txUs = this.desiredMinTxUs;
      this.detectRxUs = this.requiredMinRxUs;
    } else if (!final && this.poll === 'settling') {
      this.poll = 'idle';
      this.retime(up);
    }
  }
}
