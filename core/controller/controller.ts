import { Allocator, convergeService, restoreServices, type Convergence } from '../allocator/index.ts';
import { serviceAnnotations } from '../cluster/annotations.ts';
import type { ServiceStatusUpdate } from '../cluster/status-writer.ts';
import { serviceKey, type ClusterSnapshot, type Service } from '../cluster/types.ts';
import type { LbConfig } from '../config/model.ts';
import type { ControllerEvent } from './events.ts';
import { compareText } from '../sort/compare-text.ts';

export interface ControllerOptions {
  /** Serve only Services of this loadBalancerClass (MetalLB's --lb-class); default: Services without one. */
  loadBalancerClass?: string;
}

export interface Reconciliation {
  /** Statuses to write back: only Services whose status or pool annotation must change. */
  updates: ServiceStatusUpdate[];
  events: ControllerEvent[];
  /** Every Service's outcome, by "namespace/name", for summaries. */
  outcomes: Map<string, Convergence>;
}

/**
 * Assigns addresses to LoadBalancer Services: the allocator decides, this turns its decisions into
 * status updates and events. The first reconciliation re-asserts every address already in a status
 * before allocating anything new, so a restarted controller keeps every existing assignment.
 */
export class Controller {
  readonly allocator: Allocator;
  private restored = false;
  private seen = new Set<string>();
  /** The last failure reported per Service, so a standing failure is reported once, not every pass. */
  private failures = new Map<string, string>();

  constructor(config: LbConfig, options: ControllerOptions = {}) {
    this.allocator = new Allocator(config.pools, {
      ...(options.loadBalancerClass !== undefined && { loadBalancerClass: options.loadBalancerClass }),
    });
  }

  /** Applies a new (validated) configuration; every Service is converged again on the next pass. */
  setConfig(config: LbConfig): ControllerEvent[] {
    return this.allocator.setPools(config.pools).released.map(({ service, assignment }) => ({
      type: 'Warning',
      reason: 'IPsCleared',
      service,
      message: `${assignment.ips.join(', ')} no longer in any pool`,
    }));
  }

  reconcile(snapshot: ClusterSnapshot): Reconciliation {
    const labels = new Map(snapshot.namespaces.map((ns) => [ns.metadata.name, ns.metadata.labels ?? {}]));
    const namespaceLabels = (ns: string) => labels.get(ns) ?? {};
    const events: ControllerEvent[] = [];

    const present = new Set(snapshot.services.map(serviceKey));
    for (const gone of [...this.seen].filter((k) => !present.has(k))) {
      const released = this.allocator.release(gone, 'service deleted');
      this.failures.delete(gone);
      if (released) {
        events.push({
          type: 'Normal',
          reason: 'IPReleased',
          service: gone,
          message: `service deleted, released ${released.ips.join(', ')}`,
        });
      }
    }
    this.seen = present;

    // Converging in key order makes the outcome independent of the order Services appear in the file.
    const services = [...snapshot.services].sort((a, b) => compareText(serviceKey(a), serviceKey(b)));
    const outcomes = this.restored
      ? new Map(
          services.map((s) => [serviceKey(s), convergeService(this.allocator, s, namespaceLabels(ns(s)))]),
        )
      : restoreServices(this.allocator, services, (n) => namespaceLabels(n));
    this.restored = true;

    const updates: ServiceStatusUpdate[] = [];
    for (const svc of services) {
      const key = serviceKey(svc);
      const outcome = outcomes.get(key)!;
      events.push(...this.eventsFor(key, outcome));
      const wanted = desiredStatus(outcome);
      if (wanted && !sameStatus(svc, wanted))
        updates.push({ namespace: ns(svc), name: svc.metadata.name, ...wanted });
    }
    return { updates, events, outcomes };
  }

  private eventsFor(key: string, outcome: Convergence): ControllerEvent[] {
    const events: ControllerEvent[] = [];
    for (const note of outcome.notes) {
      if (note.code === 'allocated' || note.code === 'additional-family-assigned') {
        events.push({ type: 'Normal', reason: 'IPAllocated', service: key, message: note.message });
      } else if (note.code === 'additional-family-failed') {
        events.push({ type: 'Warning', reason: 'AllocationFailed', service: key, message: note.message });
      } else {
        events.push({ type: 'Warning', reason: 'IPsCleared', service: key, message: note.message });
      }
    }
    if (outcome.ok) {
      this.failures.delete(key);
    } else if (this.failures.get(key) !== outcome.reason.message) {
      this.failures.set(key, outcome.reason.message);
      events.push({
        type: 'Warning',
        reason: 'AllocationFailed',
        service: key,
        message: `failed to allocate IP for "${key}": ${outcome.reason.message}`,
      });
    }
    return events;
  }
}

type Status = Pick<ServiceStatusUpdate, 'ingress' | 'pool'>;

/** What the Service's status should say, or undefined when it is not ours to touch. */
function desiredStatus(outcome: Convergence): Status | undefined {
  if (outcome.ok && outcome.action === 'assign') {
    return { ingress: outcome.ips.map(String), pool: outcome.pool };
  }
  if (outcome.ok) {
    // A Service that stopped being a LoadBalancer loses the status we gave it; another class's is left alone.
    return outcome.why === 'not-load-balancer' ? { ingress: [] } : undefined;
  }
  if (outcome.kept) return undefined;
  return { ingress: [] };
}

function sameStatus(svc: Service, wanted: Status): boolean {
  const current = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? '');
  const pool = svc.metadata.annotations?.[serviceAnnotations.ipAllocatedFromPool];
  return current.join(',') === (wanted.ingress ?? []).join(',') && pool === wanted.pool;
}

const ns = (svc: Service) => svc.metadata.namespace ?? 'default';
