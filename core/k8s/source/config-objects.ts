/**
 * What the config source hands the configuration loader: MetalLB's six configuration kinds as listed
 * (apiVersion and kind set, since a list need not carry them), and of the namespace's Secrets only those
 * the configuration names, reduced to what the loader reads. Everything else in a Secret (TLS keys,
 * the membership key, binary data) never reaches the loader, so it cannot break it.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { authSecretAnnotation } from '../../config/bfd-auth-annotations.ts';
import { compareText } from '../../sort/compare-text.ts';
import { configurationKinds, group, storageVersion } from '../metallb/kinds.ts';

export interface ConfigKind {
  kind: string;
  plural: string;
  /** The version read: v1beta2 for BGPPeer (stored), v1beta1 for the rest. */
  version: 'v1beta1' | 'v1beta2';
}

export const configKinds: readonly ConfigKind[] = configurationKinds.map((k) => ({
  kind: k.kind,
  plural: k.plural,
  version: storageVersion(k),
}));

export interface ListedObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; annotations?: Record<string, string> };
  spec?: unknown;
}

/** The object as the API returns it, with its apiVersion and kind. */
export function withType(k: ConfigKind, o: ListedObject): ListedObject {
  return { ...o, apiVersion: `${group}/${k.version}`, kind: k.kind };
}

/** Names of the Secrets the configuration reads: BGPPeers' passwordSecret, BFDProfiles' auth Secret. */
export function referencedSecrets(objects: readonly ListedObject[]): Set<string> {
  const names = new Set<string>();
  for (const o of objects) {
    if (o.kind === 'BGPPeer') {
      const ref = (o.spec as { passwordSecret?: { name?: unknown } } | undefined)?.passwordSecret?.name;
      if (typeof ref === 'string' && ref !== '') names.add(ref);
    }
    if (o.kind === 'BFDProfile') {
      const ref = o.metadata?.annotations?.[authSecretAnnotation];
      if (typeof ref === 'string' && ref !== '') names.add(ref);
    }
  }
  return names;
}

/** A Secret as parseSecret reads it: its type and, if present, its password (still base64). */
export function loaderSecret(s: V1Secret): unknown {
  const password = s.data?.['password'];
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: s.metadata?.name, namespace: s.metadata?.namespace },
    type: s.type ?? 'Opaque',
    ...(password === undefined ? {} : { data: { password } }),
  };
}

/** Kind order, then name: issues come out in the same order on every pass. */
export function byKindAndName(a: ListedObject, b: ListedObject): number {
  const rank = (o: ListedObject) => configKinds.findIndex((k) => k.kind === o.kind);
  return rank(a) - rank(b) || compareText(a.metadata?.name ?? '', b.metadata?.name ?? '');
}
