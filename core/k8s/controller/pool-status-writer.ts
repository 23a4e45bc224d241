/**
 * IPAddressPool status counters (assignedIPv4/IPv6, availableIPv4/IPv6), written by a PUT of the pool's
 * /status as MetalLB does, only when they changed. The body is written as text so an IPv6 pool's count
 * goes out as the exact integer (int64-json.ts); client-node would send a rounded float.
 */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { PoolStats } from '../../allocator/index.ts';
import type { Clock } from '../../runtime/clock.ts';
import { group } from '../metallb/kinds.ts';
import { int64Text, withInt64Status } from './int64-json.ts';
import { perCall } from './per-call.ts';
import { ConflictRetriesExhausted, replaceWithRetry } from './replace-with-retry.ts';
import { unguarded, type Guard, type WriteReport } from './write-report.ts';

export type PoolCounters = Pick<
  PoolStats,
  'assignedIPv4' | 'assignedIPv6' | 'availableIPv4' | 'availableIPv6'
>;

interface PoolObject {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; uid?: string };
  status?: Record<string, unknown>;
}

export interface PoolStatusWriterOptions {
  kc: KubeConfig;
  /** lblab's namespace, where the pools are. */
  namespace: string;
  clock: Clock;
  guard?: Guard;
  attempts?: number;
}

const api = { group, version: 'v1beta1', plural: 'ipaddresspools' } as const;

export class PoolStatusWriter {
  private readonly custom: CustomObjectsApi;
  /** The status text last written (or found) per pool uid: a pass that changes nothing sends nothing. */
  private readonly written = new Map<string, string>();

  constructor(private readonly o: PoolStatusWriterOptions) {
    this.custom = o.kc.makeApiClient(CustomObjectsApi);
  }

  /**
   * Writes each pool's counters where they differ from what it says; `known` gives the pool as last
   * listed (e.g. the config source's copy), else it is read. Never throws.
   */
  async apply(
    pools: readonly { name: string; counters: PoolCounters }[],
    known: (name: string) => unknown = () => undefined,
  ): Promise<WriteReport> {
    const report: WriteReport = { written: [], unchanged: [], gone: [], failed: [], conflicts: 0 };
    const guard = this.o.guard ?? unguarded;
    const { namespace } = this.o;
    for (const { name, counters } of pools) {
      const key = `${namespace}/${name}`;
      const status = statusOf(counters);
      const text = JSON.stringify(
        Object.fromEntries(Object.entries(status).map(([k, v]) => [k, int64Text(v)])),
      );
      const seen = known(name) as PoolObject | undefined;
      if (seen?.metadata?.uid !== undefined && this.written.get(seen.metadata.uid) === text) {
        report.unchanged.push(key);
        continue;
      }
      try {
        let uid: string | undefined;
        const outcome = await replaceWithRetry<PoolObject>(
          {
            ...(seen?.metadata?.resourceVersion !== undefined && { known: seen }),
            read: () =>
              this.custom.getNamespacedCustomObject({ ...api, namespace, name }) as Promise<PoolObject>,
            change: (pool) => {
              uid = pool.metadata?.uid;
              const same = (uid !== undefined && this.written.get(uid) === text) || says(pool.status, status);
              return same ? undefined : pool;
            },
            replace: async (pool) => {
              const body = withInt64Status(pool, status);
              await guard(() =>
                this.custom.replaceNamespacedCustomObjectStatus(
                  { ...api, namespace, name, body: pool },
                  perCall({ pre: (request) => request.setBody(body) }),
                ),
              );
            },
          },
          { clock: this.o.clock, ...(this.o.attempts !== undefined && { attempts: this.o.attempts }) },
        );
        report.conflicts += outcome.conflicts;
        report[outcome.result].push(key);
        if (uid !== undefined && outcome.result !== 'gone') this.written.set(uid, text);
      } catch (err) {
        if (err instanceof ConflictRetriesExhausted) report.conflicts += err.conflicts;
        report.failed.push({ key, error: err instanceof Error ? err : new Error(String(err)) });
      }
    }
    return report;
  }
}

const statusOf = (c: PoolCounters): Record<string, bigint> => ({
  assignedIPv4: c.assignedIPv4,
  assignedIPv6: c.assignedIPv6,
  availableIPv4: c.availableIPv4,
  availableIPv6: c.availableIPv6,
});

/**
 * Whether the stored status already holds these counters. A count above 2^53 was rounded when read, so
 * it never matches: such a pool is written once per controller start, then `written` remembers it.
 */
function says(stored: Record<string, unknown> | undefined, status: Record<string, bigint>): boolean {
  if (stored === undefined) return false;
  return Object.entries(status).every(([k, v]) => {
    const have = stored[k];
    return typeof have === 'number' && Number.isSafeInteger(have) && String(have) === int64Text(v);
  });
}
