import { serviceNameLabel, type EndpointSlice } from './types.ts';

/** One grouping per list of slices: a snapshot's list is grouped once, whoever asks (elections, BGP). */
const grouped = new WeakMap<readonly EndpointSlice[], ReadonlyMap<string, readonly EndpointSlice[]>>();

/**
 * EndpointSlices grouped by the Service they belong to ("namespace/name"), as the
 * kubernetes.io/service-name label says. Remembered per list: snapshots are never changed in place.
 */
export function slicesByService(
  slices: readonly EndpointSlice[],
): ReadonlyMap<string, readonly EndpointSlice[]> {
  let out = grouped.get(slices);
  if (out !== undefined) return out;
  const bySvc = new Map<string, EndpointSlice[]>();
  for (const s of slices) {
    const name = s.metadata.labels?.[serviceNameLabel];
    if (name === undefined) continue;
    const key = `${s.metadata.namespace ?? 'default'}/${name}`;
    const list = bySvc.get(key);
    if (list === undefined) bySvc.set(key, [s]);
    else list.push(s);
  }
  out = bySvc;
  grouped.set(slices, out);
  return out;
}
