/**
 * Writes the controller's ServiceStatusUpdates to the cluster as MetalLB does: status.loadBalancer.ingress
 * and the metallb.io/ip-allocated-from-pool annotation in ONE PUT of the Service's /status (MetalLB's
 * RBAC grants services/status update, not patch; on /status kube-apiserver takes everything but the spec,
 * so the annotation rides along). The PUT names the resourceVersion it was computed from: a 409 means
 * another writer was first, and the Service is read again so their change (a label, say) survives ours.
 */
import { CoreV1Api, type KubeConfig, type V1Service } from '@kubernetes/client-node';
import { serviceAnnotations } from '../../cluster/annotations.ts';
import type { ServiceStatusUpdate } from '../../cluster/status-writer.ts';
import type { Clock } from '../../runtime/clock.ts';
import { ConflictRetriesExhausted, replaceWithRetry } from './replace-with-retry.ts';
import { unguarded, type Guard, type WriteReport } from './write-report.ts';

export interface ServiceStatusWriterOptions {
  kc: KubeConfig;
  clock: Clock;
  /** Every PUT goes through it: the leader election's fence (leader-election.ts). */
  guard?: Guard;
  /** PUTs per Service before conflicts count as a failure; default 5. */
  attempts?: number;
}

export class ServiceStatusWriter {
  private readonly core: CoreV1Api;

  constructor(private readonly o: ServiceStatusWriterOptions) {
    this.core = o.kc.makeApiClient(CoreV1Api);
  }

  /**
   * Applies each update; `known` gives the whole Service as the caller last read it (its resourceVersion
   * saves a GET; it must be whole, as the PUT writes back its metadata and status), else it is read
   * first. Never throws: a failed Service is reported for the next pass to retry.
   */
  async apply(
    updates: readonly ServiceStatusUpdate[],
    known: (namespace: string, name: string) => V1Service | undefined = () => undefined,
  ): Promise<WriteReport> {
    const report: WriteReport = { written: [], unchanged: [], gone: [], failed: [], conflicts: 0 };
    const guard = this.o.guard ?? unguarded;
    for (const u of updates) {
      const key = `${u.namespace}/${u.name}`;
      const seen = known(u.namespace, u.name);
      try {
        const outcome = await replaceWithRetry<V1Service>(
          {
            // Without a resourceVersion the PUT would be unconditional and could undo another writer's change.
            ...(seen?.metadata?.resourceVersion !== undefined && { known: seen }),
            read: () => this.core.readNamespacedService({ namespace: u.namespace, name: u.name }),
            change: (svc) => withStatus(svc, u),
            replace: (body) =>
              guard(() =>
                this.core.replaceNamespacedServiceStatus({ namespace: u.namespace, name: u.name, body }),
              ).then(() => undefined),
          },
          { clock: this.o.clock, ...(this.o.attempts !== undefined && { attempts: this.o.attempts }) },
        );
        report.conflicts += outcome.conflicts;
        report[outcome.result].push(key);
      } catch (err) {
        if (err instanceof ConflictRetriesExhausted) report.conflicts += err.conflicts;
        report.failed.push({ key, error: err instanceof Error ? err : new Error(String(err)) });
      }
    }
    return report;
  }
}

/** The Service with the update's ingress and pool annotation, or undefined when it says that already. */
function withStatus(svc: V1Service, u: ServiceStatusUpdate): V1Service | undefined {
  const annotations = { ...svc.metadata?.annotations };
  if (u.pool === undefined) delete annotations[serviceAnnotations.ipAllocatedFromPool];
  else annotations[serviceAnnotations.ipAllocatedFromPool] = u.pool;
  const ingress = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? '');
  const poolBefore = svc.metadata?.annotations?.[serviceAnnotations.ipAllocatedFromPool];
  if (ingress.join(',') === u.ingress.join(',') && poolBefore === u.pool) return undefined;
  return {
    ...svc,
    metadata: { ...svc.metadata, annotations },
    status: {
      ...svc.status,
      loadBalancer: u.ingress.length === 0 ? {} : { ingress: u.ingress.map((ip) => ({ ip })) },
    },
  };
}
