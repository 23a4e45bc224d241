/**
 * A topology as a kind cluster config (kind.x-k8s.io/v1alpha4): one control plane plus one worker per
 * lblab-node, in the topology's order (kind names them <cluster>-worker, -worker2, … in that order), each
 * with the topology's node labels and the lab's name for it, the IP family the topology's Services need,
 * and pod and Service subnets from the lab ranges (kindnet routes pod subnets via the node addresses, so
 * they appear on the lab network) that no segment of the topology uses.
 */
import YAML from 'yaml';
import { Prefix } from '../../../core/net/index.ts';
import type { Topology } from '../../model/topology.ts';
import { LAB_NODE_LABEL, clusterName } from './kind-names.ts';

export type KindIpFamily = 'ipv4' | 'ipv6' | 'dual';

export const KIND_IP_FAMILIES: readonly KindIpFamily[] = ['ipv4', 'ipv6', 'dual'];

const podSubnets = { 4: Prefix.parse('198.19.0.0/17'), 6: Prefix.parse('2001:db8:1000::/56') };
const serviceSubnets = { 4: Prefix.parse('198.19.128.0/20'), 6: Prefix.parse('2001:db8:1001::/112') };

export interface KindConfigOptions {
  runId: string;
  nodeImage: string;
  /** Overrides the family the topology's Services imply (the kind job's ipv4/ipv6/dual matrix). */
  ipFamily?: KindIpFamily;
}

export interface KindClusterConfig {
  kind: 'Cluster';
  apiVersion: 'kind.x-k8s.io/v1alpha4';
  name: string;
  networking: { ipFamily: KindIpFamily; podSubnet: string; serviceSubnet: string };
  nodes: { role: 'control-plane' | 'worker'; image: string; labels?: Record<string, string> }[];
}

export function kindClusterConfig(topology: Topology, o: KindConfigOptions): KindClusterConfig {
  const ipFamily = o.ipFamily ?? ipFamilyOf(topology);
  const families =
    ipFamily === 'dual' ? ([4, 6] as const) : ipFamily === 'ipv6' ? ([6] as const) : ([4] as const);
  for (const p of families.flatMap((f) => [podSubnets[f], serviceSubnets[f]]))
    for (const s of topology.segments)
      for (const seg of [s.ipv4, s.ipv6])
        if (overlap(p, seg))
          throw new Error(
            `${topology.file}: segment ${s.name} (${seg}) overlaps the kind cluster's pod or Service subnet ${p}`,
          );
  const workers = topology.nodes.filter((n) => n.kind === 'lblab-node');
  if (workers.length === 0) throw new Error(`${topology.file}: no lblab-node to make a kind worker of`);
  for (const n of workers)
    for (const key of Object.keys(n.labels))
      if (!kubeletMaySet(key))
        throw new Error(
          `${topology.file}: nodes.${n.name}.labels: a kubelet refuses to start with ${key} (the kubernetes.io ` +
            'and k8s.io label namespaces are reserved, NodeRestriction), so kind cannot put it on its node',
        );
  return {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    name: clusterName(o.runId),
    networking: {
      ipFamily,
      podSubnet: families.map((f) => podSubnets[f].toString()).join(','),
      serviceSubnet: families.map((f) => serviceSubnets[f].toString()).join(','),
    },
    nodes: [
      { role: 'control-plane', image: o.nodeImage },
      ...workers.map((n) => ({
        role: 'worker' as const,
        image: o.nodeImage,
        labels: { ...n.labels, [LAB_NODE_LABEL]: n.name },
      })),
    ],
  };
}

export function kindConfigYaml(config: KindClusterConfig): string {
  return YAML.stringify(config);
}

/**
 * The family the Services ask for: dual-stack when one asks for both (a dual-stack policy or both
 * families), IPv6 when every one asks for IPv6 alone, IPv4 otherwise (Kubernetes' own default).
 */
export function ipFamilyOf(topology: Topology): KindIpFamily {
  const wants = topology.services.map((s) => {
    if (s.ipFamilyPolicy === 'RequireDualStack' || s.ipFamilyPolicy === 'PreferDualStack') return 'dual';
    const f = s.ipFamilies ?? ['IPv4'];
    return f.length > 1 ? 'dual' : f[0] === 'IPv6' ? 'ipv6' : 'ipv4';
  });
  if (wants.includes('dual') || (wants.includes('ipv4') && wants.includes('ipv6'))) return 'dual';
  return wants.length > 0 && wants.every((w) => w === 'ipv6') ? 'ipv6' : 'ipv4';
}

function overlap(a: Prefix, b: Prefix): boolean {
  return a.contains(b.network) || b.contains(a.network);
}

/** The kubelet's rule for --node-labels (what kind passes a node's labels as). */
function kubeletMaySet(key: string): boolean {
  const prefix = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
  const reserved = (d: string) => prefix === d || prefix.endsWith(`.${d}`);
  if (!reserved('kubernetes.io') && !reserved('k8s.io')) return true;
  return (
    kubeletLabels.has(key) ||
    prefix === 'kubelet.kubernetes.io' ||
    prefix.endsWith('.kubelet.kubernetes.io') ||
    prefix === 'node.kubernetes.io' ||
    prefix.endsWith('.node.kubernetes.io')
  );
}

const kubeletLabels = new Set([
  'kubernetes.io/hostname',
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
]);
