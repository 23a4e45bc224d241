/**
 * MetalLB side by side (`lblab run --peer metallb` on kind): a pinned MetalLB release installed in its
 * own cluster from its published manifest, configured from the topology's same MetalLB resources, with
 * the same Services and echo pods. MetalLB's images come from quay.io; where that registry cannot be
 * reached the peer cannot run, and says so.
 */
import { parseAllDocuments } from 'yaml';
import type { ConfigFile } from '../../../../core/config/index.ts';
import { LblabError } from '../../../../core/errors/lblab-error.ts';
import type { Topology } from '../../../model/topology.ts';
import { deployPlan, type DeployPlan, type KubeObject } from './deploy-plan.ts';

/** The release compared against: the newest v0.15 (KUBERNETES.md compares lblab with v0.15.3). */
export const METALLB_VERSION = 'v0.15.3';
export const METALLB_NAMESPACE = 'metallb-system';
export const METALLB_REGISTRY = 'quay.io';

/**
 * MetalLB's two published installs: native (its own BGP, no BFD, no graceful restart) and FRR (BGP by
 * an FRR container beside each speaker, with BFD and graceful restart).
 */
export type MetallbMode = 'native' | 'frr';

export function metallbManifestUrl(mode: MetallbMode): string {
  return `https://raw.githubusercontent.com/metallb/metallb/${METALLB_VERSION}/config/manifests/metallb-${mode}.yaml`;
}

export function metallbImages(): string[] {
  return ['controller', 'speaker'].map((c) => `${METALLB_REGISTRY}/metallb/${c}:${METALLB_VERSION}`);
}

/**
 * Which install the resources need. MetalLB's native mode refuses what only its FRR mode implements
 * (KUBERNETES.md, "Validating webhooks"): BFD profiles and a peer's BFD or graceful restart.
 */
export function metallbMode(resources: readonly KubeObject[]): { mode: MetallbMode; because: string[] } {
  const because = resources.flatMap((r) => {
    const spec = (r['spec'] ?? {}) as { bfdProfile?: string; enableGracefulRestart?: boolean };
    const name = `${r.kind} ${r.metadata.name}`;
    if (r.kind === 'BFDProfile') return [`${name} (BFD)`];
    if (r.kind !== 'BGPPeer') return [];
    return [
      ...(spec.bfdProfile !== undefined ? [`${name}: spec.bfdProfile`] : []),
      ...(spec.enableGracefulRestart === true ? [`${name}: spec.enableGracefulRestart`] : []),
    ];
  });
  return { mode: because.length > 0 ? 'frr' : 'native', because };
}

export class MetallbManifestError extends LblabError {
  readonly code = 'METALLB_MANIFEST';
}

/**
 * The peer's plan: MetalLB's manifest (its text, as fetched from `metallbManifestUrl`) in place of
 * lblab's bundle, and the same MetalLB resources, Services and echo pods as lblab's plan.
 */
export function metallbInstallPlan(
  topology: Topology,
  configFiles: readonly ConfigFile[],
  manifest: { url: string; text: string },
  o: { echoImage: string },
): DeployPlan {
  const lab = deployPlan(topology, configFiles, { image: o.echoImage, namespace: METALLB_NAMESPACE });
  const objects = parseAllDocuments(manifest.text)
    .map((d): unknown => d.toJS())
    .filter((v): v is KubeObject => typeof v === 'object' && v !== null);
  const isCrd = (x: KubeObject) => x.kind === 'CustomResourceDefinition';
  const has = (kind: string, name: string) =>
    objects.some(
      (x) => x.kind === kind && x.metadata.name === name && x.metadata.namespace === METALLB_NAMESPACE,
    );
  if (!has('Deployment', 'controller') || !has('DaemonSet', 'speaker'))
    throw new MetallbManifestError(
      `${manifest.url} has no Deployment ${METALLB_NAMESPACE}/controller or DaemonSet ${METALLB_NAMESPACE}/speaker: not MetalLB's manifest`,
    );
  return { ...lab, crds: objects.filter(isCrd), install: objects.filter((x) => !isCrd(x)) };
}

/**
 * Whether MetalLB's images can be pulled from here: `true`, or why not. `LBLAB_REGISTRY=offline` says
 * so without asking; otherwise one bounded HTTPS request to the registry's API root (a registry answers
 * it, 200 or 401, when it is reachable).
 */
export async function metallbRegistryReachable(
  o: { env?: NodeJS.ProcessEnv; url?: string; timeoutMs?: number } = {},
): Promise<true | string> {
  const env = o.env ?? process.env;
  const url = o.url ?? `https://${METALLB_REGISTRY}/v2/`;
  const images = metallbImages().join(', ');
  if (env['LBLAB_REGISTRY'] === 'offline')
    return `MetalLB ${METALLB_VERSION}'s images (${images}) come from ${METALLB_REGISTRY}, and LBLAB_REGISTRY=offline says no registry is reachable`;
  const timeoutMs = o.timeoutMs ?? 3000;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    if (response.status === 200 || response.status === 401) return true;
    return `MetalLB ${METALLB_VERSION}'s images (${images}) come from ${METALLB_REGISTRY}, whose registry API (${url}) answered HTTP ${response.status}`;
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    return `MetalLB ${METALLB_VERSION}'s images (${images}) come from ${METALLB_REGISTRY}, which is unreachable from here (${url}: ${cause} within ${timeoutMs} ms)`;
  }
}
