/**
 * Allocator throughput: 100,000 LoadBalancer services converge (allocating the lowest free address)
 * and are then released, in an IPv4 /15 and in an IPv6 /64.
 */
import { performance } from 'node:perf_hooks';
import { Allocator, convergeService } from '../../core/allocator/index.ts';
import type { Service } from '../../core/cluster/types.ts';
import { serviceKey } from '../../core/cluster/types.ts';
import type { IPAddressPool } from '../../core/config/model.ts';
import { AddressRange } from '../../core/net/index.ts';
import { phase, result, type BenchResult } from './types.ts';

const services = 100_000;

function poolOf(name: string, cidr: string): IPAddressPool {
  return {
    meta: { name, namespace: 'metallb-system', labels: {}, source: { file: 'bench', document: 0 } },
    addresses: [{ text: cidr, range: AddressRange.parse(cidr) }],
    autoAssign: true,
    avoidBuggyIPs: false,
  };
}

function serviceOf(i: number, family: 'IPv4' | 'IPv6'): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `svc-${i}`, namespace: 'bench' },
    spec: { type: 'LoadBalancer', ipFamilies: [family], ports: [{ port: 443, protocol: 'TCP' }] },
  };
}

function run(name: string, cidr: string, family: 'IPv4' | 'IPv6'): BenchResult {
  const allocator = new Allocator([poolOf('bench', cidr)]);
  const svcs = Array.from({ length: services }, (_, i) => serviceOf(i, family));
  const keys = svcs.map(serviceKey);
  const noLabels = {};

  const t0 = performance.now();
  for (const svc of svcs) {
    const r = convergeService(allocator, svc, noLabels);
    if (!r.ok || r.action !== 'assign') throw new Error(`${name}: ${serviceKey(svc)} got no address`);
  }
  const t1 = performance.now();
  for (const key of keys) {
    if (!allocator.release(key)) throw new Error(`${name}: ${key} held no address`);
  }
  const t2 = performance.now();

  const stats = allocator.stats('bench')!;
  if (stats.assignedIPv4 + stats.assignedIPv6 !== 0n) throw new Error(`${name}: addresses left assigned`);
  return result(name, [phase('allocate', services, t1 - t0), phase('release', services, t2 - t1)]);
}

export async function benchAllocator(): Promise<BenchResult[]> {
  return [
    run('allocator IPv4 /15 (198.18.0.0/15)', '198.18.0.0/15', 'IPv4'),
    run('allocator IPv6 /64 (2001:db8::/64)', '2001:db8::/64', 'IPv6'),
  ];
}
