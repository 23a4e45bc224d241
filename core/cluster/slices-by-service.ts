import { serviceNameLabel, type EndpointSlice } from './types.ts';

/** EndpointSlices grouped by the Service they belong to ("namespace/name"), as the kubernetes.io/service-name label says. */
export function slicesByService(slices: readonly EndpointSlice[]): Map<string, EndpointSlice[]> {
  const out = new Map<string, EndpointSlice[]>();
  for (const s of slices) {
    const name = s.metadata.labels?.[serviceNameLabel];
    if (name === undefined) continue;
    const key = `${s.metadata.namespace ?? 'default'}/${name}`;
    const list = out.get(key);
    if (list === undefined) out.set(key, [s]);
    else list.push(s);
  }
  return out;
}
