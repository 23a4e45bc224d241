/**
 * The Kubernetes envelope of a resource: apiVersion, kind, metadata, and its spec (or, for a Secret,
 * its data). Metadata fields that Kubernetes sets on objects read back from a cluster are accepted so
 * that `kubectl get -o yaml` output loads; lblab reads name, namespace and labels.
 */
import type { IssueSink } from './issues.ts';
import { checkLabels, dnsSubdomainProblem } from './labels.ts';
import type { ResourceMeta, ResourceSource } from './model.ts';
import { ignored, isMapping, object, str, stringMap, type Decoder, type ObjectOf } from './schema.ts';

const metadataDecoder = object({
  name: str,
  namespace: str,
  labels: stringMap,
  annotations: stringMap,
  generateName: ignored,
  uid: ignored,
  resourceVersion: ignored,
  generation: ignored,
  creationTimestamp: ignored,
  deletionTimestamp: ignored,
  deletionGracePeriodSeconds: ignored,
  finalizers: ignored,
  ownerReferences: ignored,
  managedFields: ignored,
  selfLink: ignored,
});

/** One YAML document that names a known kind, ready for its kind's parser. */
export interface DocumentInput {
  source: ResourceSource;
  value: Record<string, unknown>;
  log: IssueSink;
  /** The namespace MetalLB runs in; its resources (and peers' password Secrets) must live there. */
  namespace: string;
}

/**
 * Decodes the whole document strictly with `fields` (the kind's top-level fields besides apiVersion,
 * kind, metadata and status) and builds the resource's metadata. Returns undefined when the metadata
 * is unusable; errors in `fields` are logged and their values left out. Annotations are returned beside
 * the metadata, for the kinds that take lblab's own settings from them (MetalLB's CRDs have no field for
 * those, and unknown spec fields would be pruned or refused by MetalLB).
 */
export function readEnvelope<S extends Record<string, Decoder<unknown>>>(
  input: DocumentInput,
  fields: S,
  required: readonly (keyof S & string)[] = [],
): { meta: ResourceMeta; annotations: Record<string, string>; fields: ObjectOf<S> } | undefined {
  const { log } = input;
  const shape: Record<string, Decoder<unknown>> = {
    apiVersion: str,
    kind: str,
    metadata: ignored,
    status: ignored,
    ...fields,
  };
  const decoded = object(shape, ['metadata', ...required])(input.value, '', log);
  const rawMetadata = input.value['metadata'];
  if (decoded === undefined || rawMetadata === undefined || rawMetadata === null) return undefined;
  const metadata = metadataDecoder(rawMetadata, 'metadata', log);
  if (metadata === undefined) return undefined;
  const { name, namespace = input.namespace, labels = {}, annotations = {} } = metadata;
  if (name === undefined) {
    if (isMapping(rawMetadata) && rawMetadata['name'] == null)
      log.error('metadata.name', 'required field is missing');
    return undefined;
  }
  const nameProblem = dnsSubdomainProblem(name);
  if (nameProblem !== undefined) log.error('metadata.name', `name ${JSON.stringify(name)} ${nameProblem}`);
  if (namespace !== input.namespace) {
    log.error(
      'metadata.namespace',
      `resource must be in namespace ${JSON.stringify(input.namespace)}, where MetalLB reads its configuration, not ${JSON.stringify(namespace)}`,
    );
  }
  checkLabels(labels, 'metadata.labels', log);
  return {
    meta: { name, namespace, labels, source: input.source },
    annotations,
    fields: decoded as ObjectOf<S>,
  };
}
