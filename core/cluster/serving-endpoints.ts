import type { Endpoint, EndpointSlice } from './types.ts';

/**
 * MetalLB's EndpointCanServe: ready, or not marked ready but still serving. Kubernetes leaves `ready`
 * unset when it does not know, which counts as ready; a terminating pod that still serves keeps the
 * address announced until it stops serving.
 */
export function endpointCanServe(ep: Endpoint): boolean {
  const c = ep.conditions ?? {};
  return c.ready !== false || c.serving === true;
}

/** Whether any endpoint of the service can serve (MetalLB's activeEndpointExists). */
export function hasServingEndpoint(slices: readonly EndpointSlice[]): boolean {
  return slices.some((s) => (s.endpoints ?? []).some(endpointCanServe));
}

/** Nodes that host at least one endpoint able to serve: the only nodes an ETP=Local service may use. */
export function nodesWithServingEndpoint(slices: readonly EndpointSlice[]): Set<string> {
  const out = new Set<string>();
  for (const s of slices) {
    for (const ep of s.endpoints ?? []) {
      if (ep.nodeName !== undefined && endpointCanServe(ep)) out.add(ep.nodeName);
    }
  }
  return out;
}
