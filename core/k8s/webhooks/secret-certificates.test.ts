import { beforeAll, describe, expect, it } from 'vitest';
import { issueCa, issueServing, serviceDnsNames, type KeyPairPem } from './certificates.ts';
import { inspectSecret, secretData, type WebhookCertificates } from './secret-certificates.ts';

const day = 24 * 3600 * 1000;
const t0 = Date.UTC(2026, 10, 1);
const validity = { notBefore: new Date(t0), notAfter: new Date(t0 + 90 * day) };
const names = serviceDnsNames('metallb-webhook-service', 'metallb-system');

let ca: KeyPairPem;
let otherCa: KeyPairPem;
let good: WebhookCertificates;
beforeAll(async () => {
  [ca, otherCa] = await Promise.all([issueCa('ca', validity), issueCa('other', validity)]);
  good = { caBundle: ca.cert, ca, serving: await issueServing(ca, names, validity) };
});

const inspect = (c: WebhookCertificates, atMs = t0 + day) => inspectSecret(secretData(c), names, atMs);

describe('certificates read back from the Secret', () => {
  it('check out, and fall due with a third of their lifetime left', () => {
    expect(inspect(good)).toMatchObject({
      ca: { state: 'valid', renewAtMs: t0 + 60 * day },
      serving: { state: 'valid', renewAtMs: t0 + 60 * day },
      certificates: good,
    });
    expect(inspect(good, t0 + 60 * day).serving).toEqual({
      state: 'due',
      reason: 'tls.crt has less than a third of its lifetime left (until Jan 30 00:00:00 2027 GMT)',
    });
    expect(inspect(good, t0 + 90 * day).ca).toEqual({
      state: 'invalid',
      reason: 'the CA expired at Jan 30 00:00:00 2027 GMT',
    });
  });

  it('are refused when the serving certificate names another namespace', async () => {
    const elsewhere = await issueServing(ca, serviceDnsNames('metallb-webhook-service', 'lblab'), validity);
    expect(inspect({ ...good, serving: elsewhere }).serving).toEqual({
      state: 'invalid',
      reason:
        'tls.crt does not name metallb-webhook-service.metallb-system.svc, metallb-webhook-service.metallb-system.svc.cluster.local',
    });
  });

  it('are refused when the serving certificate comes from another CA, or a key is not its certificate’s', async () => {
    const foreign = await issueServing(otherCa, names, validity);
    expect(inspect({ ...good, serving: foreign }).serving).toEqual({
      state: 'invalid',
      reason: 'tls.crt was not issued by the CA in ca.crt',
    });
    expect(inspect({ ...good, serving: { ...good.serving, key: foreign.key } }).serving).toEqual({
      state: 'invalid',
      reason: 'tls.key is not the key of tls.crt',
    });
    expect(inspect({ ...good, ca: { ...ca, key: otherCa.key } }).ca).toEqual({
      state: 'invalid',
      reason: 'ca.key is not the key of ca.crt',
    });
  });

  it('are refused when ca.crt holds a certificate that is no CA', () => {
    const notCa = { ...good, caBundle: good.serving.cert, ca: good.serving };
    expect(inspect(notCa).ca).toEqual({ state: 'invalid', reason: 'ca.crt is not a CA certificate' });
  });
});
