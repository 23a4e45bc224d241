/**
 * Issuing the webhooks' certificates: a self-signed CA and a serving certificate it signs for the
 * webhook Service's DNS names. kube-apiserver verifies them with Go's crypto/x509, which wants the names
 * in subjectAltName (not the CN), a CA marked as one with keyCertSign, and positive serial numbers.
 */
// @peculiar/x509 reads decorator metadata at import: reflect-metadata must be evaluated first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

/** A certificate and its private key, both PEM (the key as PKCS#8, which node:tls reads). */
export interface KeyPairPem {
  cert: string;
  key: string;
}

export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

// ECDSA P-256: accepted by Go's TLS, and keys are made in a millisecond (RSA 2048 takes ~100 ms).
const keyAlgorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signingAlgorithm = { name: 'ECDSA', hash: 'SHA-256' } as const;
const crypto = webcrypto;
type CryptoKey = webcrypto.CryptoKey;

/** `metallb-webhook-service.<namespace>.svc` and its `.cluster.local` form, as kube-apiserver dials it. */
export function serviceDnsNames(service: string, namespace: string): string[] {
  return [`${service}.${namespace}.svc`, `${service}.${namespace}.svc.cluster.local`];
}

export async function issueCa(commonName: string, validity: Validity): Promise<KeyPairPem> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: [{ CN: [commonName] }],
      ...validity,
      signingAlgorithm,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return { cert: `${cert.toString('pem')}\n`, key: await keyPem(keys.privateKey) };
}

export async function issueServing(
  ca: KeyPairPem,
  dnsNames: readonly string[],
  validity: Validity,
): Promise<KeyPairPem> {
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await crypto.subtle.importKey('pkcs8', pemBody(ca.key), keyAlgorithm, false, ['sign']);
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: [{ CN: [dnsNames[0] ?? 'webhook'] }],
      issuer: caCert.subject,
      ...validity,
      signingAlgorithm,
      publicKey: keys.publicKey,
      signingKey: caKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(dnsNames.map((value) => ({ type: 'dns', value }))),
        await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return { cert: `${cert.toString('pem')}\n`, key: await keyPem(keys.privateKey) };
}

async function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  return crypto.subtle.generateKey(keyAlgorithm, true, ['sign', 'verify']);
}

/** PEM ends with a newline, as files and `kubectl create secret tls` have it (and the Secret is read back). */
async function keyPem(key: CryptoKey): Promise<string> {
  return `${x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY')}\n`;
}

function pemBody(pem: string): ArrayBuffer {
  const [der] = x509.PemConverter.decode(pem);
  if (der === undefined) throw new TypeError('no PEM block in the key');
  return der;
}

/** 16 random bytes, top bit clear: RFC 5280 §4.1.2.2 wants a positive serial, unique per issuer. */
function serialNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
