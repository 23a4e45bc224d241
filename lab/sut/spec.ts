/**
 * A router spec checked and completed once, before any daemon sees it: addresses, prefixes and
 * communities are valid and canonical, timers and families carry their defaults. The config renderers
 * take only this resolved form, so they never have to guess or escape.
 */
import { SutSpecError } from './errors.ts';
import {
  checkAddress,
  checkAsn,
  checkCommunity,
  checkLargeCommunity,
  checkPassword,
  checkPositiveInt,
  checkPrefix,
} from './normalise.ts';
import {
  labTimerDefaults,
  neighborFamilies,
  type AddressFamily,
  type BfdTimers,
  type BgpRouterSpec,
  type Origination,
} from './router.ts';
import { checkRouterName } from './work-dir.ts';

export interface ResolvedNeighbor {
  address: string;
  family: AddressFamily;
  asn: number;
  password?: string;
  passive: boolean;
  port?: number;
  ebgpMultihop?: number;
  holdTimeSec: number;
  keepaliveSec: number;
  connectRetrySec: number;
  gracefulRestart?: boolean;
  bfd?: BfdTimers;
  families: AddressFamily[];
}

export interface ResolvedOrigination {
  prefix: string;
  family: AddressFamily;
  communities: string[];
  largeCommunities: string[];
}

export interface ResolvedSpec {
  name: string;
  asn: number;
  routerId: string;
  neighbors: ResolvedNeighbor[];
  originate: ResolvedOrigination[];
  gracefulRestart?: { restartTimeSec: number };
  ecmp?: number;
}

export function resolveSpec(spec: BgpRouterSpec): ResolvedSpec {
  const routerId = checkAddress(spec.routerId, 'router id');
  if (routerId.includes(':')) throw new SutSpecError(`router id ${routerId} must be an IPv4 address`);
  const seen = new Set<string>();
  const neighbors = spec.neighbors.map((n): ResolvedNeighbor => {
    const address = checkAddress(n.address, 'neighbor address');
    if (seen.has(address)) throw new SutSpecError(`neighbor ${address} is listed twice`);
    seen.add(address);
    const families = [...new Set(neighborFamilies(n))];
    if (families.length === 0) throw new SutSpecError(`neighbor ${address} has no address family`);
    return {
      address,
      family: address.includes(':') ? 'ipv6' : 'ipv4',
      asn: checkAsn(n.asn, `neighbor ${address} AS`),
      ...(n.password !== undefined && { password: checkPassword(n.password) }),
      passive: n.passive ?? false,
      ...(n.port !== undefined && { port: checkPositiveInt(n.port, `neighbor ${address} port`) }),
      ...(n.ebgpMultihop !== undefined && {
        ebgpMultihop: checkPositiveInt(n.ebgpMultihop, `neighbor ${address} ebgp-multihop`, 255),
      }),
      holdTimeSec: checkPositiveInt(n.holdTimeSec ?? labTimerDefaults.holdTimeSec, 'hold time'),
      keepaliveSec: checkPositiveInt(n.keepaliveSec ?? labTimerDefaults.keepaliveSec, 'keepalive'),
      connectRetrySec: checkPositiveInt(
        n.connectRetrySec ?? labTimerDefaults.connectRetrySec,
        'connect retry',
      ),
      ...(n.gracefulRestart !== undefined && { gracefulRestart: n.gracefulRestart }),
      ...(n.bfd && { bfd: checkBfd(n.bfd, address) }),
      families,
    };
  });
  return {
    name: checkRouterName(spec.name),
    asn: checkAsn(spec.asn, 'router AS'),
    routerId,
    neighbors,
    originate: (spec.originate ?? []).map(resolveOrigination),
    ...(spec.gracefulRestart && {
      gracefulRestart: {
        restartTimeSec: checkPositiveInt(spec.gracefulRestart.restartTimeSec, 'restart time', 4095),
      },
    }),
    ...(spec.ecmp !== undefined && { ecmp: checkPositiveInt(spec.ecmp, 'ecmp', 64) }),
  };
}

export function resolveOrigination(o: Origination): ResolvedOrigination {
  const prefix = checkPrefix(o.prefix);
  return {
    prefix,
    family: prefix.includes(':') ? 'ipv6' : 'ipv4',
    communities: (o.communities ?? []).map((c) => checkCommunity(c).join(':')),
    largeCommunities: (o.largeCommunities ?? []).map((c) => checkLargeCommunity(c).join(':')),
  };
}

function checkBfd(b: BfdTimers, address: string): BfdTimers {
  return {
    receiveMs: checkPositiveInt(b.receiveMs, `neighbor ${address} BFD receive interval (ms)`, 60_000),
    transmitMs: checkPositiveInt(b.transmitMs, `neighbor ${address} BFD transmit interval (ms)`, 60_000),
    multiplier: checkPositiveInt(b.multiplier, `neighbor ${address} BFD multiplier`, 255),
  };
}

/** Replaces (or adds) the origination of the same prefix, keeping the list's order otherwise. */
export function withOrigination(
  list: readonly ResolvedOrigination[],
  o: ResolvedOrigination,
): ResolvedOrigination[] {
  const i = list.findIndex((x) => x.prefix === o.prefix);
  return i < 0 ? [...list, o] : list.map((x, j) => (j === i ? o : x));
}
