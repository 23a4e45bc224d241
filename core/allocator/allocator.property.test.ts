/**
 * Properties over random pools, services and sequences of controller actions (converge, change,
 * delete, reconfigure), with a controller loop that writes convergence results back to the Service
 * status as the real one does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IpFamilyName, IpFamilyPolicy, Service, ServicePort } from '../cluster/types.ts';
import { serviceKey } from '../cluster/types.ts';
import type { IPAddressPool } from '../config/model.ts';
import { IpAddress } from '../net/index.ts';
import { Allocator } from './allocator.ts';
import { convergeService, restoreServices } from './converge.ts';
import { isBuggyIPv4 } from './slot-space.ts';
import { serviceAnnotations as annotations } from '../cluster/annotations.ts';
import { backendKeyOf, portsOf, sharingKeyOf } from './service-request.ts';
import { claimant, lbService, pool, texts, withStatus } from './test-fixtures.ts';

const namespaceLabels = (ns: string) => ({ env: ns === 'ns0' ? 'prod' : 'dev' });

// --- generators -----------------------------------------------------------------------------------

/** Pool j owns 198.18.j.0/24 and 2001:db8:j::/48 and takes small ranges from them: pools never overlap. */
const poolArb = (j: number): fc.Arbitrary<IPAddressPool> =>
  fc
    .record({
      v4: fc.array(fc.tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 5 })), {
        minLength: 1,
        maxLength: 2,
      }),
      v6: fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 3 })), {
        minLength: 1,
        maxLength: 2,
      }),
      autoAssign: fc.boolean(),
      avoidBuggyIPs: fc.boolean(),
      restricted: fc.constantFrom('none', 'none', 'namespace', 'selector', 'priority'),
    })
    .map(({ v4, v6, autoAssign, avoidBuggyIPs, restricted }) => {
      // Ranges i of a family sit in disjoint 128- or 64-address slices of the pool's block.
      const texts = [
        ...v4.map(([start, len], i) => `198.18.${j}.${i * 128 + start}-198.18.${j}.${i * 128 + start + len}`),
        ...v6.map(
          ([start, len], i) =>
            `2001:db8:${j}::${(i * 64 + start).toString(16)}-2001:db8:${j}::${(i * 64 + start + len).toString(16)}`,
        ),
      ];
      return pool(`pool${j}`, texts, {
        autoAssign: autoAssign || restricted === 'none',
        avoidBuggyIPs,
        ...(restricted === 'namespace' && {
          serviceAllocation: { namespaceSelectors: [{ matchLabels: { env: 'prod' } }] },
        }),
        ...(restricted === 'selector' && {
          serviceAllocation: { serviceSelectors: [{ matchLabels: { tier: 'gold' } }] },
        }),
        ...(restricted === 'priority' && { serviceAllocation: { priority: j + 1 } }),
      });
    });

const poolsArb = fc
  .integer({ min: 1, max: 3 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, j) => poolArb(j))));

const families: [IpFamilyName[], IpFamilyPolicy][] = [
  [['IPv4'], 'SingleStack'],
  [['IPv6'], 'SingleStack'],
  [['IPv4', 'IPv6'], 'RequireDualStack'],
  [['IPv6', 'IPv4'], 'PreferDualStack'],
  [['IPv4'], 'PreferDualStack'],
];
const portChoices: ServicePort[] = [{ port: 80 }, { port: 443 }, { port: 53, protocol: 'UDP' }];

const serviceArb = (i: number): fc.Arbitrary<Service> =>
  fc
    .record({
      family: fc.integer({ min: 0, max: families.length - 1 }),
      sharing: fc.constantFrom('', 'k1', 'k1', 'k2'),
      ports: fc.subarray(portChoices, { minLength: 1, maxLength: 2 }),
      local: fc.boolean(),
      app: fc.constantFrom('a', 'b'),
      gold: fc.boolean(),
      poolAnnotation: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 5 }),
    })
    .map(({ family, sharing, ports, local, app, gold, poolAnnotation }) => {
      const [ipFamilies, ipFamilyPolicy] = families[family]!;
      return lbService(`svc${i}`, {
        namespace: `ns${i % 2}`,
        ...(gold && { labels: { tier: 'gold' } }),
        annotations: {
          ...(sharing && { [annotations.allowSharedIP]: sharing }),
          ...(poolAnnotation !== null && { [annotations.addressPool]: `pool${poolAnnotation}` }),
        },
        spec: {
          ipFamilies,
          ipFamilyPolicy,
          ports,
          externalTrafficPolicy: local ? 'Local' : 'Cluster',
          selector: { app },
        },
      });
    });

type Action =
  | { kind: 'converge'; i: number }
  | { kind: 'change'; i: number; svc: Service }
  | { kind: 'delete'; i: number }
  | { kind: 'reconfigure' };

const servicesCount = 8;
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.integer({ min: 0, max: servicesCount - 1 }).map((i): Action => ({ kind: 'converge', i })),
  },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 0, max: servicesCount - 1 })
      .chain((i) => serviceArb(i).map((svc): Action => ({ kind: 'change', i, svc }))),
  },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 0, max: servicesCount - 1 }).map((i): Action => ({ kind: 'delete', i })),
  },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: 'reconfigure' }) },
);

const scenarioArb = fc.record({
  pools: poolsArb,
  otherPools: poolsArb,
  services: fc.tuple(...Array.from({ length: servicesCount }, (_, i) => serviceArb(i))),
  actions: fc.array(actionArb, { maxLength: 40 }),
});

// --- the controller loop --------------------------------------------------------------------------

/** Applies a convergence to the Service as the controller writes it. */
function converged(alloc: Allocator, svc: Service): Service {
  const r = convergeService(alloc, svc, namespaceLabels(svc.metadata.namespace!));
  if (r.ok) return withStatus(svc, r.action === 'assign' ? r.ips : []);
  return r.kept ? svc : withStatus(svc, []);
}

/** Converges every service until no status changes (MetalLB's reprocess-all, repeated to a fixpoint). */
function settle(alloc: Allocator, live: (Service | undefined)[]): void {
  for (let pass = 0; pass < 10; pass++) {
    let changed = false;
    live.forEach((svc, i) => {
      if (!svc) return;
      const next = converged(alloc, svc);
      changed ||= JSON.stringify(next.status) !== JSON.stringify(svc.status);
      live[i] = next;
    });
    if (!changed) return;
  }
  throw new Error('no fixpoint after 10 passes');
}

/** No address is held by two services that may not share it, and the counters add up. */
function checkInvariants(
  alloc: Allocator,
  live: (Service | undefined)[],
  pools: readonly IPAddressPool[],
): void {
  const byKey = new Map(live.flatMap((s) => (s ? [[serviceKey(s), s] as const] : [])));
  const holders = new Map<string, string[]>();
  for (const [key, a] of alloc.assignments()) {
    expect(byKey.has(key)).toBe(true);
    for (const ip of a.ips) holders.set(ip.toString(), [...(holders.get(ip.toString()) ?? []), key]);
  }
  for (const [ip, keys] of holders) {
    for (let x = 0; x < keys.length; x++) {
      for (let y = x + 1; y < keys.length; y++) {
        const [a, b] = [byKey.get(keys[x]!)!, byKey.get(keys[y]!)!];
        const why = `${ip} held by ${keys[x]} and ${keys[y]}`;
        expect(sharingKeyOf(a), why).not.toBe('');
        expect(sharingKeyOf(a), why).toBe(sharingKeyOf(b));
        expect(backendKeyOf(a), why).toBe(backendKeyOf(b));
        const pa = portsOf(a).map((p) => `${p.protocol}/${p.port}`);
        expect(
          portsOf(b).filter((p) => pa.includes(`${p.protocol}/${p.port}`)),
          why,
        ).toEqual([]);
      }
    }
  }
  for (const p of pools) {
    const s = alloc.stats(p.meta.name)!;
    const inPool = [...alloc.assignments().values()]
      .filter((a) => a.pool === p.meta.name)
      .flatMap((a) => a.ips);
    const distinct = (f: 4 | 6) => BigInt(new Set(inPool.filter((ip) => ip.family === f).map(String)).size);
    expect([s.assignedIPv4, s.assignedIPv6]).toEqual([distinct(4), distinct(6)]);
    expect([s.availableIPv4, s.availableIPv6]).toEqual([
      s.capacityIPv4 - distinct(4),
      s.capacityIPv6 - distinct(6),
    ]);
  }
}

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function run(scenario: Scenario) {
  let pools: IPAddressPool[] = [...scenario.pools];
  const alloc = new Allocator(pools);
  const live: (Service | undefined)[] = [...scenario.services];
  settle(alloc, live);
  checkInvariants(alloc, live, pools);
  for (const action of scenario.actions) {
    if (action.kind === 'converge') {
      const svc = live[action.i];
      if (svc) live[action.i] = converged(alloc, svc);
    } else if (action.kind === 'change') {
      // The new spec, keeping the status the old one had.
      const old = live[action.i];
      live[action.i] = converged(alloc, old?.status ? { ...action.svc, status: old.status } : action.svc);
    } else if (action.kind === 'delete') {
      const svc = live[action.i];
      if (svc) alloc.release(serviceKey(svc), 'deleted');
      live[action.i] = undefined;
      settle(alloc, live); // a deletion may let waiting services allocate
    } else {
      pools = pools === scenario.pools ? [...scenario.otherPools] : [...scenario.pools];
      alloc.setPools(pools);
      settle(alloc, live);
    }
    checkInvariants(alloc, live, pools);
  }
  return { alloc, live, pools };
}

const snapshot = (alloc: Allocator) =>
  [...alloc.assignments()].map(([k, a]) => `${k} ${a.pool} ${texts(a.ips).join(',')}`);

// --- properties -----------------------------------------------------------------------------------

describe('allocator properties', () => {
  it('never gives an address to two services that may not share it, and keeps the counters right', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => void run(scenario)),
      { numRuns: 300 },
    );
  });

  it('a restart (new allocator, restore in any order) ends with the same assignments', () => {
    fc.assert(
      fc.property(scenarioArb, fc.infiniteStream(fc.nat()), (scenario, randomness) => {
        const { alloc, live, pools } = run(scenario);
        settle(alloc, live);
        const services = live.filter((s): s is Service => s !== undefined);
        const it = randomness[Symbol.iterator]();
        const shuffled = [...services];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = it.next().value! % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        const restarted = new Allocator(pools);
        const results = restoreServices(restarted, shuffled, namespaceLabels);
        expect(snapshot(restarted)).toEqual(snapshot(alloc));
        // And what restore reports is what the statuses already say: nothing to write.
        for (const svc of services) {
          const r = results.get(serviceKey(svc))!;
          const want = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip);
          const got = r.ok ? (r.action === 'assign' ? texts(r.ips) : []) : r.kept ? want : [];
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('hands out the lowest free address, and released addresses become allocatable again', () => {
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.constant<'allocate'>('allocate') },
      { weight: 2, arbitrary: fc.nat().map((n) => ({ release: n })) },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 0, max: 300 }),
        fc.boolean(),
        fc.array(op, { maxLength: 120 }),
        (start, length, avoidBuggyIPs, ops) => {
          const first = IpAddress.parse('198.18.0.0').value + BigInt(start);
          const last = first + BigInt(length);
          const text = `${IpAddress.of(4, first)}-${IpAddress.of(4, last)}`;
          const alloc = new Allocator([pool('p', [text], { avoidBuggyIPs })]);
          const free = new Set<bigint>();
          for (let v = first; v <= last; v++) if (!avoidBuggyIPs || !isBuggyIPv4(v)) free.add(v);
          const held = new Map<string, bigint>();
          let n = 0;
          for (const o of ops) {
            if (o === 'allocate') {
              const key = `s${n++}`;
              const r = alloc.allocate(claimant(key));
              const lowest = [...free].sort((a, b) => (a < b ? -1 : 1))[0];
              if (lowest === undefined) {
                expect(r.ok).toBe(false);
                continue;
              }
              expect(r.ok && r.ips[0]!.value).toBe(lowest);
              free.delete(lowest);
              held.set(key, lowest);
            } else {
              const keys = [...held.keys()];
              if (keys.length === 0) continue;
              const key = keys[o.release % keys.length]!;
              alloc.release(key);
              free.add(held.get(key)!);
              held.delete(key);
            }
            expect(alloc.stats('p')!.availableIPv4).toBe(BigInt(free.size));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
