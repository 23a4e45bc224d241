/**
 * CustomResourceDefinitions for MetalLB's kinds (apiextensions.k8s.io/v1), their schemas generated from
 * lblab's configuration model and status shapes (core/k8s/metallb/kinds.ts).
 */
import type {
  V1CustomResourceConversion,
  V1CustomResourceDefinition,
  V1CustomResourceDefinitionSpec,
  V1CustomResourceDefinitionVersion,
} from '@kubernetes/client-node';
import type { StructuralSchema } from '../../config/openapi.ts';
import { group, metallbKinds, type KindVersion, type MetallbKind } from '../metallb/kinds.ts';
import { names, ports } from './names.ts';
import { conversionPath } from './webhooks.ts';

/** client-node's types, with the schema in Kubernetes' own JSON names (client-node renames some keys). */
type CrdVersion = Omit<V1CustomResourceDefinitionVersion, 'schema'> & {
  schema: { openAPIV3Schema: StructuralSchema };
};
export type CustomResourceDefinition = Omit<V1CustomResourceDefinition, 'spec'> & {
  spec: Omit<V1CustomResourceDefinitionSpec, 'versions'> & { versions: CrdVersion[] };
};

export interface CrdOptions {
  namespace: string;
  /** Whether the controller serves webhooks; without them BGPPeer versions convert by apiVersion alone. */
  webhooks: boolean;
}

export function customResourceDefinitions(options: CrdOptions): CustomResourceDefinition[] {
  return metallbKinds.map((kind) => customResourceDefinition(kind, options));
}

function customResourceDefinition(kind: MetallbKind, options: CrdOptions): CustomResourceDefinition {
  const spec: CustomResourceDefinition['spec'] = {
    group,
    names: {
      kind: kind.kind,
      listKind: `${kind.kind}List`,
      plural: kind.plural,
      singular: kind.kind.toLowerCase(),
    },
    scope: 'Namespaced',
    versions: kind.versions.map((v) => version(kind, v)),
  };
  if (kind.versions.length > 1) spec.conversion = conversion(options);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${kind.plural}.${group}` },
    spec,
  };
}

function version(kind: MetallbKind, v: KindVersion): CrdVersion {
  const properties: Record<string, StructuralSchema> = {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
  };
  if (v.spec !== undefined) properties['spec'] = v.spec.schema.schema;
  properties['status'] = kind.status.schema;
  const schema: StructuralSchema = { type: 'object', description: kind.description, properties };
  if (v.spec?.required === true) schema.required = ['spec'];
  const out: CrdVersion = {
    name: v.name,
    served: true,
    storage: v.storage,
    schema: { openAPIV3Schema: schema },
    subresources: { status: {} },
  };
  if (v.deprecationWarning !== undefined) {
    out.deprecated = true;
    out.deprecationWarning = v.deprecationWarning;
  }
  if (kind.columns.length > 0) out.additionalPrinterColumns = kind.columns.map((c) => ({ ...c }));
  return out;
}

/** Through the controller's /convert (caBundle patched in by the controller), or by apiVersion alone. */
function conversion(options: CrdOptions): V1CustomResourceConversion {
  if (!options.webhooks) return { strategy: 'None' };
  return {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: ['v1'],
      clientConfig: {
        service: {
          name: names.webhookService,
          namespace: options.namespace,
          path: conversionPath,
          port: ports.webhookService,
        },
      },
    },
  };
}
