/**
 * Every metric `lblab controller` exposes, in one place: MetalLB's allocator metrics
 * (internal/allocator/stats.go: names, help texts and the `pool` label as MetalLB has them) and its
 * metallb_k8s_client_* ones. Pool counts are read from the allocator when /metrics is scraped.
 */
import { Registry } from 'prom-client';
import type { Allocator } from '../allocator/index.ts';
import { K8sClientMetrics } from './k8s-client-metrics.ts';
import { definer, replaceSeries, type Exposition } from './series.ts';

export interface ControllerMetricsSources {
  allocator: Pick<Allocator, 'poolNames' | 'stats' | 'assignments'>;
}

export class ControllerMetrics implements Exposition {
  readonly registry = new Registry();
  /** Fed by the controller's loop: cluster updates processed, configuration (re)loads. */
  readonly k8sClient = new K8sClientMetrics(this.registry);
  private readonly define = definer(this.registry);
  private readonly pool = (name: string, help: string) => this.define.gauge(name, help, ['pool']);

  private readonly total = this.pool(
    'metallb_allocator_addresses_total',
    'Number of usable IP addresses, per pool',
  );
  private readonly total4 = this.pool(
    'metallb_allocator_ipv4_addresses_total',
    'Number of usable IPV4 addresses, per pool',
  );
  private readonly total6 = this.pool(
    'metallb_allocator_ipv6_addresses_total',
    'Number of usable IPV6 addresses, per pool',
  );
  private readonly inUse = this.pool(
    'metallb_allocator_addresses_in_use_total',
    'Number of IP addresses in use, per pool',
  );
  private readonly inUse4 = this.pool(
    'metallb_allocator_ipv4_addresses_in_use_total',
    'Number of IPV4 addresses in use, per pool',
  );
  private readonly inUse6 = this.pool(
    'metallb_allocator_ipv6_addresses_in_use_total',
    'Number of IPV6 addresses in use, per pool',
  );
  /** MetalLB registers this one but never sets it, so it never shows there; lblab gives its value. */
  private readonly services = this.pool(
    'metallb_allocator_services_allocated_total',
    'Number of services allocated, per pool',
  );

  constructor(private readonly sources: ControllerMetricsSources) {}

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    const { allocator } = this.sources;
    const pools = allocator.poolNames();
    const services = new Map<string, number>();
    for (const { pool } of allocator.assignments().values())
      services.set(pool, (services.get(pool) ?? 0) + 1);
    // A sample is a float64: counts up to 2^53 are exact, an IPv6 pool's larger count is the nearest float64
    // (exact for the power-of-two sizes of CIDR pools: a /64 is 18446744073709551616). MetalLB writes
    // MaxInt64 instead for any range of 2^62 addresses or more.
    const rows = (value: (pool: string) => bigint | number) =>
      pools.map((pool) => [{ pool }, Number(value(pool))] as const);
    const stats = (pool: string) => allocator.stats(pool)!;
    replaceSeries(
      this.total,
      rows((p) => stats(p).capacityIPv4 + stats(p).capacityIPv6),
    );
    replaceSeries(
      this.total4,
      rows((p) => stats(p).capacityIPv4),
    );
    replaceSeries(
      this.total6,
      rows((p) => stats(p).capacityIPv6),
    );
    replaceSeries(
      this.inUse,
      rows((p) => stats(p).assignedIPv4 + stats(p).assignedIPv6),
    );
    replaceSeries(
      this.inUse4,
      rows((p) => stats(p).assignedIPv4),
    );
    replaceSeries(
      this.inUse6,
      rows((p) => stats(p).assignedIPv6),
    );
    replaceSeries(
      this.services,
      rows((p) => services.get(p) ?? 0),
    );
    return this.registry.metrics();
  }
}
