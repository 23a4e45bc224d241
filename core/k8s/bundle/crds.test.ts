import { CustomResourceDefinition as KubernetesCrd } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CrdValidator, toJsonSchema } from './crd-validator.test-support.ts';
import { customResourceDefinitions } from './crds.ts';
import { structuralProblems } from './structural.test-support.ts';

const crds = customResourceDefinitions({ namespace: 'metallb-system', webhooks: true });
const byKind = (kind: string) => {
  const crd = crds.find((c) => c.spec.names.kind === kind);
  if (crd === undefined) throw new Error(`no CRD for ${kind}`);
  return crd;
};

describe('CRDs for metallb.io', () => {
  it("have MetalLB's names, kinds, versions, scope and status subresources", () => {
    const summary = crds.map((c) => ({
      name: c.metadata?.name,
      kind: c.spec.names.kind,
      scope: c.spec.scope,
      versions: c.spec.versions.map((v) => `${v.name}${v.storage ? ' (stored)' : ''}`),
      status: c.spec.versions.every((v) => v.subresources?.status !== undefined),
    }));
    const v1beta1 = ['v1beta1 (stored)'];
    expect(summary).toEqual(
      [
        ['ipaddresspools.metallb.io', 'IPAddressPool', v1beta1],
        ['l2advertisements.metallb.io', 'L2Advertisement', v1beta1],
        ['bgpadvertisements.metallb.io', 'BGPAdvertisement', v1beta1],
        ['bgppeers.metallb.io', 'BGPPeer', ['v1beta1', 'v1beta2 (stored)']],
        ['bfdprofiles.metallb.io', 'BFDProfile', v1beta1],
        ['communities.metallb.io', 'Community', v1beta1],
        ['servicel2statuses.metallb.io', 'ServiceL2Status', v1beta1],
        ['servicebgpstatuses.metallb.io', 'ServiceBGPStatus', v1beta1],
        ['configurationstates.metallb.io', 'ConfigurationState', v1beta1],
      ].map(([name, kind, versions]) => ({ name, kind, scope: 'Namespaced', versions, status: true })),
    );
  });

  it('serve BGPPeer v1beta1 deprecated and convert it through the controller’s /convert', () => {
    const peer = byKind('BGPPeer');
    expect(peer.spec.versions.map((v) => [v.name, v.served, v.deprecated ?? false])).toEqual([
      ['v1beta1', true, true],
      ['v1beta2', true, false],
    ]);
    expect(peer.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: {
          service: {
            name: 'metallb-webhook-service',
            namespace: 'metallb-system',
            path: '/convert',
            port: 443,
          },
        },
      },
    });
    expect(JSON.stringify(peer)).not.toContain('caBundle');
    const without = customResourceDefinitions({ namespace: 'lb', webhooks: false });
    expect(without.find((c) => c.spec.names.kind === 'BGPPeer')?.spec.conversion).toEqual({
      strategy: 'None',
    });
  });

  it.each(crds.map((c) => [c.metadata?.name ?? '', c] as const))(
    '%s passes Kubernetes’ own CustomResourceDefinition schema (kubernetes-models)',
    (_name, crd) => {
      expect(() => new KubernetesCrd(crd as never).validate()).not.toThrow();
    },
  );

  it.each(
    crds.flatMap((c) => c.spec.versions.map((v) => [`${c.metadata?.name ?? ''} ${v.name}`, v] as const)),
  )('%s has a structural schema the API server accepts', (_name, version) => {
    expect(structuralProblems(version.schema.openAPIV3Schema)).toEqual([]);
  });

  it('each stays under 64 KiB, well within the 256 KiB that client-side kubectl apply records in an annotation', () => {
    for (const crd of crds) expect(stringify(crd).length, crd.metadata?.name).toBeLessThan(64 * 1024);
  });

  it('the structural check finds what the API server would refuse (it is not a check that cannot fail)', () => {
    expect(
      structuralProblems({
        type: 'object',
        properties: {
          a: { items: { type: 'string' } },
          b: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'set' },
          c: { type: 'string', pattern: '^(?=x)$' },
        },
        oneOf: [{ type: 'object', properties: { d: { minLength: 1 } } }],
      }),
    ).toEqual([
      'openAPIV3Schema.a: type must be set (or preserve unknown fields)',
      'openAPIV3Schema.b: items of a set must be scalars or atomic maps',
      'openAPIV3Schema.c: pattern uses syntax Go RE2 reads differently',
      'openAPIV3Schema.junctor[0]: type is not allowed inside a logical junctor',
      'openAPIV3Schema.junctor[0].d: is not specified outside the junctor',
    ]);
  });
});

describe('the ajv translation of the Kubernetes extensions', () => {
  const validator = (schema: Parameters<typeof toJsonSchema>[0]) =>
    new CrdValidator([
      {
        ...byKind('Community'),
        spec: {
          ...byKind('Community').spec,
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, spec: schema },
                },
              },
            },
          ],
        },
      },
    ]);
  const check = (v: CrdValidator, spec: unknown) =>
    v.validate({ apiVersion: 'metallb.io/v1', kind: 'Community', spec }).errors;

  it('x-kubernetes-int-or-string takes an integer or a string, nothing else', () => {
    const v = validator({ type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true } } });
    expect(check(v, { port: 80 })).toEqual([]);
    expect(check(v, { port: 'http' })).toEqual([]);
    expect(check(v, { port: true })).not.toEqual([]);
  });

  it('x-kubernetes-preserve-unknown-fields keeps unknown fields; without it they are refused', () => {
    const open = validator({
      type: 'object',
      properties: { a: { type: 'string' } },
      'x-kubernetes-preserve-unknown-fields': true,
    });
    const strict = validator({ type: 'object', properties: { a: { type: 'string' } } });
    expect(check(open, { a: 'x', b: 1 })).toEqual([]);
    expect(check(strict, { a: 'x', b: 1 })).toEqual(['/spec/b: must NOT have additional properties']);
  });

  it('list types: a set refuses equal items, a map refuses items with equal keys', () => {
    const v = validator({
      type: 'object',
      properties: {
        s: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        m: {
          type: 'array',
          items: {
            type: 'object',
            properties: { k: { type: 'string' }, v: { type: 'string' } },
            required: ['k'],
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
        },
      },
    });
    expect(
      check(v, {
        s: ['a', 'b'],
        m: [
          { k: 'a', v: '1' },
          { k: 'b', v: '1' },
        ],
      }),
    ).toEqual([]);
    expect(check(v, { s: ['a', 'a'] })).toHaveLength(1);
    expect(
      check(v, {
        m: [
          { k: 'a', v: '1' },
          { k: 'a', v: '2' },
        ],
      }),
    ).toHaveLength(1);
  });

  it('nulls are pruned as the API server prunes them; an extension it does not know is refused', () => {
    const v = validator({ type: 'object', properties: { a: { type: 'string' } } });
    expect(check(v, { a: null })).toEqual([]);
    expect(() => toJsonSchema({ 'x-kubernetes-embedded-resource': true } as never, false)).toThrow(
      'no translation for x-kubernetes-embedded-resource',
    );
  });
});
