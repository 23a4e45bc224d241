/**
 * What every generated topology shares (generate.ts for Layer 2, generate-bgp.ts for racks of leaves):
 * the counts checked, the Services and their names, the size of the pool that holds them, the MetalLB
 * documents as one YAML file, and the resolution that holds a generated document to every rule a
 * written topology obeys.
 */
import { stringify } from 'yaml';
import { formatIssue } from '../../core/config/issues.ts';
import type { Random } from '../../core/runtime/random.ts';
import { labRanges } from './lab-ranges.ts';
import { resolveTopology } from './parse.ts';
import type { Topology } from './topology.ts';

/** Services spread over a few namespaces, as a shared cluster's teams would own them. */
const namespaces = ['scale-a', 'scale-b', 'scale-c', 'scale-d'];
/** Every Service answers the lab's UDP probes on 7777; some also get a TCP port, for variety. */
const probePort = '7777/UDP';
const extraPorts = ['80/TCP', '443/TCP', '8080/TCP'];
/**
 * Every Service's pods run on a few nodes, as a Deployment's replicas would: an endpoint on every node
 * for 10,000 Services would be 20 million endpoints at 2000 nodes, which no real cluster has.
 */
const replicas = 3;

/** `i` with leading zeros, at least four digits and as many as `count` has, so names sort as numbers. */
export const padded = (i: number, count: number) =>
  String(i).padStart(Math.max(4, String(count).length), '0');

/** Refuses node and Service counts no topology can have, before anything is built from them. */
export function checkCounts(nodes: number, services: number): void {
  if (!Number.isInteger(nodes) || nodes < 1)
    throw new RangeError(`nodes must be a positive integer, got ${nodes}`);
  if (!Number.isInteger(services) || services < 0) {
    throw new RangeError(`services must be a non-negative integer, got ${services}`);
  }
}

/**
 * `count` Services svc-0000.. with pods on three nodes each; `localShare` of them (drawn from `random`)
 * have externalTrafficPolicy Local.
 */
export function serviceDocs(
  count: number,
  nodeNames: readonly string[],
  random: Random,
  localShare: number,
): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const service: Record<string, unknown> = {
      name: `svc-${padded(i, count - 1)}`,
      namespace: namespaces[i % namespaces.length],
      ports: random.chance(0.5) ? [probePort, random.pick(extraPorts)] : [probePort],
    };
    if (random.chance(localShare)) service['externalTrafficPolicy'] = 'Local';
    const on = new Set<string>();
    while (on.size < Math.min(replicas, nodeNames.length)) on.add(random.pick(nodeNames));
    service['endpointsOn'] = [...on].sort();
    return service;
  });
}

/** The prefix length of the smallest block holding `count` addresses, never smaller than a /24. */
export function poolLength(count: number): number {
  let length = 24;
  while (length > labRanges[4].length && 1 << (32 - length) < count) length--;
  return length;
}

/** MetalLB resources (kind and spec each), all in metallb-system, as one multi-document YAML file. */
export function metallbYaml(
  docs: readonly { apiVersion: string; kind: string; name: string; spec: object }[],
): string {
  return docs
    .map(({ apiVersion, kind, name, spec }) =>
      stringify({ apiVersion, kind, metadata: { name, namespace: 'metallb-system' }, spec }),
    )
    .join('---\n');
}

/** The generated document as a topology, or a RangeError naming the topology and every rule it breaks. */
export function resolveGenerated(name: string, document: Record<string, unknown>): Topology {
  const result = resolveTopology(`<generated ${name}>`, document);
  if (!result.ok) {
    throw new RangeError(`cannot generate ${name}:\n${result.errors.map(formatIssue).join('\n')}`);
  }
  return result.topology;
}
