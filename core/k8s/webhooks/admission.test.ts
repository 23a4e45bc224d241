import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bfdProfile, bgpAdv, community, l2Adv, peer, pool } from '../../config/test-support.ts';
import { validatePaths } from './paths.ts';
import { admissionReview, post, responseOf, startHarness, type Harness } from './webhooks.test-support.ts';

type Obj = Record<string, unknown>;
const path = (kind: string) => Object.entries(validatePaths).find(([, k]) => k === kind)?.[0] ?? '';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.webhooks.stop());
beforeEach(() => {
  h.cluster.length = 0;
});

/** Sends the change to its kind's path as kube-apiserver would and returns the response stanza. */
async function review(operation: 'CREATE' | 'UPDATE' | 'DELETE', change: { object?: Obj; oldObject?: Obj }) {
  const body = admissionReview(operation, change);
  const kind = String((change.object ?? change.oldObject)?.['kind']);
  const reply = await post(h.webhooks.port, path(kind), body, { ca: h.webhooks.certificates().caBundle });
  const response = responseOf(reply);
  expect(response['uid']).toBe(body.request.uid);
  return response as {
    allowed: boolean;
    status: { code: number; reason?: string; message?: string };
    warnings?: string[];
  };
}

const pool1 = pool('pool1', { addresses: ['198.18.0.0/16'] });
const bfd1 = bfdProfile('bfd1', { receiveInterval: 100, transmitInterval: 100, detectMultiplier: 3 });
const peer1 = peer('peer1', {
  myASN: 64500,
  peerASN: 64501,
  peerAddress: '198.18.0.1',
  bfdProfile: 'bfd1',
  enableGracefulRestart: true,
});

describe('validating webhooks over HTTPS', () => {
  it('allow a good pool, answering with the request uid and code 200', async () => {
    const response = await review('CREATE', { object: pool1 });
    expect(response).toEqual({ uid: expect.any(String), allowed: true, status: { code: 200 } });
  });

  it('refuse a pool overlapping an existing one, with the message lblab config validate gives', async () => {
    h.cluster.push(pool1);
    const response = await review('CREATE', { object: pool('pool2', { addresses: ['198.18.0.0/24'] }) });
    expect(response.allowed).toBe(false);
    expect(response.status).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'IPAddressPool metallb-system/pool2: spec.addresses[0]: "198.18.0.0/24" overlaps "198.18.0.0/16" (spec.addresses[0] of IPAddressPool "pool1")',
    });
  });

  it('accept what MetalLB native mode refuses: BFD, graceful restart, IPv6 pools, large communities', async () => {
    h.cluster.push(bfd1, pool1);
    expect((await review('CREATE', { object: peer1 })).allowed).toBe(true);
    expect(
      (await review('CREATE', { object: pool('v6', { addresses: ['2001:db8:1::/120'] }) })).allowed,
    ).toBe(true);
    const adv = bgpAdv('adv', { communities: ['large:64500:1:2', '64500:100'], localPref: 50 });
    expect(await review('CREATE', { object: adv })).toMatchObject({ allowed: true, status: { code: 200 } });
  });

  it('refuse deleting a BFDProfile while a BGPPeer uses it, and allow it once the peer is gone', async () => {
    h.cluster.push(bfd1, peer1);
    const refused = await review('DELETE', { oldObject: bfd1 });
    expect(refused.allowed).toBe(false);
    expect(refused.status.message).toBe(
      'BFDProfile metallb-system/bfd1 is in use: BGPPeer metallb-system/peer1: spec.bfdProfile: no BFDProfile "bfd1" is defined',
    );
    h.cluster.splice(h.cluster.indexOf(peer1), 1);
    expect((await review('DELETE', { oldObject: bfd1 })).allowed).toBe(true);
  });

  it('judge a DELETE without oldObject (kube-apiserver before 1.15) by the name the request gives', async () => {
    h.cluster.push(bfd1, peer1);
    const body = admissionReview('DELETE', { oldObject: bfd1 });
    body.request['oldObject'] = null;
    const reply = await post(h.webhooks.port, path('BFDProfile'), body, {
      ca: h.webhooks.certificates().caBundle,
    });
    expect(responseOf(reply)).toMatchObject({ allowed: false, status: { code: 403 } });
  });

  it('refuse a change that breaks another object, naming that object', async () => {
    h.cluster.push(pool('pool3', { addresses: ['198.18.2.0/24'] }), bgpAdv('adv', { aggregationLength: 24 }));
    const response = await review('CREATE', { object: pool('pool4', { addresses: ['198.18.3.0/28'] }) });
    expect(response.status.message).toBe(
      'BGPAdvertisement metallb-system/adv: spec.aggregationLength: aggregationLength 24 is shorter than the /28 in "198.18.3.0/28" (spec.addresses[0] of IPAddressPool "pool4"): the aggregate would cover addresses outside the pool',
    );
  });

  it('do not let an old error elsewhere in the cluster block unrelated writes', async () => {
    // Two overlapping pools created while no webhook ran.
    const a = pool('a', { addresses: ['198.18.0.0/24'] });
    const b = pool('b', { addresses: ['198.18.0.128/25'] });
    h.cluster.push(a, b);
    expect((await review('CREATE', { object: l2Adv('l2', { ipAddressPools: ['a'] }) })).allowed).toBe(true);
    expect((await review('CREATE', { object: pool('c', { addresses: ['198.18.1.0/24'] }) })).allowed).toBe(
      true,
    );
    // ...but an update of either pool that keeps the overlap is refused, and one that ends it is allowed.
    const relabelled = { ...b, metadata: { ...(b['metadata'] as Obj), labels: { tier: 'x' } } };
    const kept = await review('UPDATE', { object: relabelled, oldObject: b });
    expect(kept.status.message).toMatch(/^IPAddressPool metallb-system\/b: spec.addresses\[0\]: .* overlaps/);
    const moved = pool('b', { addresses: ['198.18.5.0/25'] });
    expect((await review('UPDATE', { object: moved, oldObject: b })).allowed).toBe(true);
  });

  it('judge an UPDATE against the other objects, not against its own old version', async () => {
    h.cluster.push(pool1);
    const widened = pool('pool1', { addresses: ['198.18.0.0/15'] });
    expect((await review('UPDATE', { object: widened, oldObject: pool1 })).allowed).toBe(true);
  });

  it('pass warnings on to the user', async () => {
    const response = await review('CREATE', { object: l2Adv('l2', { ipAddressPools: ['nope'] }) });
    expect(response.allowed).toBe(true);
    expect(response.warnings).toEqual([
      'L2Advertisement metallb-system/l2: spec.ipAddressPools[0]: no IPAddressPool "nope" is defined; the name is ignored',
    ]);
  });

  it("refuse a resource outside lblab's namespace, as MetalLB does", async () => {
    const elsewhere = { ...pool1, metadata: { name: 'pool1', namespace: 'default' } };
    const response = await review('CREATE', { object: elsewhere });
    expect(response.status.message).toBe(
      'IPAddressPool default/pool1: metadata.namespace: resource must be in namespace "metallb-system", where MetalLB reads its configuration, not "default"',
    );
  });

  it('refuse a Community alias defined twice across resources, and an advertisement using an unknown alias', async () => {
    h.cluster.push(community('c1', [{ name: 'no-export', value: '65535:65281' }]));
    const twice = await review('CREATE', {
      object: community('c2', [{ name: 'no-export', value: '65535:65282' }]),
    });
    expect(twice.status.message).toBe(
      'Community metallb-system/c2: spec.communities[0].name: duplicate community alias "no-export": already defined in spec.communities[0] of Community "c1"',
    );
    const unknown = await review('CREATE', { object: bgpAdv('adv', { communities: ['no-advertise'] }) });
    expect(unknown.status.message).toBe(
      'BGPAdvertisement metallb-system/adv: spec.communities[0]: "no-advertise" is not a community value and no Community resource defines an alias of that name',
    );
  });
});

describe('validating webhooks: calls that are not proper reviews', () => {
  const ca = () => h.webhooks.certificates().caBundle;

  it('answer an object of another kind than the path validates with a 400 verdict', async () => {
    const body = admissionReview('CREATE', { object: pool1 });
    const response = responseOf(await post(h.webhooks.port, path('BGPPeer'), body, { ca: ca() }));
    expect(response).toMatchObject({
      allowed: false,
      status: { code: 400, message: 'this path validates BGPPeer objects, not IPAddressPool' },
    });
  });

  it('answer an AdmissionReview version they do not serve with a 400 verdict', async () => {
    const body = { ...admissionReview('CREATE', { object: pool1 }), apiVersion: 'admission.k8s.io/v1beta1' };
    const response = responseOf(await post(h.webhooks.port, path('IPAddressPool'), body, { ca: ca() }));
    expect(response).toMatchObject({ uid: body.request.uid, allowed: false, status: { code: 400 } });
  });

  it('answer what is not a review at all with HTTP 400, and unknown paths with 404', async () => {
    expect(await post(h.webhooks.port, path('IPAddressPool'), 'hello', { ca: ca() })).toMatchObject({
      status: 400,
      body: 'expected an AdmissionReview\n',
    });
    expect((await post(h.webhooks.port, '/mutate-anything', {}, { ca: ca() })).status).toBe(404);
  });

  it('fail closed when the current resources cannot be read', async () => {
    const failing = await startHarness({
      provider: { resources: () => Promise.reject(new Error('informer not synced')) },
    });
    try {
      const body = admissionReview('CREATE', { object: pool1 });
      const reply = await post(failing.webhooks.port, path('IPAddressPool'), body, {
        ca: failing.webhooks.certificates().caBundle,
      });
      expect(responseOf(reply)).toMatchObject({
        allowed: false,
        status: { code: 500, message: 'cannot read the current MetalLB resources: informer not synced' },
      });
    } finally {
      await failing.webhooks.stop();
    }
  });
});
