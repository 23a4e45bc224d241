import { IpAddress } from '../net/index.ts';
import type { ClusterSnapshot } from './types.ts';

/** A node's InternalIP addresses, in the order the Node lists them: where speakers and BGP peers reach it. */
export function internalAddresses(snapshot: ClusterSnapshot, node: string): IpAddress[] {
  const n = snapshot.nodes.find((x) => x.metadata.name === node);
  return (n?.status?.addresses ?? [])
    .filter((a) => a.type === 'InternalIP')
    .map((a) => IpAddress.parse(a.address));
}
