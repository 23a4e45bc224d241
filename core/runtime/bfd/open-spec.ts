import { AddressParseError, IpAddress } from '../../net/index.ts';
import { BfdOptionError } from './errors.ts';

/** What UdpBfdNetwork.open takes: BfdNetwork's spec plus an optional per-session minimum TTL. */
export interface UdpBfdOpenSpec {
  /** The address the session's packets come from; must be one of this host's. */
  localAddress: string;
  peerAddress: string;
  multihop: boolean;
  /**
   * Multihop only: the lowest TTL / hop limit accepted from this peer to this local address (MetalLB's
   * BFDProfile `minimumTtl`); the network's default when absent.
   */
  minimumTtl?: number;
}

export interface OpenPlan {
  local: IpAddress;
  peer: IpAddress;
  multihop: boolean;
  minimumTtl: number | undefined;
}

/** RFC 5881 §5: single-hop sessions accept only 255, so their minimum is not configurable. */
export const SINGLE_HOP_TTL = 255;

/** Checks a spec; throws BfdOptionError naming the field that is wrong. */
export function checkOpenSpec(spec: UdpBfdOpenSpec): OpenPlan {
  const local = address('localAddress', spec.localAddress);
  const peer = address('peerAddress', spec.peerAddress);
  if (local.family !== peer.family) {
    throw new BfdOptionError(
      'peerAddress',
      `${peer.toString()} is IPv${peer.family} but localAddress ${local.toString()} is IPv${local.family}`,
    );
  }
  // The session's packets must leave from its own address (RFC 5881 §4 pins its source port, the
  // engine demultiplexes on the address pair): the unspecified address would leave the choice to the
  // kernel's routing, which may change under a running session.
  if (local.value === 0n) {
    throw new BfdOptionError('localAddress', 'the unspecified address cannot be a session address');
  }
  if (spec.minimumTtl !== undefined && !spec.multihop) {
    throw new BfdOptionError(
      'minimumTtl',
      `single-hop sessions accept only TTL ${SINGLE_HOP_TTL} (RFC 5881 §5); minimumTtl is for multihop ones`,
    );
  }
  return {
    local,
    peer,
    multihop: spec.multihop,
    minimumTtl: spec.minimumTtl === undefined ? undefined : checkMinimumTtl('minimumTtl', spec.minimumTtl),
  };
}

export function checkMinimumTtl(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 255) {
    throw new BfdOptionError(field, `${value} is not a TTL (an integer from 1 to 255)`);
  }
  return value;
}

function address(field: string, text: string): IpAddress {
  let parsed: IpAddress;
  try {
    parsed = IpAddress.parse(text);
  } catch (e) {
    if (!(e instanceof AddressParseError)) throw e;
    throw new BfdOptionError(field, e.message, { cause: e });
  }
  // fe80::/10 is only meaningful with an interface, which this network is not told.
  if (parsed.family === 6 && parsed.value >> 118n === 0x3fan) {
    throw new BfdOptionError(field, `${text} is link-local; BFD here needs global addresses`);
  }
  return parsed;
}
