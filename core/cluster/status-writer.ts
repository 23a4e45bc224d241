import { isMap, isSeq, parseAllDocuments, type Document } from 'yaml';
import { serviceAnnotations } from './annotations.ts';
import { serviceKey } from './types.ts';

/** What the controller writes back to one Service. */
export interface ServiceStatusUpdate {
  namespace: string;
  name: string;
  /** The load-balancer addresses, written to status.loadBalancer.ingress (empty clears it). */
  ingress: string[];
  /** The pool they came from, written to the metallb.io/ip-allocated-from-pool annotation. */
  pool?: string;
}

/**
 * Applies status updates to the Services in a multi-document YAML text and returns the new text.
 * Everything else (other documents, comments, key order) is kept as it was.
 */
export function applyServiceStatuses(text: string, updates: readonly ServiceStatusUpdate[]): string {
  const wanted = new Map(updates.map((u) => [`${u.namespace}/${u.name}`, u]));
  const docs = parseAllDocuments(text);
  for (const doc of docs) {
    if ('errors' in doc && doc.errors.length > 0)
      throw new Error(`cannot update a file with YAML errors: ${doc.errors[0]?.message}`);
    const items = isMap(doc.contents) && doc.get('kind') === 'List' ? doc.get('items') : undefined;
    if (isSeq(items)) {
      items.items.forEach((_, i) => update(doc as Document, ['items', i], wanted));
    } else {
      update(doc as Document, [], wanted);
    }
  }
  return docs.map((d) => d.toString()).join('');
}

function update(doc: Document, at: (string | number)[], wanted: Map<string, ServiceStatusUpdate>): void {
  const get = (path: (string | number)[]) => doc.getIn([...at, ...path]);
  if (get(['apiVersion']) !== 'v1' || get(['kind']) !== 'Service') return;
  const key = serviceKey({
    metadata: {
      name: String(get(['metadata', 'name'])),
      namespace: get(['metadata', 'namespace']) as string | undefined,
    },
  });
  const u = wanted.get(key);
  if (!u) return;
  if (u.ingress.length === 0) {
    doc.deleteIn([...at, 'status', 'loadBalancer']);
  } else {
    doc.setIn([...at, 'status', 'loadBalancer', 'ingress'], doc.createNode(u.ingress.map((ip) => ({ ip }))));
  }
  if (u.pool === undefined)
    doc.deleteIn([...at, 'metadata', 'annotations', serviceAnnotations.ipAllocatedFromPool]);
  else doc.setIn([...at, 'metadata', 'annotations', serviceAnnotations.ipAllocatedFromPool], u.pool);
}
