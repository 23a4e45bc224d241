/**
 * BFD authentication (RFC 5880 §6.7) for a BFDProfile, from annotations: MetalLB's BFDProfile CRD has no
 * field for it, and an extra spec field would be pruned or refused when the same file is applied to a
 * cluster running MetalLB, while annotations pass through unchanged. The Secret is read later, once
 * every document is known (checks/bfd-auth.ts).
 */
import { joinPath, type IssueSink } from './issues.ts';
import type { BfdAuthType } from './model.ts';
import type { BfdAuthRequest } from './parsed.ts';

const prefix = 'bfd.lblab.io/';
export const authTypeAnnotation = `${prefix}auth-type`;
export const authKeyIdAnnotation = `${prefix}auth-key-id`;
export const authSecretAnnotation = `${prefix}auth-secret`;
const known = [authTypeAnnotation, authKeyIdAnnotation, authSecretAnnotation];

const authTypes: readonly BfdAuthType[] = [
  'simple-password',
  'keyed-md5',
  'meticulous-keyed-md5',
  'keyed-sha1',
  'meticulous-keyed-sha1',
];

/** `metadata.annotations["bfd.lblab.io/auth-type"]`: where issues about an annotation point. */
export function annotationPath(key: string): string {
  return joinPath('metadata.annotations', key);
}

/**
 * The authentication the annotations ask for, or undefined when they ask for none or are wrong (each
 * problem is logged). The Secret is looked up in the profile's own namespace, where MetalLB reads Secrets.
 */
export function readBfdAuthAnnotations(
  annotations: Readonly<Record<string, string>>,
  namespace: string,
  log: IssueSink,
): BfdAuthRequest | undefined {
  for (const key of Object.keys(annotations)) {
    // A misspelt key would otherwise leave BFD unauthenticated without a word.
    if (key.startsWith(prefix) && !known.includes(key)) {
      log.warn(annotationPath(key), `unknown annotation; lblab reads ${known.join(', ')}`);
    }
  }
  const typeText = annotations[authTypeAnnotation];
  const keyIdText = annotations[authKeyIdAnnotation];
  const secret = annotations[authSecretAnnotation];
  if (typeText === undefined && secret === undefined) {
    if (keyIdText !== undefined) {
      log.warn(annotationPath(authKeyIdAnnotation), `has no effect unless ${authTypeAnnotation} is set`);
    }
    return undefined;
  }
  const before = log.errorCount();
  const problem = (key: string, message: string) => log.error(annotationPath(key), message);
  if (typeText === undefined) problem(authSecretAnnotation, `${authTypeAnnotation} must be set as well`);
  if (secret === undefined) problem(authTypeAnnotation, `${authSecretAnnotation} must be set as well`);
  const type = authTypes.find((t) => t === typeText);
  if (typeText !== undefined && type === undefined) {
    problem(
      authTypeAnnotation,
      `${JSON.stringify(typeText)} is not an authentication type: use one of ${authTypes.join(', ')}`,
    );
  }
  if (secret === '') problem(authSecretAnnotation, 'must name a Secret');
  // RFC 5880 §4.2: Auth Key ID is one octet; any value is allowed, the default is lblab's choice.
  const keyId = keyIdText === undefined ? 1 : /^[0-9]{1,3}$/.test(keyIdText) ? Number(keyIdText) : NaN;
  if (!(keyId <= 255)) {
    problem(authKeyIdAnnotation, `${JSON.stringify(keyIdText)} is not a key ID: use an integer 0..255`);
  }
  if (log.errorCount() !== before || type === undefined || secret === undefined) return undefined;
  return { type, keyId, secret: { name: secret, namespace } };
}
