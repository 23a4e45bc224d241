import type { Counter, Gauge, Registry } from 'prom-client';
import { definer } from './series.ts';

/**
 * MetalLB's metallb_k8s_client_* metrics (internal/k8s/controllers/stats.go: names and help texts as
 * MetalLB has them, help texts with their final period), which both agents expose. The agent's loop calls
 * these wherever it processes an update or (re)loads the configuration, whatever the cluster source: a
 * new cluster file snapshot and a watch event from the API server count alike.
 */
export class K8sClientMetrics {
  private readonly updates: Counter;
  private readonly updateErrors: Counter;
  private readonly loaded: Gauge;
  private readonly stale: Gauge;

  constructor(registry: Registry) {
    const define = definer(registry);
    this.updates = define.counter(
      'metallb_k8s_client_updates_total',
      'Number of k8s object updates that have been processed.',
    );
    this.updateErrors = define.counter(
      'metallb_k8s_client_update_errors_total',
      'Number of k8s object updates that failed for some reason.',
    );
    this.loaded = define.gauge(
      'metallb_k8s_client_config_loaded_bool',
      '1 if the MetalLB configuration was successfully loaded at least once.',
    );
    this.stale = define.gauge(
      'metallb_k8s_client_config_stale_bool',
      '1 if running on a stale configuration, because the latest config failed to load.',
    );
    // Present from the start, as Go's client shows unlabelled metrics before they are first touched.
    this.updates.inc(0);
    this.updateErrors.inc(0);
    this.loaded.set(0);
    this.stale.set(0);
  }

  /** An update was processed; `ok` false when it failed (counted in both, as MetalLB does). */
  processed(ok: boolean): void {
    this.updates.inc();
    if (!ok) this.updateErrors.inc();
  }

  /** A configuration was loaded and is in force. */
  configLoaded(): void {
    this.loaded.set(1);
    this.stale.set(0);
  }

  /** The latest configuration was refused: the one in force (if any) is stale. */
  configRejected(): void {
    this.stale.set(1);
  }
}
