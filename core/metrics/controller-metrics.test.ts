/**
 * What a MetalLB dashboard reads from `lblab controller`: the allocator's pool gauges after a real
 * reconciliation of the quick-start cluster file (an IPv4 /26 avoiding buggy IPs and an IPv6 /64 in one
 * pool, a shared address, a dual-stack Service), and the client metrics the controller's loop feeds.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileClusterSource } from '../cluster/file-source.ts';
import { loadConfig, type LbConfig } from '../config/index.ts';
import { readConfigFiles } from '../config/read-files.ts';
import { Controller } from '../controller/index.ts';
import { RealClock } from '../runtime/real-clock.ts';
import { ControllerMetrics } from './controller-metrics.ts';
import { parseExposition, valueOf } from './prometheus-text.test-support.ts';

const quickstart = join(import.meta.dirname, '..', '..', 'topologies', 'quickstart');
let source: FileClusterSource;
let config: LbConfig;

beforeAll(async () => {
  source = await FileClusterSource.open(join(quickstart, 'cluster.yaml'), new RealClock(), { watch: false });
  const loaded = loadConfig(await readConfigFiles([join(quickstart, 'metallb.yaml')]));
  if (!loaded.ok) throw new Error('the quick-start configuration is invalid');
  config = loaded.config;
});
afterAll(() => source.close());

function reconciled() {
  const controller = new Controller(config);
  controller.reconcile(source.current());
  const metrics = new ControllerMetrics({ allocator: controller.allocator });
  return { controller, metrics, read: async () => parseExposition(await metrics.text()) };
}

describe('ControllerMetrics', () => {
  it('gives each pool its usable and used addresses per family and its services, as MetalLB names them', async () => {
    const f = await reconciled().read();
    const pool = { pool: 'lab-pool' };
    // 198.18.100.0/26 without its .0 (avoidBuggyIPs); 2001:db8:100::/64 holds 2^64.
    expect(valueOf(f, 'metallb_allocator_ipv4_addresses_total', pool)).toBe(63);
    expect(valueOf(f, 'metallb_allocator_ipv6_addresses_total', pool)).toBe(2 ** 64);
    // 2^64 + 63 is not a float64; the nearest one is 2^64 (MetalLB would write MaxInt64 here).
    expect(valueOf(f, 'metallb_allocator_addresses_total', pool)).toBe(2 ** 64);
    // frontend, dns-tcp and dns-udp sharing one address, api (IPv4 and IPv6), pinned.
    expect(valueOf(f, 'metallb_allocator_ipv4_addresses_in_use_total', pool)).toBe(4);
    expect(valueOf(f, 'metallb_allocator_ipv6_addresses_in_use_total', pool)).toBe(1);
    expect(valueOf(f, 'metallb_allocator_addresses_in_use_total', pool)).toBe(5);
    expect(valueOf(f, 'metallb_allocator_services_allocated_total', pool)).toBe(5);
    expect(f.get('metallb_allocator_addresses_total')).toMatchObject({
      type: 'gauge',
      help: 'Number of usable IP addresses, per pool',
    });
    expect(f.get('metallb_allocator_addresses_in_use_total')?.help).toBe(
      'Number of IP addresses in use, per pool',
    );
  });

  it('a pool that leaves the configuration leaves the metrics', async () => {
    const t = reconciled();
    t.controller.setConfig({ ...config, pools: [] });
    const f = await t.read();
    expect(f.get('metallb_allocator_addresses_total')?.samples).toEqual([]);
    expect(f.get('metallb_allocator_services_allocated_total')?.samples).toEqual([]);
  });

  it('counts updates and failed ones, and says whether the configuration in force is stale', async () => {
    const t = reconciled();
    const client = (f: Awaited<ReturnType<typeof t.read>>) =>
      ['updates_total', 'update_errors_total', 'config_loaded_bool', 'config_stale_bool'].map((n) =>
        valueOf(f, `metallb_k8s_client_${n}`),
      );
    expect(client(await t.read())).toEqual([0, 0, 0, 0]);
    t.metrics.k8sClient.configLoaded();
    t.metrics.k8sClient.processed(true);
    t.metrics.k8sClient.processed(false);
    expect(client(await t.read())).toEqual([2, 1, 1, 0]);
    t.metrics.k8sClient.configRejected();
    expect(client(await t.read())).toEqual([2, 1, 1, 1]);
    t.metrics.k8sClient.configLoaded();
    expect(client(await t.read())).toEqual([2, 1, 1, 0]);
  });
});
