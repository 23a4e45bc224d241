/**
 * The webhooks' certificates as kept in Secret `metallb-webhook-cert`: `tls.crt`/`tls.key` (the serving
 * certificate, so the Secret is a valid kubernetes.io/tls one) and `ca.crt`/`ca.key` (the CA, key names as
 * MetalLB's cert-controller writes them). What is read back is checked before it is trusted: a Secret
 * holding anything else (garbage, another CA's certificate, names of another namespace) is reissued.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { KeyPairPem } from './certificates.ts';

export interface WebhookCertificates {
  /**
   * PEM of the CA certificates kube-apiserver is told to trust: the current CA first, then earlier CAs
   * not yet expired, so that a server still presenting a certificate of the old CA is trusted while
   * the new one spreads.
   */
  caBundle: string;
  ca: KeyPairPem;
  serving: KeyPairPem;
}

export const secretKeys = { caCert: 'ca.crt', caKey: 'ca.key', cert: 'tls.crt', key: 'tls.key' } as const;

/** A certificate that checks out until `renewAtMs`, when less than a third of its lifetime is left. */
export type Health =
  { state: 'valid'; notAfterMs: number; renewAtMs: number } | { state: 'due' | 'invalid'; reason: string };

export interface Inspection {
  ca: Health;
  serving: Health;
  /** Set when the CA is usable (valid or due): what the Secret holds, for reuse or to sign with. */
  certificates?: WebhookCertificates;
}

export function secretData(c: WebhookCertificates): Record<string, string> {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  return {
    [secretKeys.caCert]: b64(c.caBundle),
    [secretKeys.caKey]: b64(c.ca.key),
    [secretKeys.cert]: b64(c.serving.cert),
    [secretKeys.key]: b64(c.serving.key),
  };
}

/** Judges a Secret's data (base64 values, as the API returns them; undefined when there is no Secret). */
export function inspectSecret(
  data: Readonly<Record<string, string>> | undefined,
  dnsNames: readonly string[],
  nowMs: number,
): Inspection {
  if (data === undefined) {
    const missing = { state: 'invalid', reason: 'the Secret does not exist' } as const;
    return { ca: missing, serving: missing };
  }
  const text = (key: string) => {
    const value = data[key];
    return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
  };
  const caBundle = text(secretKeys.caCert) ?? '';
  const [caPem, ...older] = pemCertificates(caBundle);
  const caKey = text(secretKeys.caKey);
  const caCheck = checkPair(caPem, caKey, secretKeys.caCert, secretKeys.caKey);
  if (!caCheck.ok) return { ca: invalid(caCheck.reason), serving: invalid('the CA is not usable') };
  if (!caCheck.cert.ca)
    return {
      ca: invalid(`${secretKeys.caCert} is not a CA certificate`),
      serving: invalid('the CA is not usable'),
    };
  const ca = health(caCheck.cert, nowMs, 'the CA');
  if (ca.state === 'invalid') return { ca, serving: invalid('the CA is not usable') };
  const certificates: WebhookCertificates = {
    // Earlier CAs stay only while unexpired; the bundle never grows without bound.
    caBundle: [caPem!, ...older.filter((pem) => stillValid(pem, nowMs))].join(''),
    ca: { cert: caPem!, key: caKey! },
    serving: { cert: text(secretKeys.cert) ?? '', key: text(secretKeys.key) ?? '' },
  };
  return { ca, serving: servingHealth(certificates.serving, caCheck.cert, dnsNames, nowMs), certificates };
}

function servingHealth(
  serving: KeyPairPem,
  ca: X509Certificate,
  dnsNames: readonly string[],
  nowMs: number,
): Health {
  const [pem] = pemCertificates(serving.cert);
  const check = checkPair(pem, serving.key, secretKeys.cert, secretKeys.key);
  if (!check.ok) return invalid(check.reason);
  const { cert } = check;
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) {
    return invalid(`${secretKeys.cert} was not issued by the CA in ${secretKeys.caCert}`);
  }
  // kube-apiserver (Go) matches only subjectAltName entries, never the subject's CN.
  const missing = dnsNames.filter((name) => cert.checkHost(name, { subject: 'never' }) === undefined);
  if (missing.length > 0) return invalid(`${secretKeys.cert} does not name ${missing.join(', ')}`);
  return health(cert, nowMs, secretKeys.cert);
}

function health(cert: X509Certificate, nowMs: number, what: string): Health {
  const notBefore = Date.parse(cert.validFrom);
  const notAfter = Date.parse(cert.validTo);
  if (nowMs < notBefore) return invalid(`${what} is not valid before ${cert.validFrom}`);
  if (nowMs >= notAfter) return invalid(`${what} expired at ${cert.validTo}`);
  const renewAtMs = notAfter - (notAfter - notBefore) / 3;
  if (nowMs >= renewAtMs) {
    return {
      state: 'due',
      reason: `${what} has less than a third of its lifetime left (until ${cert.validTo})`,
    };
  }
  return { state: 'valid', notAfterMs: notAfter, renewAtMs };
}

function checkPair(
  pem: string | undefined,
  keyPem: string | undefined,
  certName: string,
  keyName: string,
): { ok: true; cert: X509Certificate } | { ok: false; reason: string } {
  if (pem === undefined) return { ok: false, reason: `${certName} holds no PEM certificate` };
  if (keyPem === undefined) return { ok: false, reason: `${keyName} is missing` };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch (err) {
    return { ok: false, reason: `${certName} is not a certificate: ${messageOf(err)}` };
  }
  try {
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) {
      return { ok: false, reason: `${keyName} is not the key of ${certName}` };
    }
  } catch (err) {
    return { ok: false, reason: `${keyName} is not a private key: ${messageOf(err)}` };
  }
  return { ok: true, cert };
}

function stillValid(pem: string, nowMs: number): boolean {
  try {
    return nowMs < Date.parse(new X509Certificate(pem).validTo);
  } catch {
    return false;
  }
}

function pemCertificates(text: string): string[] {
  return (text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\s*/g) ?? []).map(
    (block) => `${block.trim()}\n`,
  );
}

function invalid(reason: string): Health {
  return { state: 'invalid', reason };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
