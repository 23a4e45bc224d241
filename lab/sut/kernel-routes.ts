/**
 * The routes a namespace's kernel really forwards by (its main table), whoever put them there: the
 * data-plane truth to check a daemon's FIB integration against.
 */
import type { Netns } from '../backends/netns/namespace.ts';
import { SutOutputError } from './errors.ts';
import { canonicalAddress, canonicalPrefix } from './normalise.ts';
import type { AddressFamily } from './router.ts';

export interface KernelRoute {
  prefix: string;
  /** Gateways, one per ECMP leg; empty for a connected (device) or blackhole route. */
  nextHops: string[];
  /** Who installed it: "kernel", "bgp" (zebra), "bird", "static", ... */
  protocol?: string;
  /** "unicast" unless the kernel says otherwise ("blackhole", "unreachable", ...). */
  type: string;
}

type Json = Record<string, unknown>;

/** `ip -j -4|-6 route show table main`, as printed by iproute2. */
export function parseKernelRoutes(text: string, family: AddressFamily): KernelRoute[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text.trim() === '' ? '[]' : text);
  } catch (err) {
    throw new SutOutputError(`ip route: not JSON (${(err as Error).message}): ${text.slice(0, 200)}`);
  }
  if (!Array.isArray(doc)) throw new SutOutputError(`ip route: not a list: ${text.slice(0, 200)}`);
  return (doc as Json[]).map((r) => {
    const dst = String(r['dst']);
    const gateways = [
      r['gateway'],
      ...(Array.isArray(r['nexthops']) ? (r['nexthops'] as Json[]).map((nh) => nh['gateway']) : []),
    ].filter((g): g is string => typeof g === 'string');
    return {
      prefix: dst === 'default' ? (family === 'ipv4' ? '0.0.0.0/0' : '::/0') : canonicalPrefix(dst),
      nextHops: [...new Set(gateways.map(canonicalAddress))],
      ...(typeof r['protocol'] === 'string' && { protocol: r['protocol'] }),
      type: typeof r['type'] === 'string' ? r['type'] : 'unicast',
    };
  });
}

export async function kernelRoutes(ns: Netns, family: AddressFamily): Promise<KernelRoute[]> {
  const out = await ns.ip('-j', family === 'ipv4' ? '-4' : '-6', 'route', 'show', 'table', 'main');
  return parseKernelRoutes(out, family);
}
