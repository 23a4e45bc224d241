import { checkUint, UINT16_MAX, UINT8_MAX } from '../messages/bytes.ts';
import { malformedCapability } from './malformed.ts';

// RFC 4724 §3 Graceful Restart capability, code 64:
//   Restart Flags (4 bits: R, N, 2 reserved) | Restart Time in seconds (12 bits)
//   then per address family: AFI (2) | SAFI (1) | Flags for Address Family (1, high bit F)
// The N bit is RFC 8538 §2 (graceful restart after a NOTIFICATION).

export const CAPABILITY_GRACEFUL_RESTART = 64;

const RESTART_STATE = 0x8000;
const GRACEFUL_NOTIFICATION = 0x4000;
const RESTART_TIME_MASK = 0x0fff;
const FORWARDING_STATE = 0x80;
export const MAX_RESTART_TIME_SEC = RESTART_TIME_MASK;

export interface GracefulRestartFamily {
  afi: number;
  safi: number;
  /** F bit: forwarding state for the family was preserved across the restart. */
  forwardingPreserved: boolean;
}

export interface GracefulRestartCapability {
  code: 'graceful-restart';
  /** R bit: the sender has restarted (RFC 4724 §3). */
  restarting: boolean;
  /** N bit: the sender supports graceful restart after a NOTIFICATION (RFC 8538 §2). */
  notification: boolean;
  restartTimeSec: number;
  families: GracefulRestartFamily[];
}

export function decodeGracefulRestart(value: Uint8Array): GracefulRestartCapability {
  // RFC 4724 §3: two octets of flags and time, then four octets per family.
  if (value.length < 2 || (value.length - 2) % 4 !== 0) {
    throw malformedCapability(
      CAPABILITY_GRACEFUL_RESTART,
      value,
      `length ${value.length} is not 2 plus a multiple of 4`,
    );
  }
  const head = (value[0]! << 8) | value[1]!;
  const families: GracefulRestartFamily[] = [];
  for (let at = 2; at < value.length; at += 4) {
    families.push({
      afi: (value[at]! << 8) | value[at + 1]!,
      safi: value[at + 2]!,
      forwardingPreserved: (value[at + 3]! & FORWARDING_STATE) !== 0,
    });
  }
  // RFC 4724 §3: the reserved bits are ignored on receipt.
  return {
    code: 'graceful-restart',
    restarting: (head & RESTART_STATE) !== 0,
    notification: (head & GRACEFUL_NOTIFICATION) !== 0,
    restartTimeSec: head & RESTART_TIME_MASK,
    families,
  };
}

export function encodeGracefulRestart(c: GracefulRestartCapability): Uint8Array {
  checkUint(c.restartTimeSec, MAX_RESTART_TIME_SEC, 'graceful restart time');
  const out = new Uint8Array(2 + 4 * c.families.length);
  const head =
    (c.restarting ? RESTART_STATE : 0) | (c.notification ? GRACEFUL_NOTIFICATION : 0) | c.restartTimeSec;
  out[0] = head >>> 8;
  out[1] = head & 0xff;
  c.families.forEach((f, i) => {
    checkUint(f.afi, UINT16_MAX, 'graceful restart AFI');
    checkUint(f.safi, UINT8_MAX, 'graceful restart SAFI');
    const at = 2 + 4 * i;
    out[at] = f.afi >>> 8;
    out[at + 1] = f.afi & 0xff;
    out[at + 2] = f.safi;
    // RFC 4724 §3: the other flag bits are reserved and sent as zero.
    out[at + 3] = f.forwardingPreserved ? FORWARDING_STATE : 0;
  });
  return out;
}
