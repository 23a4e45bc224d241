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
  type BfdAuthentication,
  type BfdOptions,
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
  localAddress?: string;
  holdTimeSec: number;
  keepaliveSec: number;
  connectRetrySec: number;
  gracefulRestart?: boolean;
  bfd?: BfdOptions;
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
  gracefulRestart?: { restartTimeSec: number; preserveForwardingState?: boolean };
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
      ...(n.localAddress !== undefined && {
        localAddress: checkLocalAddress(n.localAddress, address),
      }),
      holdTimeSec: checkPositiveInt(n.holdTimeSec ?? labTimerDefaults.holdTimeSec, 'hold time'),
      keepaliveSec: checkPositiveInt(n.keepaliveSec ?? labTimerDefaults.keepaliveSec, 'keepalive'),
      connectRetrySec: checkPositiveInt(
        n.connectRetrySec ?? labTimerDefaults.connectRetrySec,
        'connect retry',
      ),
      ...(n.gracefulRestart !== undefined && { gracefulRestart: n.gracefulRestart }),
      ...(n.bfd && { bfd: checkBfd(n.bfd, address, isMultihop(n, spec.asn)) }),
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
        ...(spec.gracefulRestart.preserveForwardingState && { preserveForwardingState: true }),
      },
    }),
    ...(spec.ecmp !== undefined && { ecmp: checkPositiveInt(spec.ecmp, 'ecmp', 64) }),
  };
}

/**
 * Whether the session (and its BFD session) is multihop: an eBGP neighbor with ebgp-multihop. Both FRR
 * (PEER_IS_MULTIHOP) and BIRD (with `direct` rendered for iBGP) agree on this for neighbors on the
 * lab's shared segments.
 */
export function isMultihop(n: { asn: number; ebgpMultihop?: number }, routerAsn: number): boolean {
  return n.ebgpMultihop !== undefined && n.asn !== routerAsn;
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

function checkLocalAddress(text: string, neighbor: string): string {
  const a = checkAddress(text, `neighbor ${neighbor} local address`);
  if (a.includes(':') !== neighbor.includes(':'))
    throw new SutSpecError(`neighbor ${neighbor}: local address ${a} is of the other address family`);
  return a;
}

/** RFC 5880 §4.2-§4.4: the longest key each authentication type carries. */
const bfdKeyLength: Record<BfdAuthentication['type'], number> = {
  simple: 16,
  'keyed-md5': 16,
  'meticulous-keyed-md5': 16,
  'keyed-sha1': 20,
  'meticulous-keyed-sha1': 20,
};

function checkBfdAuthentication(a: BfdAuthentication, address: string): BfdAuthentication {
  const what = `neighbor ${address} BFD authentication`;
  const longest = bfdKeyLength[a.type];
  if (longest === undefined) throw new SutSpecError(`${what}: unknown type ${JSON.stringify(a.type)}`);
  const password = checkPassword(a.password);
  if (password.length > longest)
    throw new SutSpecError(`${what}: a ${a.type} key has at most ${longest} characters (RFC 5880 §4)`);
  const keyId = a.keyId ?? 1;
  // The Auth Key ID is one octet (RFC 5880 §4.1).
  if (!Number.isInteger(keyId) || keyId < 0 || keyId > 255)
    throw new SutSpecError(`${what}: key id ${keyId} must be an integer from 0 to 255`);
  return { type: a.type, password, keyId };
}

function checkBfd(b: BfdOptions, address: string, multihop: boolean): BfdOptions {
  const what = `neighbor ${address} BFD`;
  if (b.minimumTtl !== undefined && !multihop)
    throw new SutSpecError(
      `${what}: minimum TTL applies to multihop sessions only (RFC 5881 §5 fixes single hop at 255)`,
    );
  if (b.echo && multihop)
    throw new SutSpecError(`${what}: the echo function is for single-hop sessions only (RFC 5883 §3)`);
  return {
    receiveMs: checkPositiveInt(b.receiveMs, `${what} receive interval (ms)`, 60_000),
    transmitMs: checkPositiveInt(b.transmitMs, `${what} transmit interval (ms)`, 60_000),
    multiplier: checkPositiveInt(b.multiplier, `${what} multiplier`, 255),
    ...(b.passive !== undefined && { passive: b.passive }),
    ...(b.minimumTtl !== undefined && {
      minimumTtl: checkPositiveInt(b.minimumTtl, `${what} minimum TTL`, 254),
    }),
    ...(b.echo && {
      echo: {
        transmitMs: checkPositiveInt(b.echo.transmitMs, `${what} echo transmit interval (ms)`, 60_000),
        receiveMs: checkPositiveInt(b.echo.receiveMs, `${what} echo receive interval (ms)`, 60_000),
      },
    }),
    ...(b.checkControlPlaneFailure !== undefined && {
      checkControlPlaneFailure: b.checkControlPlaneFailure,
    }),
    ...(b.authentication && { authentication: checkBfdAuthentication(b.authentication, address) }),
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
