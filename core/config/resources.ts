/**
 * Recognises a document's kind and apiVersion and hands it to that kind's parser. Only the resources
 * MetalLB reads (and Secrets, for BGP passwords and BFD keys) are accepted; anything else is an error,
 * so a typo in a kind cannot silently drop part of a configuration.
 */
import { parseBFDProfile } from './bfd-profile.ts';
import { parseBGPAdvertisement } from './bgp-advertisement.ts';
import { parseBGPPeer } from './bgp-peer.ts';
import { parseCommunityResource } from './community-resource.ts';
import type { RawDocument } from './documents.ts';
import { parseIPAddressPool } from './ip-address-pool.ts';
import type { IssueLog, ResourceContext } from './issues.ts';
import { parseL2Advertisement } from './l2-advertisement.ts';
import type { DocumentInput } from './metadata.ts';
import type { ResourceSource } from './model.ts';
import type { Kind, Parsed } from './parsed.ts';
import { describe, isMapping } from './schema.ts';
import { parseSecret } from './secret.ts';

type Parser = (input: DocumentInput, apiVersion: string) => Parsed | undefined;

const kinds: Record<Kind, { versions: readonly string[]; parse: Parser }> = {
  IPAddressPool: { versions: ['metallb.io/v1beta1'], parse: parseIPAddressPool },
  L2Advertisement: { versions: ['metallb.io/v1beta1'], parse: parseL2Advertisement },
  BGPAdvertisement: { versions: ['metallb.io/v1beta1'], parse: parseBGPAdvertisement },
  BFDProfile: { versions: ['metallb.io/v1beta1'], parse: parseBFDProfile },
  Community: { versions: ['metallb.io/v1beta1'], parse: parseCommunityResource },
  BGPPeer: {
    versions: ['metallb.io/v1beta2', 'metallb.io/v1beta1'],
    parse: (input, apiVersion) =>
      parseBGPPeer(input, apiVersion === 'metallb.io/v1beta1' ? apiVersion : 'metallb.io/v1beta2'),
  },
  Secret: { versions: ['v1'], parse: parseSecret },
};

/** A document of a known kind with a name, whether or not it parsed; references to it are not "unknown". */
export interface Declared {
  kind: Kind;
  name: string;
  ctx: ResourceContext;
  parsed?: Parsed;
}

export function readResource(doc: RawDocument, log: IssueLog, namespace: string): Declared | undefined {
  const source: ResourceSource = doc.object
    ? { file: doc.file, document: doc.document, object: true }
    : { file: doc.file, document: doc.document };
  if (!isMapping(doc.value)) {
    log.error(
      source,
      '',
      `expected a Kubernetes resource (a mapping with apiVersion and kind), got ${describe(doc.value)}`,
    );
    return undefined;
  }
  const { apiVersion, kind, metadata } = doc.value;
  const name = isMapping(metadata) && typeof metadata['name'] === 'string' ? metadata['name'] : undefined;
  if (typeof kind !== 'string') {
    log.error(
      source,
      'kind',
      kind === undefined ? 'required field is missing' : `expected a string, got ${describe(kind)}`,
    );
    return undefined;
  }
  const known = Object.hasOwn(kinds, kind) ? kinds[kind as Kind] : undefined;
  const ctx: ResourceContext = name === undefined ? { ...source, kind } : { ...source, kind, name };
  if (known === undefined) {
    const list = Object.keys(kinds).join(', ');
    log.error(ctx, 'kind', `kind ${JSON.stringify(kind)} is not a resource lblab reads (${list})`);
    return undefined;
  }
  if (typeof apiVersion !== 'string' || !known.versions.includes(apiVersion)) {
    const served = known.versions.join(' or ');
    const got =
      apiVersion === undefined
        ? 'but apiVersion is missing'
        : `not ${typeof apiVersion === 'string' ? JSON.stringify(apiVersion) : describe(apiVersion)}`;
    log.error(ctx, 'apiVersion', `${kind} is served as ${served}, ${got}`);
    return undefined;
  }
  const parsed = known.parse({ source, value: doc.value, log: log.at(ctx), namespace }, apiVersion);
  if (name === undefined) return undefined;
  const declared: Declared = { kind: kind as Kind, name, ctx };
  if (parsed !== undefined) declared.parsed = parsed;
  return declared;
}
