import {
  authenticationFailure,
  isMeticulous,
  sequenceInWindow,
  signControlPacket,
  type AuthKey,
  type ControlPacket,
} from '../codec.ts';
import type { Random } from '../../runtime/random.ts';

/**
 * A session's authentication state (RFC 5880 §6.7, the bfd.Auth* variables of §6.8.1) for one key.
 *
 * Sending: bfd.XmitAuthSeq starts at a random 32-bit value (§6.8.1) and goes up by one for every packet
 * we sign, for the keyed types as well as the meticulous ones. The meticulous types require that
 * (§6.7.3, §6.7.4); for the keyed types the RFC only allows it, but it is the simplest rule that moves the
 * number whenever a packet's contents change (so an old Up packet cannot be replayed after we went
 * Down), and the receiver's window of 3 × Detect Mult numbers (§6.7.3) is far wider than the packets a
 * live session sends in one Detection Time.
 */
export class SessionAuth {
  /** bfd.XmitAuthSeq. */
  private xmitSeq: number;
  /** bfd.RcvAuthSeq; undefined while bfd.AuthSeqKnown is 0. */
  private rcvSeq: number | undefined;

  constructor(
    readonly key: AuthKey,
    random: Random,
  ) {
    // RFC 5880 §6.8.1: bfd.XmitAuthSeq "MUST be initialized to a random 32-bit value".
    this.xmitSeq = random.nextUint32();
  }

  sign(packet: ControlPacket): Uint8Array {
    const k = this.key;
    if (k.type === 'simple-password') return signControlPacket(packet, { ...k, type: k.type });
    const bytes = signControlPacket(packet, { ...k, type: k.type, sequence: this.xmitSeq });
    this.xmitSeq = (this.xmitSeq + 1) >>> 0;
    return bytes;
  }

  /**
   * Why a received packet fails authentication, or undefined when it passes; a passing keyed packet
   * moves bfd.RcvAuthSeq. `bytes` are the packet as received, `packet` their decoding.
   */
  check(packet: ControlPacket, bytes: Uint8Array): string | undefined {
    const failure = authenticationFailure(bytes, this.key);
    if (failure !== undefined) return failure;
    const auth = packet.auth;
    if (auth === undefined || auth.type === 'simple-password') return undefined;
    // RFC 5880 §6.7.3, §6.7.4: with bfd.AuthSeqKnown set, a Sequence Number outside the window MUST be
    // discarded. Errata 7083: only a packet whose digest matched may set bfd.AuthSeqKnown and move
    // bfd.RcvAuthSeq, which is why the digest is checked first.
    if (!sequenceInWindow(auth.sequence, this.rcvSeq, packet.detectMultiplier, isMeticulous(auth.type))) {
      const expected = isMeticulous(auth.type) ? 'after' : 'at or after';
      return `Sequence Number ${auth.sequence} is not within 3 × ${packet.detectMultiplier} ${expected} ${this.rcvSeq} (RFC 5880 §6.7.${auth.type.endsWith('md5') ? 3 : 4})`;
    }
    this.rcvSeq = auth.sequence;
    return undefined;
  }

  /**
   * RFC 5880 §6.8.1: bfd.AuthSeqKnown "MUST be set to zero after no packets have been received on this
   * session for at least twice the Detection Time", so a restarted peer's new numbers are accepted.
   */
  forgetReceivedSequence(): void {
    this.rcvSeq = undefined;
  }

  get usesSequence(): boolean {
    return this.key.type !== 'simple-password';
  }
}
