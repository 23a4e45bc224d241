/**
 * BGPPeer between metallb.io/v1beta1 (served, deprecated) and v1beta2 (stored). The fields both versions
 * have are the same JSON in both (v1beta1's NodeSelector is shaped like a LabelSelector), so they pass
 * through untouched. v1beta1 lacks the newer fields (dynamicASN, passwordSecret, connectTime,
 * enableGracefulRestart, vrf, ...): MetalLB drops them on the way down, so a client that reads a peer as
 * v1beta1 and writes it back erases them. lblab keeps them in an annotation of the v1beta1 object and
 * restores them on the way up, as the Kubernetes guide to CRD versioning recommends; the API server lets
 * a conversion change annotations.
 */
import { bgpPeerV1beta1SpecFields } from '../../config/bgp-peer.ts';
import { isMapping } from '../../config/schema.ts';
import { LblabError } from '../../errors/lblab-error.ts';

export const bgpPeerVersions = ['metallb.io/v1beta1', 'metallb.io/v1beta2'] as const;
export type BgpPeerVersion = (typeof bgpPeerVersions)[number];

/** On a v1beta1 BGPPeer: the v1beta2 spec fields it cannot hold, as JSON. */
export const v1beta2FieldsAnnotation = 'conversion.lblab.io/v1beta2-spec';

/** An object the conversion webhook cannot convert. */
export class ConversionError extends LblabError {
  readonly code = 'WEBHOOK_CONVERSION';
}

type Obj = Record<string, unknown>;

export function isBgpPeerVersion(v: unknown): v is BgpPeerVersion {
  return bgpPeerVersions.includes(v as BgpPeerVersion);
}

export function convertBgpPeer(object: unknown, desired: BgpPeerVersion): Obj {
  if (!isMapping(object) || object['kind'] !== 'BGPPeer' || !isBgpPeerVersion(object['apiVersion'])) {
    const what = isMapping(object)
      ? `${String(object['apiVersion'])} ${String(object['kind'])}`
      : 'a non-object';
    throw new ConversionError(`cannot convert ${what}: only ${bgpPeerVersions.join(' and ')} BGPPeers`);
  }
  if (object['apiVersion'] === desired) return object;
  const metadata = isMapping(object['metadata']) ? object['metadata'] : {};
  const spec = isMapping(object['spec']) ? object['spec'] : undefined;
  const converted =
    desired === 'metallb.io/v1beta1' ? down(metadata, spec) : up(metadata, spec, nameOf(metadata));
  return { ...object, apiVersion: desired, ...converted };
}

/** v1beta2 → v1beta1: the fields v1beta1 lacks move into the annotation. */
function down(metadata: Obj, spec: Obj | undefined): { metadata: Obj; spec?: Obj } {
  if (spec === undefined) return { metadata };
  const kept = Object.entries(spec).filter(([field]) => !bgpPeerV1beta1SpecFields.includes(field));
  if (kept.length === 0) return { metadata, spec };
  const annotations = isMapping(metadata['annotations']) ? metadata['annotations'] : {};
  return {
    metadata: {
      ...metadata,
      annotations: { ...annotations, [v1beta2FieldsAnnotation]: JSON.stringify(Object.fromEntries(kept)) },
    },
    spec: Object.fromEntries(
      Object.entries(spec).filter(([field]) => bgpPeerV1beta1SpecFields.includes(field)),
    ),
  };
}

/** v1beta1 → v1beta2: the annotation's fields come back; the annotation itself is not stored. */
function up(metadata: Obj, spec: Obj | undefined, name: string): { metadata: Obj; spec?: Obj } {
  const annotations = isMapping(metadata['annotations']) ? metadata['annotations'] : undefined;
  const text = annotations?.[v1beta2FieldsAnnotation];
  if (annotations === undefined || text === undefined)
    return spec === undefined ? { metadata } : { metadata, spec };
  const { [v1beta2FieldsAnnotation]: _, ...rest } = annotations;
  const restMetadata =
    Object.keys(rest).length > 0
      ? { ...metadata, annotations: rest }
      : Object.fromEntries(Object.entries(metadata).filter(([k]) => k !== 'annotations'));
  const kept = parseKept(text, name);
  // A field of v1beta1 in the annotation would override what the v1beta1 client wrote: only the others.
  const restored = Object.entries(kept).filter(([field]) => !bgpPeerV1beta1SpecFields.includes(field));
  return { metadata: restMetadata, spec: { ...spec, ...Object.fromEntries(restored) } };
}

function parseKept(text: unknown, name: string): Obj {
  let value: unknown;
  try {
    value = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  if (!isMapping(value)) {
    throw new ConversionError(
      `BGPPeer ${JSON.stringify(name)}: annotation ${v1beta2FieldsAnnotation} is not a JSON object of v1beta2 spec fields; remove it or restore it`,
    );
  }
  return value;
}

function nameOf(metadata: Obj): string {
  return typeof metadata['name'] === 'string' ? metadata['name'] : '?';
}
