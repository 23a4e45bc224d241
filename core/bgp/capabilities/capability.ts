import { checkUint, UINT8_MAX, Writer } from '../messages/bytes.ts';
import { BgpWireError, ErrorCode, OpenErrorSubcode } from '../wire-error.ts';
import {
  CAPABILITY_ENHANCED_ROUTE_REFRESH,
  decodeEnhancedRouteRefresh,
  encodeEnhancedRouteRefresh,
  type EnhancedRouteRefreshCapability,
} from './enhanced-route-refresh.ts';
import {
  CAPABILITY_FOUR_OCTET_AS,
  decodeFourOctetAs,
  encodeFourOctetAs,
  type FourOctetAsCapability,
} from './four-octet-as.ts';
import {
  CAPABILITY_GRACEFUL_RESTART,
  decodeGracefulRestart,
  encodeGracefulRestart,
  type GracefulRestartCapability,
} from './graceful-restart.ts';
import { malformedCapability } from './malformed.ts';
import {
  CAPABILITY_MULTIPROTOCOL,
  decodeMultiprotocol,
  encodeMultiprotocol,
  type MultiprotocolCapability,
} from './multiprotocol.ts';
import {
  CAPABILITY_ROUTE_REFRESH,
  decodeRouteRefreshCapability,
  encodeRouteRefreshCapability,
  type RouteRefreshCapability,
} from './route-refresh.ts';

// RFC 5492 §4: the Capabilities optional parameter holds a list of
//   Capability Code (1) | Capability Length (1) | Capability Value (variable)

/** RFC 5492 §4: a capability we do not know, kept as received (and ignored by the session). */
export interface UnknownCapability {
  code: 'unknown';
  type: number;
  value: Uint8Array;
}

export type Capability =
  | MultiprotocolCapability
  | FourOctetAsCapability
  | RouteRefreshCapability
  | EnhancedRouteRefreshCapability
  | GracefulRestartCapability
  | UnknownCapability;

function decodeOne(type: number, value: Uint8Array): Capability {
  switch (type) {
    case CAPABILITY_MULTIPROTOCOL:
      return decodeMultiprotocol(value);
    case CAPABILITY_ROUTE_REFRESH:
      return decodeRouteRefreshCapability(value);
    case CAPABILITY_GRACEFUL_RESTART:
      return decodeGracefulRestart(value);
    case CAPABILITY_FOUR_OCTET_AS:
      return decodeFourOctetAs(value);
    case CAPABILITY_ENHANCED_ROUTE_REFRESH:
      return decodeEnhancedRouteRefresh(value);
    default:
      // RFC 5492 §4: a capability the receiver does not recognise is ignored, not refused.
      return { code: 'unknown', type, value: value.slice() };
  }
}

/** Decodes the value of one Capabilities optional parameter (RFC 5492 §4). */
export function decodeCapabilities(param: Uint8Array): Capability[] {
  const out: Capability[] = [];
  let at = 0;
  while (at < param.length) {
    if (at + 2 > param.length) {
      throw malformedCapability(param[at]!, new Uint8Array(0), 'the capability header is cut short');
    }
    const type = param[at]!;
    const length = param[at + 1]!;
    if (at + 2 + length > param.length) {
      throw malformedCapability(
        type,
        param.subarray(at + 2),
        `length ${length} runs past the optional parameter (${param.length - at - 2} octets left)`,
      );
    }
    out.push(decodeOne(type, param.subarray(at + 2, at + 2 + length)));
    at += 2 + length;
  }
  return out;
}

function valueOf(c: Capability): { type: number; value: Uint8Array } {
  switch (c.code) {
    case 'multiprotocol':
      return { type: CAPABILITY_MULTIPROTOCOL, value: encodeMultiprotocol(c) };
    case 'route-refresh':
      return { type: CAPABILITY_ROUTE_REFRESH, value: encodeRouteRefreshCapability() };
    case 'graceful-restart':
      return { type: CAPABILITY_GRACEFUL_RESTART, value: encodeGracefulRestart(c) };
    case 'four-octet-as':
      return { type: CAPABILITY_FOUR_OCTET_AS, value: encodeFourOctetAs(c) };
    case 'enhanced-route-refresh':
      return { type: CAPABILITY_ENHANCED_ROUTE_REFRESH, value: encodeEnhancedRouteRefresh() };
    case 'unknown':
      checkUint(c.type, UINT8_MAX, 'capability code');
      return { type: c.type, value: c.value };
  }
}

/** One capability as a code/length/value triple. */
export function encodeCapability(c: Capability): Uint8Array {
  const { type, value } = valueOf(c);
  if (value.length > UINT8_MAX)
    throw new Error(`capability ${type} value of ${value.length} octets exceeds 255`);
  return new Writer().u8(type).u8(value.length).bytes(value).finish();
}

export function encodeCapabilities(cs: readonly Capability[]): Uint8Array {
  const w = new Writer();
  for (const c of cs) w.bytes(encodeCapability(c));
  return w.finish();
}

/**
 * RFC 5492 §5: the NOTIFICATION a speaker sends when the peer lacks capabilities it requires; the
 * data lists those capabilities.
 */
export function unsupportedCapability(required: readonly Capability[], reason: string): BgpWireError {
  return new BgpWireError(
    reason,
    ErrorCode.openMessage,
    OpenErrorSubcode.unsupportedCapability,
    encodeCapabilities(required),
    'session-reset',
  );
}
