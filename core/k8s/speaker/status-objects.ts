/**
 * ServiceL2Status and ServiceBGPStatus objects, as MetalLB's speaker keeps them: one per (Service, this
 * node) it announces, in lblab's namespace, created with generateName `l2-` / `bgp-`, labelled with the
 * node and the Service, owned by the speaker's Pod (so they go when it goes), their status written by a
 * PUT of /status only when what it says changes, and deleted when no longer true.
 *
 * The API server is never on the data plane's path: set() only records the desired state; a single
 * writer works towards the latest one in the background (a change that arrives mid-way is picked up by
 * the next pass, so bursts coalesce) and retries with capped exponential backoff while the server is away.
 */
import { ApiException, CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { describeApiError, isApiCode } from '../api-time-and-errors.ts';
import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import type { Random } from '../../runtime/random.ts';
import { compareText } from '../../sort/compare-text.ts';
import { group } from '../metallb/kinds.ts';
import {
  serviceBGPStatusGenerateName,
  serviceL2StatusGenerateName,
  statusLabels,
} from '../metallb/status.ts';
import { statusKey, type Announcements, type DesiredStatus, type Protocol } from './announcements.ts';

const version = 'v1beta1';
const kinds: Record<Protocol, { kind: string; plural: string; generateName: string }> = {
  layer2: { kind: 'ServiceL2Status', plural: 'servicel2statuses', generateName: serviceL2StatusGenerateName },
  bgp: { kind: 'ServiceBGPStatus', plural: 'servicebgpstatuses', generateName: serviceBGPStatusGenerateName },
};

interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

/** A status object as the API returns it (the fields read here). */
interface StatusObject {
  metadata: {
    name: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    ownerReferences?: OwnerReference[];
  };
  status?: Record<string, unknown>;
}

export interface StatusObjectsOptions {
  kc: KubeConfig;
  /** lblab's namespace, where the objects live (and the speaker's Pod). */
  namespace: string;
  node: string;
  /** The speaker's Pod ($METALLB_POD_NAME): the objects' owner. Without it they have none. */
  podName?: string;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  /** First retry after a failed pass, doubled per failure in a row (±20 % jitter) up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

export class StatusObjects {
  private readonly custom: CustomObjectsApi;
  private readonly core: CoreV1Api;
  private readonly timers: NamedTimers<'pass'>;
  /** Undefined until the first set(): until the speaker has elected, nothing it left is deleted. */
  private desired: Map<string, DesiredStatus> | undefined;
  /** What the server holds, by statusKey, once listed. */
  private readonly known = new Map<string, StatusObject>();
  private listed = false;
  private owner: OwnerReference[] | undefined;
  private running = false;
  /** set() was called, or a pass failed, since the running pass started. */
  private dirty = true;
  private failures = 0;
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly o: StatusObjectsOptions) {
    this.custom = o.kc.makeApiClient(CustomObjectsApi);
    this.core = o.kc.makeApiClient(CoreV1Api);
    this.timers = new NamedTimers(o.clock, `status objects ${o.node}: `);
  }

  /**
   * Lists this node's objects (adopting what an earlier life left, deleting duplicates); what they should
   * say waits for the first set(), so a restarting speaker does not delete objects that are still true.
   */
  start(): void {
    this.schedule(0);
  }

  /** What this node announces now; the writer works towards the latest call's. */
  set(statuses: readonly DesiredStatus[]): void {
    this.desired = new Map(statuses.map((s) => [statusKey(s), s]));
    this.dirty = true;
    if (!this.running && this.failures === 0) this.schedule(0);
  }

  /** As an AnnouncementReports sink. */
  update(a: Announcements): void {
    this.set(a.statuses);
  }

  /** Resolves once the server holds exactly the latest desired state (tests). */
  settled(): Promise<void> {
    if (!this.running && !this.dirty && this.failures === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.timers.disarmAll();
  }

  private schedule(afterMs: number): void {
    if (!this.closed) this.timers.arm('pass', afterMs, () => void this.pass());
  }

  private async pass(): Promise<void> {
    if (this.running || this.closed) return;
    this.running = true;
    this.dirty = false;
    try {
      if (this.owner === undefined) this.owner = await this.findOwner();
      if (!this.listed) await this.adopt();
      if (this.desired !== undefined) await this.reconcile(this.desired);
      if (this.failures > 0)
        this.o.log(`status objects written again after ${this.failures} failed attempts`);
      this.failures = 0;
    } catch (err) {
      if (this.closed) return;
      this.dirty = true;
      const delay = this.backoff();
      this.o.log(`status objects: ${describeApiError(err)}; retrying in ${delay} ms`);
      this.running = false;
      this.schedule(delay);
      return;
    }
    this.running = false;
    if (this.closed) return;
    if (this.dirty) this.schedule(0);
    else for (const w of this.waiters.splice(0)) w();
  }

  private backoff(): number {
    const initial = this.o.initialBackoffMs ?? 200;
    const max = this.o.maxBackoffMs ?? 10_000;
    const base = Math.min(max, initial * 2 ** Math.min(this.failures++, 20));
    return Math.round(base * (0.8 + 0.4 * this.o.random.next()));
  }

  /** The speaker's Pod as owner; none (and a warning) without METALLB_POD_NAME or when it is not found. */
  private async findOwner(): Promise<OwnerReference[]> {
    const { podName, namespace } = this.o;
    if (podName === undefined) {
      this.o.log(
        'warning: no METALLB_POD_NAME: the status objects get no owner, so nothing removes them if this speaker goes away for good',
      );
      return [];
    }
    try {
      const pod = await this.core.readNamespacedPod({ name: podName, namespace });
      return [{ apiVersion: 'v1', kind: 'Pod', name: podName, uid: pod.metadata!.uid! }];
    } catch (err) {
      if (!isApiCode(err, 404)) throw err;
      this.o.log(
        `warning: Pod ${namespace}/${podName} (METALLB_POD_NAME) not found: the status objects get no owner`,
      );
      return [];
    }
  }

  /**
   * This node's objects left by an earlier life: the first per (Service, protocol) is kept and given this
   * Pod as owner (the old Pod's going would otherwise take it along), later duplicates are deleted.
   */
  private async adopt(): Promise<void> {
    const found: [Protocol, StatusObject][] = [];
    for (const protocol of ['layer2', 'bgp'] as const) {
      const list = (await this.custom.listNamespacedCustomObject({
        group,
        version,
        namespace: this.o.namespace,
        plural: kinds[protocol].plural,
        labelSelector: `${statusLabels.node}=${this.o.node}`,
      })) as { items: StatusObject[] };
      for (const item of list.items) found.push([protocol, item]);
    }
    found.sort(([, a], [, b]) => compareText(age(a), age(b)));
    this.known.clear();
    for (const [protocol, obj] of found) {
      const labels = obj.metadata.labels ?? {};
      const key = statusKey({
        protocol,
        serviceNamespace: labels[statusLabels.serviceNamespace] ?? '',
        serviceName: labels[statusLabels.serviceName] ?? '',
      });
      if (this.known.has(key)) await this.remove(protocol, obj.metadata.name);
      else this.known.set(key, await this.owned(protocol, obj));
    }
    this.listed = true;
  }

  /** `obj` with this Pod as its only owner. */
  private async owned(protocol: Protocol, obj: StatusObject): Promise<StatusObject> {
    if (sameOwners(obj.metadata.ownerReferences ?? [], this.owner!)) return obj;
    const body = { ...obj, metadata: { ...obj.metadata, ownerReferences: this.owner } };
    return (await this.custom.replaceNamespacedCustomObject({
      group,
      version,
      namespace: this.o.namespace,
      plural: kinds[protocol].plural,
      name: obj.metadata.name,
      body: { apiVersion: `${group}/${version}`, kind: kinds[protocol].kind, ...body },
    })) as StatusObject;
  }

  /** One walk towards the desired state; each step reads the latest desired state, not a copy. */
  private async reconcile(first: Map<string, DesiredStatus>): Promise<void> {
    for (const key of new Set([...this.known.keys(), ...first.keys()])) {
      if (this.closed) return;
      const want = this.desired!.get(key);
      const have = this.known.get(key);
      if (want === undefined) {
        if (have !== undefined) {
          await this.remove(protocolOf(key), have.metadata.name);
          this.known.delete(key);
        }
        continue;
      }
      const status = statusOf(this.o.node, want);
      if (have !== undefined && sameStatus(have.status, status)) continue;
      const written = await this.write(want, have, status);
      this.known.set(key, written);
    }
  }

  /** Creates the object if needed, then PUTs its status; a stale copy (409) or a vanished one (404) is re-read. */
  private async write(
    want: DesiredStatus,
    have: StatusObject | undefined,
    status: Record<string, unknown>,
  ): Promise<StatusObject> {
    const { namespace } = this.o;
    const { kind, plural, generateName } = kinds[want.protocol];
    const apiVersion = `${group}/${version}`;
    let obj = have;
    for (let attempt = 0; ; attempt++) {
      if (obj === undefined)
        obj = (await this.custom.createNamespacedCustomObject({
          group,
          version,
          namespace,
          plural,
          body: {
            apiVersion,
            kind,
            metadata: {
              generateName,
              namespace,
              labels: {
                [statusLabels.node]: this.o.node,
                [statusLabels.serviceName]: want.serviceName,
                [statusLabels.serviceNamespace]: want.serviceNamespace,
              },
              ...(this.owner!.length > 0 && { ownerReferences: this.owner }),
            },
            spec: {},
          },
        })) as StatusObject;
      try {
        return (await this.custom.replaceNamespacedCustomObjectStatus({
          group,
          version,
          namespace,
          plural,
          name: obj.metadata.name,
          body: { apiVersion, kind, metadata: obj.metadata, status },
        })) as StatusObject;
      } catch (err) {
        if (!(err instanceof ApiException) || attempt >= 3) throw err;
        if (err.code === 404) obj = undefined;
        else if (err.code === 409)
          obj = await this.reread(plural, obj.metadata.name).catch((e: unknown) => {
            if (isApiCode(e, 404)) return undefined;
            throw e;
          });
        else throw err;
      }
    }
  }

  private async reread(plural: string, name: string): Promise<StatusObject> {
    return (await this.custom.getNamespacedCustomObject({
      group,
      version,
      namespace: this.o.namespace,
      plural,
      name,
    })) as StatusObject;
  }

  private async remove(protocol: Protocol, name: string): Promise<void> {
    try {
      await this.custom.deleteNamespacedCustomObject({
        group,
        version,
        namespace: this.o.namespace,
        plural: kinds[protocol].plural,
        name,
      });
    } catch (err) {
      if (!isApiCode(err, 404)) throw err;
    }
  }
}

/** The status an object should carry, with MetalLB's field order. */
function statusOf(node: string, s: DesiredStatus): Record<string, unknown> {
  const base = { node, serviceName: s.serviceName, serviceNamespace: s.serviceNamespace };
  return s.protocol === 'layer2'
    ? { ...base, interfaces: s.interfaces.map((name) => ({ name })) }
    : { ...base, peers: [...s.peers] };
}

/** The same facts, whatever order the server wrote the fields in. */
function sameStatus(a: Record<string, unknown> | undefined, b: Record<string, unknown>): boolean {
  if (a === undefined) return false;
  const keys = Object.keys(b);
  return (
    Object.keys(a).length === keys.length && keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]))
  );
}

function protocolOf(key: string): Protocol {
  return key.startsWith('layer2 ') ? 'layer2' : 'bgp';
}

function age(o: StatusObject): string {
  return `${o.metadata.creationTimestamp ?? ''} ${o.metadata.name}`;
}

function sameOwners(a: readonly OwnerReference[], b: readonly OwnerReference[]): boolean {
  return a.length === b.length && a.every((r, i) => r.uid === b[i]!.uid && r.name === b[i]!.name);
}
