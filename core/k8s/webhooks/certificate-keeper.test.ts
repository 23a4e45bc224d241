import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { CertificateKeeper, type KeeperEvent, type KeeperOptions } from './certificate-keeper.ts';
import { FakeKube } from './fake-kube.test-support.ts';
import { secretKeys, type WebhookCertificates } from './secret-certificates.ts';
import { validatePaths } from './paths.ts';
import {
  namespace,
  post,
  realNowMs,
  serviceName,
  serviceNameLong,
  startHarness,
  type Harness,
} from './webhooks.test-support.ts';

const day = 24 * 3600 * 1000;
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const pemCount = (bundle: string) => bundle.match(/BEGIN CERTIFICATE/g)?.length ?? 0;
const notAfterMs = (pem: string) => Date.parse(new X509Certificate(pem).validTo);
const notBeforeMs = (pem: string) => Date.parse(new X509Certificate(pem).validFrom);

/** A keeper on a fake API and a virtual clock whose 0 is `epochMs` on the wall clock. */
function keeper(kube: FakeKube, options: Partial<KeeperOptions> = {}) {
  const clock = new VirtualClock(0);
  const events: KeeperEvent[] = [];
  const served: WebhookCertificates[] = [];
  const k = new CertificateKeeper({
    kube,
    namespace,
    clock,
    clockEpochMs: Date.UTC(2026, 10, 1),
    resyncMs: day,
    onCertificates: (c) => served.push(c),
    onEvent: (e) => events.push(e),
    ...options,
  });
  /** Moves virtual time to `ms`, letting every pass that falls due finish before the next timer. */
  const runUntil = async (ms: number) => {
    await k.idle();
    for (let due = clock.nextDue(); due !== undefined && due <= ms; due = clock.nextDue()) {
      clock.step();
      await k.idle();
    }
    clock.advanceTo(ms);
  };
  return { k, clock, events, served, runUntil };
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.webhooks.stop();
  harness = undefined;
});

describe('webhook certificates', () => {
  it('are created at start: a kubernetes.io/tls Secret with the CA, and every caBundle patched', async () => {
    const kube = new FakeKube();
    const { k, events } = keeper(kube);
    const first = await k.start();
    k.stop();
    expect(kube.secret?.type).toBe('kubernetes.io/tls');
    expect(Object.keys(kube.secret?.data ?? {}).sort()).toEqual(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
    expect(kube.secretText(secretKeys.cert)).toBe(first.serving.cert);
    expect(kube.webhooks?.map((w) => w.caBundle)).toEqual(
      Object.keys(validatePaths).map(() => b64(first.caBundle)),
    );
    expect(kube.conversion?.caBundle).toBe(b64(first.caBundle));
    expect(events.map((e) => e.kind)).toEqual(['issued', 'ca-bundle-written', 'ca-bundle-written']);
    expect(events[0]).toMatchObject({ what: 'ca-and-serving', reason: 'the Secret does not exist' });
  });

  it('verify for both service DNS names with the CA as the only trust root, and for no other name', async () => {
    harness = await startHarness();
    const ca = harness.webhooks.certificates().caBundle;
    const port = harness.webhooks.port;
    for (const servername of [serviceName, serviceNameLong]) {
      expect((await post(port, '/convert', {}, { ca, servername })).status).toBe(400);
    }
    await expect(
      post(port, '/convert', {}, { ca, servername: 'metallb-webhook-service.default.svc' }),
    ).rejects.toThrow(/does not match certificate's altnames/);
    const other = (await startHarness()).webhooks;
    try {
      await expect(post(port, '/convert', {}, { ca: other.certificates().caBundle })).rejects.toThrow(
        /unable to verify|self[- ]signed/,
      );
    } finally {
      await other.stop();
    }
  });

  it('are reused from a valid Secret: the same certificate, nothing written', async () => {
    const kube = new FakeKube();
    const first = keeper(kube);
    const issued = await first.k.start();
    first.k.stop();
    const writes = kube.writes.length;
    const second = keeper(kube);
    expect((await second.k.start()).serving.cert).toBe(issued.serving.cert);
    second.k.stop();
    expect(kube.writes.length).toBe(writes);
    expect(second.events).toEqual([{ kind: 'adopted', servingNotAfter: expect.any(String) }]);
  });

  it('are renewed before they expire, in virtual time, and the server then presents the new one', async () => {
    harness = await startHarness();
    const h = harness;
    const ca = () => h.webhooks.certificates().caBundle;
    const old = h.webhooks.certificates();
    const before = await post(h.webhooks.port, '/convert', {}, { ca: ca() });
    expect(before.fingerprint).toBe(new X509Certificate(old.serving.cert).fingerprint256);
    // Due with a third of the lifetime left, on the wall clock: in virtual time, from the epoch.
    const lifetime = notAfterMs(old.serving.cert) - notBeforeMs(old.serving.cert);
    const dueAt = notAfterMs(old.serving.cert) - lifetime / 3 - h.epochMs;
    const runUntil = async (ms: number) => {
      await h.webhooks.idle();
      for (let due = h.clock.nextDue(); due !== undefined && due <= ms; due = h.clock.nextDue()) {
        h.clock.step();
        await h.webhooks.idle();
      }
    };
    await runUntil(dueAt - 1);
    expect(h.webhooks.certificates().serving.cert).toBe(old.serving.cert);
    await runUntil(dueAt + day);
    const renewed = h.webhooks.certificates();
    expect(renewed.serving.cert).not.toBe(old.serving.cert);
    expect(h.epochMs + h.clock.now()).toBeLessThan(notAfterMs(old.serving.cert));
    // Same CA: the caBundles did not change, only the Secret was written.
    expect(renewed.caBundle).toBe(old.caBundle);
    expect(h.kube.secretText(secretKeys.cert)).toBe(renewed.serving.cert);
    const after = await post(h.webhooks.port, '/convert', {}, { ca: ca() });
    expect(after.fingerprint).toBe(new X509Certificate(renewed.serving.cert).fingerprint256);
    expect(realNowMs).toBeGreaterThan(notBeforeMs(renewed.serving.cert));
  });

  it('replace a Secret holding garbage, and the server presents the new ones', async () => {
    const kube = new FakeKube();
    kube.put({
      metadata: { name: 'metallb-webhook-cert', namespace },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': b64('garbage'), 'tls.key': b64('more garbage'), 'ca.crt': b64('junk') },
    });
    const events: KeeperEvent[] = [];
    harness = await startHarness({ kube, onEvent: (e) => events.push(e) });
    const served = harness.webhooks.certificates();
    expect(events[0]).toMatchObject({
      kind: 'issued',
      what: 'ca-and-serving',
      reason: 'ca.crt holds no PEM certificate',
    });
    expect(kube.secretText(secretKeys.caCert)).toBe(served.caBundle);
    const reply = await post(harness.webhooks.port, '/convert', {}, { ca: served.caBundle });
    expect(reply.fingerprint).toBe(new X509Certificate(served.serving.cert).fingerprint256);
  });

  it("fill in MetalLB's empty Opaque Secret in place, keeping its type and labels", async () => {
    const kube = new FakeKube();
    const labels = { 'app.kubernetes.io/name': 'metallb' };
    kube.put({ metadata: { name: 'metallb-webhook-cert', namespace, labels }, type: 'Opaque' });
    const { k } = keeper(kube);
    await k.start();
    k.stop();
    expect(kube.secret).toMatchObject({ type: 'Opaque', metadata: { labels } });
    expect(kube.secretText(secretKeys.key)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('leave a Secret of another type alone, saying why, and keep retrying', async () => {
    const kube = new FakeKube();
    kube.put({ metadata: { name: 'metallb-webhook-cert', namespace }, type: 'kubernetes.io/basic-auth' });
    const { k, events, clock, runUntil } = keeper(kube);
    void k.start();
    await k.idle();
    await runUntil(clock.now() + 10_000);
    k.stop();
    const failures = events.filter((e) => e.kind === 'sync-failed');
    expect(failures.map((e) => e.retryInMs)).toEqual([1000, 2000, 4000, 8000]);
    expect(failures[0]).toMatchObject({
      error:
        'Secret metallb-system/metallb-webhook-cert has type kubernetes.io/basic-auth, which cannot hold the webhook certificates and cannot be changed: delete it and lblab creates a kubernetes.io/tls one',
    });
    expect(kube.secret?.data).toBeUndefined();
  });

  it('renew the CA with a third of its lifetime left, trusting the old CA beside the new one until it expires', async () => {
    const kube = new FakeKube();
    const { k, events, runUntil } = keeper(kube, { caLifetimeMs: 90 * day, servingLifetimeMs: 30 * day });
    const first = await k.start();
    await runUntil(61 * day);
    const servingRenewals = events.filter((e) => e.kind === 'issued' && e.what === 'serving');
    expect(servingRenewals.length).toBe(3);
    const renewed = events.filter((e) => e.kind === 'issued' && e.what === 'ca-and-serving');
    expect(renewed.length).toBe(2);
    expect(renewed[1]).toMatchObject({
      reason: expect.stringMatching(/^the CA has less than a third of its lifetime left/),
    });
    const bundle = kube.secretText(secretKeys.caCert) ?? '';
    expect(pemCount(bundle)).toBe(2);
    expect(bundle.endsWith(first.ca.cert)).toBe(true);
    expect(kube.conversion?.caBundle).toBe(b64(bundle));
    // Once the old CA has expired, the next pass drops it from the bundle.
    await runUntil(92 * day);
    k.stop();
    expect(pemCount(kube.secretText(secretKeys.caCert) ?? '')).toBe(1);
    expect(kube.webhooks?.every((w) => w.caBundle === kube.conversion?.caBundle)).toBe(true);
  });

  it('patch a caBundle again that a re-applied manifest emptied, at the next resync', async () => {
    const kube = new FakeKube();
    const { k, clock, runUntil } = keeper(kube);
    const first = await k.start();
    for (const w of kube.webhooks ?? []) w.caBundle = '';
    await runUntil(clock.now() + day);
    k.stop();
    expect(kube.webhooks?.map((w) => w.caBundle)).toEqual(kube.webhooks?.map(() => b64(first.caBundle)));
  });

  it('skip a CRD without webhook conversion and a missing webhook configuration, saying so once', async () => {
    const kube = new FakeKube();
    kube.conversion = { strategy: 'None', caBundle: '' };
    kube.webhooks = undefined;
    const { k, events, clock, runUntil } = keeper(kube);
    await k.start();
    await runUntil(clock.now() + 3 * day);
    k.stop();
    expect(events.filter((e) => e.kind.startsWith('ca-bundle'))).toEqual([
      {
        kind: 'ca-bundle-skipped',
        target: 'ValidatingWebhookConfiguration metallb-webhook-configuration',
        reason: 'it does not exist',
      },
      {
        kind: 'ca-bundle-skipped',
        target: 'CustomResourceDefinition bgppeers.metallb.io',
        reason: 'its conversion strategy is None, not Webhook',
      },
    ]);
    expect(kube.conversion.caBundle).toBe('');
  });

  it('are served at start even when a caBundle cannot be written, which a later pass then writes', async () => {
    const kube = new FakeKube();
    kube.webhookWriteError = new Error('403: cannot patch validatingwebhookconfigurations');
    const { k, events, clock, runUntil } = keeper(kube);
    const first = await k.start();
    await k.idle();
    expect(events.at(-1)).toEqual({
      kind: 'sync-failed',
      error: '403: cannot patch validatingwebhookconfigurations',
      retryInMs: 1000,
    });
    kube.webhookWriteError = undefined;
    await runUntil(clock.now() + 1000);
    k.stop();
    expect(kube.webhooks?.every((w) => w.caBundle === b64(first.caBundle))).toBe(true);
  });

  it('keep serving what kube-apiserver trusts while a new CA cannot be put in the caBundles', async () => {
    const kube = new FakeKube();
    const { k, served, runUntil } = keeper(kube, { caLifetimeMs: 90 * day, servingLifetimeMs: 30 * day });
    const first = await k.start();
    await runUntil(59 * day);
    kube.webhookWriteError = new Error('503: etcd leader changed');
    await runUntil(61 * day);
    expect(served.at(-1)?.caBundle).toBe(first.caBundle);
    kube.webhookWriteError = undefined;
    await runUntil(62 * day);
    k.stop();
    const renewed = served.at(-1)?.caBundle ?? '';
    expect(pemCount(renewed)).toBe(2);
    expect(kube.webhooks?.every((w) => w.caBundle === b64(renewed))).toBe(true);
  });

  it('reject start when stopped before the first certificates are ready', async () => {
    const kube = new FakeKube();
    kube.put({ metadata: { name: 'metallb-webhook-cert', namespace }, type: 'kubernetes.io/basic-auth' });
    const { k } = keeper(kube);
    const started = k.start();
    await k.idle();
    k.stop();
    await expect(started).rejects.toThrow('stopped before the webhook certificates were ready');
  });

  it('settle on one Secret when two replicas start together: the loser adopts the winner', async () => {
    const kube = new FakeKube();
    const a = keeper(kube);
    const b = keeper(kube);
    const [ca, cb] = await Promise.all([a.k.start(), b.k.start()]);
    a.k.stop();
    b.k.stop();
    expect(cb.serving.cert).toBe(ca.serving.cert);
    expect(kube.writes.filter((w) => w.startsWith('Secret'))).toHaveLength(1);
  });
});
