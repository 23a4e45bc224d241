import type { ResourceContext } from '../issues.ts';
import type { ResourceMeta } from '../model.ts';

/**
 * `IPAddressPool "p" in pools.yaml document 2`: how one resource's message points at another. Objects
 * from the cluster are all in MetalLB's namespace, so their kind and name say which one it is.
 */
export function where(kind: string, meta: ResourceMeta): string {
  const name = `${kind} ${JSON.stringify(meta.name)}`;
  return meta.source.object ? name : `${name} in ${meta.source.file} document ${meta.source.document}`;
}

/** The issue context of a parsed resource. */
export function contextOf(kind: string, meta: ResourceMeta): ResourceContext {
  return { ...meta.source, kind, name: meta.name };
}
