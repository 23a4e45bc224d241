import { hash } from 'node:crypto';

/**
 * MetalLB's election key: sha256(nodeName + "#" + ip), with the address in its canonical text form (Go's
 * net.IP.String(), which IpAddress.toString() matches: dotted quad, RFC 5952 for IPv6). The same key gives
 * the same winner as a MetalLB speaker would pick, so lblab and MetalLB can be swapped node by node.
 */
export function electionHash(node: string, ip: string): Uint8Array {
  return hash('sha256', `${node}#${ip}`, 'buffer');
}

/** Go's bytes.Compare on two digests of equal length. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Orders nodes best first: highest preference score, then MetalLB's hash ascending, then the name so that
 * the order is total even for identical hashes (only possible for identical names).
 */
export function rankNodes(nodes: Iterable<string>, ip: string, score: (node: string) => number): string[] {
  const keyed = [...nodes].map((node) => ({ node, score: score(node), hash: electionHash(node, ip) }));
  keyed.sort((a, b) => b.score - a.score || compareBytes(a.hash, b.hash) || compareText(a.node, b.node));
  return keyed.map((k) => k.node);
}

/** Code-unit order, the same on every host (localeCompare is not). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
