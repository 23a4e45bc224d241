/**
 * metallb.io/v1beta2 BGPPeer, and the deprecated v1beta1 BGPPeer that MetalLB still serves (it converts
 * to v1beta2; it lacks dynamicASN, passwordSecret, connectTime, vrf and the later flags).
 */
import { AddressParseError, IpAddress } from '../net/index.ts';
import { checkTimers } from './bgp-timers.ts';
import { duration } from './durations.ts';
import type { IssueSink } from './issues.ts';
import { labelSelectorList } from './labels.ts';
import { readEnvelope, type DocumentInput } from './metadata.ts';
import type { BGPPeer } from './model.ts';
import type { ParsedOf } from './parsed.ts';
import {
  ipPattern,
  ipv4Pattern,
  ipv6Pattern,
  optionalIpPattern,
  optionalIpv4Pattern,
  optionalIpv6Pattern,
  singleLinePattern,
} from './patterns.ts';
import { bool, checkedLater, int, object, str, unsupported, type Decoder } from './schema.ts';

// The rules stated with checkedLater are what parseBGPPeer and checkAsns check after decoding.
const asn = int(0, 4294967295);
/** An AS number that must be set: 0 means "not set", which only peerASN may be (for dynamicASN). */
const setAsn = checkedLater(asn, { minimum: 1 });
const singleLine = checkedLater(str, { pattern: singleLinePattern });

const v1beta1Fields = {
  myASN: setAsn,
  peerASN: asn,
  peerAddress: checkedLater(str, { pattern: ipPattern }),
  sourceAddress: checkedLater(str, { pattern: optionalIpPattern }),
  // The CRD caps the port at 16384; 0 would mean "no port" and is refused.
  peerPort: int(1, 16384),
  holdTime: duration,
  keepaliveTime: duration,
  routerID: checkedLater(str, { pattern: optionalIpv4Pattern }),
  nodeSelectors: labelSelectorList,
  password: singleLine,
  bfdProfile: str,
  ebgpMultiHop: bool,
};

/** The spec fields both BGPPeer versions have; the rest are v1beta2's alone (the conversion webhook keeps them). */
export const bgpPeerV1beta1SpecFields: readonly string[] = Object.keys(v1beta1Fields);

const v1beta2Fields = {
  ...v1beta1Fields,
  dynamicASN: checkedLater(str, { enum: ['internal', 'external'] }),
  interface: unsupported('unnumbered BGP peering over an interface; set peerAddress instead'),
  connectTime: duration,
  passwordSecret: object({ name: str, namespace: str }, ['name']),
  enableGracefulRestart: bool,
  vrf: singleLine,
  disableMP: bool,
  dualStackAddressFamily: bool,
};

const sameFamily = {
  anyOf: [
    {
      properties: { peerAddress: { pattern: ipv4Pattern }, sourceAddress: { pattern: optionalIpv4Pattern } },
    },
    {
      properties: { peerAddress: { pattern: ipv6Pattern }, sourceAddress: { pattern: optionalIpv6Pattern } },
    },
  ],
};

/** The source address, when set, is of the peer's family; the peer's address is required. */
const addressRules = { ...sameFamily, required: ['peerAddress'] };

export const bgpPeerSpecs = {
  'metallb.io/v1beta1': checkedLater(
    object({ ...v1beta1Fields, peerASN: setAsn }, ['myASN', 'peerASN']),
    addressRules,
  ),
  'metallb.io/v1beta2': checkedLater(object(v1beta2Fields, ['myASN']), {
    ...addressRules,
    // One of peerASN (0 counts as unset) and dynamicASN, not both.
    oneOf: [{ required: ['peerASN'], properties: { peerASN: { minimum: 1 } } }, { required: ['dynamicASN'] }],
    // Not a password and a passwordSecret both (an empty password counts as unset).
    not: { required: ['password', 'passwordSecret'], properties: { password: { minLength: 1 } } },
  }),
};

export function parseBGPPeer(
  input: DocumentInput,
  apiVersion: keyof typeof bgpPeerSpecs,
): ParsedOf<'BGPPeer'> | undefined {
  const { log } = input;
  const before = log.errorCount();
  if (apiVersion === 'metallb.io/v1beta1') {
    log.warn('apiVersion', 'metallb.io/v1beta1 BGPPeer is deprecated, please use metallb.io/v1beta2');
  }
  const spec: Decoder<Spec> = bgpPeerSpecs[apiVersion];
  const doc = readEnvelope(input, { spec }, ['spec']);
  if (doc === undefined || doc.fields.spec === undefined || log.errorCount() !== before) return undefined;
  const s = doc.fields.spec;
  // From here on, problems reject the configuration, but a peer with an address still takes part in the
  // checks across resources (references, duplicates), so that one run reports them all.

  // Checked here rather than by the decoder, so that a peer without an address still has its ASNs and
  // timers checked in the same run. (A peer with `interface` never gets here: that field is refused.)
  if (s.peerAddress === undefined) log.error('spec.peerAddress', 'required field is missing');
  else if (s.peerAddress === '')
    log.error('spec.peerAddress', 'is empty; it must be the IP address of the peer');
  const peerAddress = address(s.peerAddress, 'spec.peerAddress', log);
  const sourceAddress = address(s.sourceAddress, 'spec.sourceAddress', log);
  if (
    peerAddress !== undefined &&
    sourceAddress !== undefined &&
    peerAddress.family !== sourceAddress.family
  ) {
    log.error(
      'spec.sourceAddress',
      `source ${sourceAddress} cannot reach the IPv${peerAddress.family} peer ${peerAddress}`,
    );
  }
  const routerID = address(s.routerID, 'spec.routerID', log);
  if (routerID !== undefined && routerID.family !== 4) {
    log.error(
      'spec.routerID',
      `router ID ${routerID} must be an IPv4 address: the BGP identifier is 32 bits (RFC 6286)`,
    );
  }
  const peerASN = s.peerASN === 0 ? undefined : s.peerASN;
  const dynamicASN = checkAsns(s.myASN, peerASN, s.dynamicASN, s.ebgpMultiHop ?? false, log);
  for (const field of ['password', 'vrf'] as const) {
    // MetalLB refuses line breaks here: they would inject lines into the routing daemon's configuration.
    if (/[\r\n]/.test(s[field] ?? '')) log.error(`spec.${field}`, 'must not contain line breaks');
  }
  const bothPasswords = s.password !== undefined && s.password !== '' && s.passwordSecret !== undefined;
  if (bothPasswords)
    log.error('spec.passwordSecret', 'password and passwordSecret are mutually exclusive: set one of them');
  const timers = checkTimers(s, log);
  if (s.myASN === undefined || peerAddress === undefined) return undefined;

  const peer: BGPPeer = {
    meta: doc.meta,
    myASN: s.myASN,
    peerAddress,
    peerPort: s.peerPort ?? 179,
    ...timers,
    nodeSelectors: s.nodeSelectors ?? [],
    enableGracefulRestart: s.enableGracefulRestart ?? false,
    ebgpMultiHop: s.ebgpMultiHop ?? false,
    disableMP: s.disableMP ?? false,
    dualStackAddressFamily: s.dualStackAddressFamily ?? false,
  };
  if (peerASN !== undefined) peer.peerASN = peerASN;
  if (dynamicASN !== undefined) peer.dynamicASN = dynamicASN;
  if (sourceAddress !== undefined) peer.sourceAddress = sourceAddress;
  if (routerID !== undefined) peer.routerID = routerID;
  if (s.password !== undefined && s.password !== '') peer.password = s.password;
  if (s.passwordSecret?.name !== undefined && !bothPasswords) {
    peer.passwordSecret = {
      name: s.passwordSecret.name,
      namespace: s.passwordSecret.namespace ?? doc.meta.namespace,
    };
  }
  if (s.bfdProfile !== undefined && s.bfdProfile !== '') peer.bfdProfile = s.bfdProfile;
  if (s.vrf !== undefined && s.vrf !== '') peer.vrf = s.vrf;
  return { kind: 'BGPPeer', value: peer };
}

/** The decoded spec of either version (v1beta1 simply leaves the newer fields out). */
interface Spec {
  myASN?: number;
  peerASN?: number;
  dynamicASN?: string;
  peerAddress?: string;
  sourceAddress?: string;
  peerPort?: number;
  holdTime?: bigint;
  keepaliveTime?: bigint;
  connectTime?: bigint;
  routerID?: string;
  nodeSelectors?: BGPPeer['nodeSelectors'];
  password?: string;
  passwordSecret?: { name?: string; namespace?: string };
  bfdProfile?: string;
  enableGracefulRestart?: boolean;
  ebgpMultiHop?: boolean;
  vrf?: string;
  disableMP?: boolean;
  dualStackAddressFamily?: boolean;
}

/** MetalLB's peerFromCR ASN rules; returns the dynamicASN mode when it is valid. */
function checkAsns(
  myASN: number | undefined,
  peerASN: number | undefined,
  dynamicASN: string | undefined,
  ebgpMultiHop: boolean,
  log: IssueSink,
): 'internal' | 'external' | undefined {
  if (myASN === 0) log.error('spec.myASN', 'the local AS number is missing: myASN must be 1..4294967295');
  if (peerASN === undefined && dynamicASN === undefined) {
    log.error('spec.peerASN', 'set either peerASN or dynamicASN (internal or external)');
  }
  if (peerASN !== undefined && dynamicASN !== undefined) {
    log.error('spec.dynamicASN', 'peerASN and dynamicASN are mutually exclusive: set one of them');
  }
  const mode = dynamicASN === 'internal' || dynamicASN === 'external' ? dynamicASN : undefined;
  if (dynamicASN !== undefined && mode === undefined) {
    log.error('spec.dynamicASN', `dynamicASN ${JSON.stringify(dynamicASN)} is not one of internal, external`);
  }
  const ibgp = (peerASN !== undefined && peerASN === myASN) || mode === 'internal';
  if (ebgpMultiHop && ibgp) {
    log.error('spec.ebgpMultiHop', 'ebgpMultiHop is for eBGP peers, and this peer is iBGP (its AS is myASN)');
  }
  return mode;
}

function address(text: string | undefined, path: string, log: IssueSink): IpAddress | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    return IpAddress.parse(text);
  } catch (err) {
    if (!(err instanceof AddressParseError)) throw err;
    log.error(path, `${JSON.stringify(text)} is not an IP address: ${err.reason}`);
    return undefined;
  }
}
