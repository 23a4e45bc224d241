import type { ResourceContext } from '../issues.ts';
import type { ResourceMeta } from '../model.ts';

/** `IPAddressPool "p" in pools.yaml document 2`: how one resource's message points at another. */
export function where(kind: string, meta: ResourceMeta): string {
  return `${kind} ${JSON.stringify(meta.name)} in ${meta.source.file} document ${meta.source.document}`;
}

/** The issue context of a parsed resource. */
export function contextOf(kind: string, meta: ResourceMeta): ResourceContext {
  return { ...meta.source, kind, name: meta.name };
}
