/**
 * MetalLB's convergeBalancer (controller/service.go): decide the addresses a Service should have, keeping
 * the ones in its status while they are still valid, and allocating otherwise. The caller (the
 * controller) writes the outcome to the Service status and publishes the notes.
 */
import type { Service } from '../cluster/types.ts';
import { serviceKey } from '../cluster/types.ts';
import type { IpAddress } from '../net/index.ts';
import type { Allocator } from './allocator.ts';
import { fail, type AllocationFailure, type Outcome } from './results.ts';
import {
  claimantFor,
  familyOf,
  isOurClass,
  requestedIps,
  requestedPool,
  statusIps,
} from './service-request.ts';
import type { Assignment, Claimant, FamilyWant, Labels } from './types.ts';
import { compareText } from '../sort/compare-text.ts';

/** Something convergence did or found on the way, for events and logs (MetalLB's service events). */
export interface ConvergeNote {
  code:
    /** The status addresses do not parse, or are not one address or one per family (a warning). */
    | 'status-invalid'
    /** The status addresses are of other families than the service's; they were released. */
    | 'status-family-changed'
    /** The config no longer allows the status addresses (pool gone, sharing refused...); released. */
    | 'status-not-assignable'
    /** The address-pool annotation names another pool than the addresses'; released. */
    | 'different-pool-requested'
    /** loadBalancerIP or the loadBalancerIPs annotation asks for other addresses; released. */
    | 'different-ips-requested'
    /** A PreferDualStack service holding one family got the other. */
    | 'additional-family-assigned'
    /** A PreferDualStack service holding one family could not get the other (it keeps the one). */
    | 'additional-family-failed'
    /** New addresses were allocated. */
    | 'allocated';
  message: string;
}

export type Convergence =
  /** The service should show exactly `ips` in its status (and `pool` in ip-allocated-from-pool). */
  | { ok: true; action: 'assign'; ips: IpAddress[]; pool: string; notes: ConvergeNote[] }
  /**
   * Not ours to serve: not type LoadBalancer, or another loadBalancerClass. Whatever it held has been
   * released. MetalLB clears the status of a service that is no longer a LoadBalancer and never
   * touches services of another class.
   */
  | {
      ok: true;
      action: 'ignore';
      why: 'not-load-balancer' | 'other-class';
      released?: Assignment;
      notes: ConvergeNote[];
    }
  /**
   * No addresses for now; convergence is worth retrying after another service releases addresses or the
   * pools change. With `kept`, the service still holds the addresses in its status and the status stays
   * as it is (MetalLB's behaviour when a request is malformed); without, the status should be empty.
   */
  | { ok: false; reason: AllocationFailure; kept?: Assignment; notes: ConvergeNote[] };

/**
 * Converges one service, given its Namespace's labels (for serviceAllocation.namespaceSelectors).
 * Call it on every change of the service, after every other service's deletion (freed addresses may let
 * it allocate), and for every service after `setPools`.
 */
export function convergeService(allocator: Allocator, svc: Service, namespaceLabels: Labels): Convergence {
  const key = serviceKey(svc);
  const notes: ConvergeNote[] = [];
  if (svc.spec.type !== 'LoadBalancer' || !isOurClass(svc, allocator.loadBalancerClass)) {
    const why = svc.spec.type !== 'LoadBalancer' ? 'not-load-balancer' : 'other-class';
    const released = allocator.release(
      key,
      why === 'not-load-balancer' ? 'not a LoadBalancer' : 'not our class',
    );
    return { ok: true, action: 'ignore', why, ...(released && { released }), notes };
  }
  if (!allocator.hasPools()) {
    allocator.release(key, 'no pools configured');
    return { ...fail('NO_POOLS', 'no IPAddressPool is configured'), notes };
  }

  const request = readRequest(svc, namespaceLabels, notes);
  const status = keepValidStatus(allocator, svc, request);
  if ('ok' in status) return status;
  const { c } = request;
  let ips = status;

  // MetalLB tries this for any PreferDualStack service holding one address; for one whose cluster is
  // single-stack (one family wanted) the second address fails the family check on the next pass and
  // the service flaps between one and two addresses. Only a dual-stack service gets the extra family.
  if (ips.length === 1 && c.families.policy === 'PreferDualStack' && c.families.want === 'dual') {
    const more = allocator.allocateAdditionalFamily(c);
    if (more.ok) {
      ips = [...more.ips];
      notes.push({ code: 'additional-family-assigned', message: `assigned additional IP ${more.ips[1]}` });
    } else {
      notes.push({
        code: 'additional-family-failed',
        message: `cannot assign additional IP: ${more.reason.message}`,
      });
    }
  }

  if (ips.length === 0) {
    const fresh = allocateFresh(allocator, request);
    if (!fresh.ok) return { ok: false, reason: fresh.reason, notes };
    ips = [...fresh.ips];
    notes.push({ code: 'allocated', message: `assigned IP ${ips.join(', ')} from pool ${fresh.pool}` });
  }
  return { ok: true, action: 'assign', ips: [...ips], pool: allocator.assignment(key)!.pool, notes };
}

/**
 * Rebuilds a fresh allocator's state from the cluster, e.g. after a controller restart: first every
 * service's status addresses are re-asserted (those still valid are kept; services holding more
 * addresses go first, then by key), then every service is converged, by key. Because both passes run
 * in a fixed order, the outcome does not depend on the order of `services`, and no new allocation can
 * take an address that a service's status still claims.
 */
export function restoreServices(
  allocator: Allocator,
  services: readonly Service[],
  namespaceLabels: (namespace: string) => Labels,
): Map<string, Convergence> {
  const byKey = [...services].sort((a, b) => compareText(serviceKey(a), serviceKey(b)));
  const claimsFirst = [...byKey].sort((a, b) => ingressCount(b) - ingressCount(a));
  for (const svc of claimsFirst) {
    const ours = svc.spec.type === 'LoadBalancer' && isOurClass(svc, allocator.loadBalancerClass);
    if (ours && allocator.hasPools() && ingressCount(svc) > 0) {
      keepValidStatus(allocator, svc, readRequest(svc, labelsOf(svc, namespaceLabels), []));
    }
  }
  return new Map(
    byKey.map((svc) => [serviceKey(svc), convergeService(allocator, svc, labelsOf(svc, namespaceLabels))]),
  );
}

/** What the service asks for, read once per convergence. */
interface Request {
  c: Claimant;
  requested: Outcome<{ ips: IpAddress[] }>;
  wantedPool: string;
  notes: ConvergeNote[];
}

function readRequest(svc: Service, namespaceLabels: Labels, notes: ConvergeNote[]): Request {
  return {
    c: claimantFor(svc, namespaceLabels),
    requested: requestedIps(svc),
    wantedPool: requestedPool(svc),
    notes,
  };
}

/**
 * The first half of convergeBalancer: re-asserts the status addresses while they still fit the
 * service's families, the config, the requested pool and the requested addresses, and releases them
 * otherwise. Returns the addresses kept (possibly none), or the failure to report when the request is
 * malformed.
 */
function keepValidStatus(allocator: Allocator, svc: Service, r: Request): readonly IpAddress[] | Convergence {
  const { c, requested, wantedPool, notes } = r;
  const clear = (code: ConvergeNote['code'], message: string): readonly IpAddress[] => {
    notes.push({ code, message });
    allocator.release(c.key, message);
    return [];
  };

  let ips = statusIps(svc);
  if (ips?.length === 0) {
    allocator.release(c.key, 'status has no addresses');
    return [];
  }
  const held = ips && familyOf(ips);
  if (!ips || !held) {
    return clear('status-invalid', 'status.loadBalancer.ingress is not one address or one of each family');
  }
  if (familyChanged(held, c)) {
    return clear(
      'status-family-changed',
      `status addresses ${ips.join(', ')} do not fit the service's families`,
    );
  }
  // Idempotent when the config still allows the addresses; otherwise it says why not.
  const reasserted = allocator.assign(c, ips);
  if (!reasserted.ok) {
    ips = clear('status-not-assignable', `current IPs not allowed by config: ${reasserted.reason.message}`);
  } else if (wantedPool !== '' && reasserted.pool !== wantedPool) {
    ips = clear(
      'different-pool-requested',
      `pool ${wantedPool} requested, addresses are from ${reasserted.pool}`,
    );
  }
  if (!requested.ok) {
    const kept = allocator.assignment(c.key);
    return { ok: false, reason: requested.reason, ...(kept && { kept }), notes };
  }
  if (ips.length > 0 && requested.ips.length > 0 && !sameAddresses(ips, requested.ips)) {
    ips = clear(
      'different-ips-requested',
      `${requested.ips.join(', ')} requested, status has ${ips.join(', ')}`,
    );
  }
  return ips;
}

/** MetalLB's allocateIPs: requested addresses, else the requested pool, else any suitable pool. */
function allocateFresh(allocator: Allocator, { c, requested, wantedPool }: Request): Outcome<Assignment> {
  if (!requested.ok) return requested;
  if (requested.ips.length > 0) {
    if (familyOf(requested.ips) !== c.families.want) {
      return fail(
        'FAMILY_MISMATCH',
        `requested loadBalancer IP(s) ${requested.ips.join(', ')} do not match the service's families`,
      );
    }
    const assigned = allocator.assign(c, requested.ips);
    if (assigned.ok && wantedPool !== '' && assigned.pool !== wantedPool) {
      allocator.release(c.key, 'requested IPs not in requested pool');
      return fail(
        'IP_POOL_MISMATCH',
        `requested loadBalancer IP(s) ${requested.ips.join(', ')} are not in requested address pool ${wantedPool}`,
      );
    }
    return assigned;
  }
  return wantedPool !== '' ? allocator.allocateFromPool(c, wantedPool) : allocator.allocate(c);
}

/**
 * MetalLB's serviceFamilyChanged: status addresses of the wrong family set are dropped, except that a
 * PreferDualStack dual-stack service may hold a single family.
 */
function familyChanged(held: FamilyWant, c: Claimant): boolean {
  if (held === c.families.want) return false;
  return !(c.families.want === 'dual' && c.families.policy === 'PreferDualStack');
}

function sameAddresses(a: readonly IpAddress[], b: readonly IpAddress[]): boolean {
  return a.length === b.length && a.every((ip) => b.some((other) => other.equals(ip)));
}

function ingressCount(svc: Service): number {
  return (svc.status?.loadBalancer?.ingress ?? []).filter((i) => i.ip !== undefined && i.ip !== '').length;
}

function labelsOf(svc: Service, namespaceLabels: (namespace: string) => Labels): Labels {
  return namespaceLabels(svc.metadata.namespace ?? 'default');
}
