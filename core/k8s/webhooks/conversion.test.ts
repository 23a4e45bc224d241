import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v1beta2FieldsAnnotation } from './conversion.ts';
import { convertPath } from './paths.ts';
import { conversionReview, post, responseOf, startHarness, type Harness } from './webhooks.test-support.ts';

type Obj = Record<string, unknown>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.webhooks.stop());

async function convert(desired: string, objects: Obj[]) {
  const body = conversionReview(desired, objects);
  const reply = await post(h.webhooks.port, convertPath, body, { ca: h.webhooks.certificates().caBundle });
  const response = responseOf(reply);
  expect(response['uid']).toBe(body.request.uid);
  return response as { convertedObjects?: Obj[]; result: { status: string; message?: string } };
}

/** A BGPPeer as kube-apiserver stores it and hands it to the conversion webhook. */
const stored = (apiVersion: string, spec: Obj, annotations?: Obj): Obj => ({
  apiVersion,
  kind: 'BGPPeer',
  metadata: {
    name: 'spine',
    namespace: 'metallb-system',
    uid: '0b6c1d5e-5d0e-4a8e-9a5e-1f2d3c4b5a69',
    resourceVersion: '48213',
    generation: 3,
    creationTimestamp: '2026-11-02T09:14:05Z',
    labels: { rack: 'r1' },
    ...(annotations === undefined ? {} : { annotations }),
  },
  spec,
  status: {},
});

const sharedSpec = {
  myASN: 64500,
  peerASN: 64501,
  peerAddress: '198.18.0.1',
  sourceAddress: '198.18.0.10',
  peerPort: 1179,
  holdTime: '9s',
  keepaliveTime: '3s',
  routerID: '198.18.0.10',
  password: 'md5-secret',
  bfdProfile: 'fast',
  ebgpMultiHop: true,
  nodeSelectors: [
    { matchLabels: { 'kubernetes.io/hostname': 'n1' } },
    { matchExpressions: [{ key: 'rack', operator: 'In', values: ['r1', 'r2'] }] },
  ],
};

describe('BGPPeer conversion webhook over HTTPS', () => {
  it('converts v1beta1 → v1beta2 → v1beta1 back to the same object', async () => {
    const v1beta1 = stored('metallb.io/v1beta1', sharedSpec, { note: 'kept' });
    const up = await convert('metallb.io/v1beta2', [v1beta1]);
    expect(up.result).toEqual({ status: 'Success' });
    expect(up.convertedObjects).toEqual([{ ...v1beta1, apiVersion: 'metallb.io/v1beta2' }]);
    const down = await convert('metallb.io/v1beta1', up.convertedObjects ?? []);
    expect(down.convertedObjects).toEqual([v1beta1]);
  });

  it('keeps the fields v1beta1 lacks across v1beta2 → v1beta1 → v1beta2, out of the v1beta1 spec', async () => {
    const only2 = {
      enableGracefulRestart: true,
      connectTime: '5s',
      passwordSecret: { name: 'bgp-auth', namespace: 'metallb-system' },
      vrf: 'red',
      dualStackAddressFamily: true,
    };
    const { password: _, ...shared } = sharedSpec;
    const v1beta2 = stored('metallb.io/v1beta2', { ...shared, ...only2 });
    const [down] = (await convert('metallb.io/v1beta1', [v1beta2])).convertedObjects ?? [];
    expect(down?.['spec']).toEqual(shared);
    const annotations = (down?.['metadata'] as { annotations: Obj }).annotations;
    expect(JSON.parse(String(annotations[v1beta2FieldsAnnotation]))).toEqual(only2);
    const back = await convert('metallb.io/v1beta2', [down ?? {}]);
    expect(back.convertedObjects).toEqual([v1beta2]);
  });

  it('converts every object of a list in order and leaves those already at the desired version alone', async () => {
    const a = stored('metallb.io/v1beta1', { ...sharedSpec, peerAddress: '198.18.0.2' });
    const b = stored('metallb.io/v1beta2', {
      myASN: 64500,
      dynamicASN: 'external',
      peerAddress: '198.18.0.3',
    });
    const response = await convert('metallb.io/v1beta2', [a, b]);
    expect(
      response.convertedObjects?.map((o) => [o['apiVersion'], (o['spec'] as Obj)['peerAddress']]),
    ).toEqual([
      ['metallb.io/v1beta2', '198.18.0.2'],
      ['metallb.io/v1beta2', '198.18.0.3'],
    ]);
    expect(response.convertedObjects?.[1]).toEqual(b);
  });

  it('fails the review for a version BGPPeer is not served as', async () => {
    const response = await convert('metallb.io/v1', [stored('metallb.io/v1beta1', sharedSpec)]);
    expect(response).toEqual({
      uid: expect.any(String),
      result: {
        status: 'Failure',
        message:
          'cannot convert to "metallb.io/v1": BGPPeer is served as metallb.io/v1beta1 and metallb.io/v1beta2',
      },
    });
  });

  it('fails the review for an object that is not a BGPPeer, or a v1beta1 one whose kept fields are not JSON', async () => {
    const pool = { apiVersion: 'metallb.io/v1beta1', kind: 'IPAddressPool', metadata: { name: 'p' } };
    expect((await convert('metallb.io/v1beta2', [pool])).result).toEqual({
      status: 'Failure',
      message:
        'cannot convert metallb.io/v1beta1 IPAddressPool: only metallb.io/v1beta1 and metallb.io/v1beta2 BGPPeers',
    });
    const broken = stored('metallb.io/v1beta1', sharedSpec, { [v1beta2FieldsAnnotation]: '{vrf:' });
    expect((await convert('metallb.io/v1beta2', [broken])).result.message).toBe(
      `BGPPeer "spine": annotation ${v1beta2FieldsAnnotation} is not a JSON object of v1beta2 spec fields; remove it or restore it`,
    );
  });
});
