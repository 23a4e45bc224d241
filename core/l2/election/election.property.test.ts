// Properties over random clusters: every speaker must reach the same answer from the same facts, however
// the API server, the membership layer or the config loader happened to order them.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Node } from '../../cluster/types.ts';
import type { L2Advertisement } from '../../config/index.ts';
import { excludeFromLoadBalancersLabel } from '../../cluster/node-conditions.ts';
import { elect, endpoint, l2adv, nic, node, pool, service, slice } from './test-fixtures.ts';
import type { ElectionInput, ElectionResult, NodeInterface } from './types.ts';

const names = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'];

const nodeArb = (name: string): fc.Arbitrary<Node> =>
  fc
    .record({
      role: fc.constantFrom('edge', 'worker'),
      excluded: fc.constantFrom(false, false, false, true),
      unavailable: fc.constantFrom(undefined, undefined, undefined, 'True' as const, 'False' as const),
    })
    .map(({ role, excluded, unavailable }) =>
      node(name, {
        labels: { role, ...(excluded && { [excludeFromLoadBalancersLabel]: '' }) },
        ...(unavailable && { networkUnavailable: unavailable }),
      }),
    );

/** Each node sits on segment a (198.18.0.0/24), b (198.18.1.0/24) or both, on eth0/eth1. */
const interfacesArb: fc.Arbitrary<NodeInterface[]> = fc
  .constantFrom('a', 'b', 'ab', 'none')
  .map((seg) => [
    ...(seg.includes('a') ? [nic('eth0', '198.18.0.1/24')] : []),
    ...(seg.includes('b') ? [nic('eth1', '198.18.1.1/24')] : []),
  ]);

const advArb = (i: number): fc.Arbitrary<L2Advertisement> =>
  fc
    .record({
      role: fc.constantFrom(undefined, 'edge', 'worker'),
      interfaces: fc.subarray(['eth0', 'eth1']),
      preferWeight: fc.constantFrom(undefined, 10, 60),
    })
    .map(({ role, interfaces, preferWeight }) =>
      l2adv(`adv${i}`, {
        nodeSelectors: role === undefined ? [] : [{ matchLabels: { role } }],
        interfaces,
        preferred:
          preferWeight === undefined
            ? []
            : [{ weight: preferWeight, preference: { matchLabels: { role: 'edge' } } }],
      }),
    );

const inputArb: fc.Arbitrary<Omit<ElectionInput, 'pool'>> = fc
  .record({
    nodes: fc.tuple(...names.map(nodeArb)),
    alive: fc.subarray(names, { minLength: 2 }),
    interfaces: fc.tuple(...names.map(() => interfacesArb)),
    ads: fc
      .integer({ min: 1, max: 3 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => advArb(i)))),
    endpoints: fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom(true, false, undefined)), {
      maxLength: 6,
    }),
    etp: fc.constantFrom('Cluster' as const, 'Local' as const),
    ip: fc.constantFrom('198.18.0.10', '198.18.1.10', '198.18.2.10'),
  })
  .map(({ nodes, alive, interfaces, ads, endpoints, etp, ip }) => ({
    nodes,
    aliveSpeakers: new Set(alive),
    interfaces: new Map(names.map((n, i) => [n, interfaces[i]!])),
    advertisements: ads,
    endpointSlices: [slice(endpoints.map(([n, ready]) => endpoint(n, ready === undefined ? {} : { ready })))],
    service: service('svc', [ip], { etp }),
  }));

const lab = pool('lab', ['198.18.0.0/15']);
const withPool = (input: Omit<ElectionInput, 'pool'>) => elect({ ...input, pool: lab });
/** What a result says, getters read: the ranking and the reason are worked out on demand. */
const facts = (r: ElectionResult) =>
  r.owner === undefined
    ? r
    : { owner: r.owner, interfaces: r.interfaces, candidates: r.candidates, reason: r.reason };

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function reordered(input: Omit<ElectionInput, 'pool'>, seed: number): Omit<ElectionInput, 'pool'> {
  return {
    ...input,
    nodes: shuffled(input.nodes, seed),
    aliveSpeakers: new Set(shuffled([...input.aliveSpeakers], seed + 1)),
    interfaces: new Map(shuffled([...input.interfaces], seed + 2)),
    advertisements: shuffled(input.advertisements, seed + 3),
    endpointSlices: shuffled(
      input.endpointSlices.flatMap((s) => (s.endpoints ?? []).map((e): EndpointSlice => slice([e]))),
      seed + 4,
    ),
  };
}

describe('election properties', () => {
  it('the result does not depend on the order of nodes, speakers, interfaces, advertisements or endpoints', () => {
    fc.assert(
      fc.property(inputArb, fc.nat(), (input, seed) => {
        expect(facts(withPool(reordered(input, seed)))).toEqual(facts(withPool(input)));
      }),
      { numRuns: 400 },
    );
  });

  it('the owner is the first candidate, alive, attached through an allowed interface, and without preferences the order is sha256', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = withPool(input);
        if (r.owner === undefined) return;
        expect(r.candidates[0]).toBe(r.owner);
        for (const c of r.candidates) expect(input.aliveSpeakers.has(c)).toBe(true);
        const published = (input.interfaces.get(r.owner) ?? []).map((i) => i.name);
        expect(r.interfaces.length).toBeGreaterThan(0);
        for (const i of r.interfaces) expect(published).toContain(i);
        if (input.advertisements.every((a) => a.preferredNodeSelectors.length === 0)) {
          const ip = input.service.status!.loadBalancer!.ingress![0]!.ip!;
          const digest = (n: string) => createHash('sha256').update(`${n}#${ip}`).digest();
          expect(r.candidates).toEqual(
            [...r.candidates].sort((a, b) => Buffer.compare(digest(a), digest(b))),
          );
        }
      }),
      { numRuns: 400 },
    );
  });
});
