import { BfdPacketError, signControlPacket, type AuthKey } from '../codec.ts';
import { BfdConfigError } from './config-error.ts';

/** What one session is told to do; intervals in milliseconds as users write them (BFDProfile). */
export interface BfdSessionConfig {
  /** Becomes bfd.DesiredMinTxInterval once Up (RFC 5880 §6.8.3 keeps it at least 1 s before). */
  transmitIntervalMs: number;
  /** bfd.RequiredMinRxInterval. */
  receiveIntervalMs: number;
  /** bfd.DetectMult. */
  detectMultiplier: number;
  /** RFC 5880 §6.1: a passive session stays silent until the peer's first packet. */
  passive: boolean;
  /** RFC 5880 §6.7: when set, every packet is signed and every received one must verify. */
  auth?: AuthKey;
  /**
   * The C bit we send (RFC 5880 §4.1). lblab's BFD runs in the speaker process and shares fate with its
   * control plane, so it sends 0; the option exists so the emulator can model routers that set it.
   */
  controlPlaneIndependent?: boolean;
  /**
   * Echo mode (RFC 5880 §6.4): we advertise this interval as Required Min Echo RX (our node's kernel
   * loops the peer's echoes back), and once Up send echoes of our own at no less than it (nor the
   * peer's Required Min Echo RX, §6.8.9). Single-hop only (RFC 5883 §3).
   */
  echo?: { intervalMs: number };
}

export type BfdTimers = Pick<
  BfdSessionConfig,
  'transmitIntervalMs' | 'receiveIntervalMs' | 'detectMultiplier' | 'echo'
>;

/** The longest interval the 32-bit microsecond fields carry (RFC 5880 §4.1). */
const MAX_INTERVAL_MS = Math.floor(0xffffffff / 1000);

/** Throws BfdConfigError unless the timers fit the packet and make sense for failure detection. */
export function checkTimers(t: BfdTimers): void {
  for (const [name, ms] of [
    ['transmit interval', t.transmitIntervalMs],
    ['receive interval', t.receiveIntervalMs],
    ...(t.echo === undefined ? [] : [['echo interval', t.echo.intervalMs] as const]),
  ] as const) {
    // Zero would mean "send me nothing" (RFC 5880 §6.8.18) or is reserved (§4.1 Desired Min TX): neither
    // detects failures, which is all lblab runs BFD for. A zero echo interval means no echo (§6.8.13),
    // which is said by leaving `echo` out.
    if (!Number.isFinite(ms) || ms < 0.001 || ms > MAX_INTERVAL_MS) {
      throw new BfdConfigError(`BFD ${name} ${ms} ms is outside 0.001-${MAX_INTERVAL_MS} ms`);
    }
  }
  // RFC 5880 §6.8.1: bfd.DetectMult "MUST be a nonzero integer"; the field is one octet (§4.1).
  if (!Number.isInteger(t.detectMultiplier) || t.detectMultiplier < 1 || t.detectMultiplier > 255) {
    throw new BfdConfigError(`BFD detect multiplier ${t.detectMultiplier} is not an integer in 1-255`);
  }
}

/** Throws BfdConfigError for a key the codec could not sign with, before any timer depends on it. */
export function checkAuth(auth: AuthKey): void {
  const probe = {
    version: 1,
    diagnostic: 0,
    state: 'down',
    poll: false,
    final: false,
    controlPlaneIndependent: false,
    demand: false,
    multipoint: false,
    detectMultiplier: 1,
    myDiscriminator: 1,
    yourDiscriminator: 0,
    desiredMinTxIntervalUs: 1,
    requiredMinRxIntervalUs: 1,
    requiredMinEchoRxIntervalUs: 0,
  } as const;
  try {
    // The codec owns the key rules (length per type, Key ID an octet); a trial signature applies them.
    signControlPacket(probe, { ...auth, sequence: 0 });
  } catch (e) {
    if (e instanceof BfdPacketError)
      throw new BfdConfigError(`BFD ${auth.type} key: ${e.message}`, { cause: e });
    throw e;
  }
}
