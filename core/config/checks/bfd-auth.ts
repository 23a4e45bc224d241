/**
 * Completes a BFDProfile's authentication (asked for by its annotations) with the key from its Secret,
 * refusing keys that the authentication type cannot carry.
 */
import { annotationPath, authSecretAnnotation } from '../bfd-auth-annotations.ts';
import type { IssueLog } from '../issues.ts';
import type { BfdAuthType } from '../model.ts';
import type { ParsedOf } from '../parsed.ts';
import { secretPassword, type SecretTargets } from './secret-password.ts';
import { contextOf } from './where.ts';

/** The longest key each type carries, and where the RFC says so. */
const keyLimits: Record<BfdAuthType, { octets: number; section: string }> = {
  // RFC 5880 §4.2.2: the password is 1 to 16 octets and sent as it is.
  'simple-password': { octets: 16, section: '§4.2.2' },
  // RFC 5880 §4.2.3: the key fills the 16-octet digest field, "padded ... with trailing zero bytes".
  'keyed-md5': { octets: 16, section: '§4.2.3' },
  'meticulous-keyed-md5': { octets: 16, section: '§4.2.3' },
  // RFC 5880 §4.2.4: likewise, a 20-octet field for SHA1.
  'keyed-sha1': { octets: 20, section: '§4.2.4' },
  'meticulous-keyed-sha1': { octets: 20, section: '§4.2.4' },
};

export function resolveBfdAuth(profile: ParsedOf<'BFDProfile'>, targets: SecretTargets, log: IssueLog): void {
  const request = profile.authRequest;
  if (request === undefined) return;
  const ctx = contextOf('BFDProfile', profile.value.meta);
  const path = annotationPath(authSecretAnnotation);
  const password = secretPassword(request.secret, targets, ctx, path, log);
  if (password === undefined) return;
  const key = new TextEncoder().encode(password);
  const limit = keyLimits[request.type];
  // An empty key would be no secret at all: an MD5 or SHA1 key of only padding is known to everyone.
  if (key.length === 0 || key.length > limit.octets) {
    log.error(
      ctx,
      path,
      `the password in Secret ${JSON.stringify(request.secret.name)} is ${key.length} octets; a ${request.type} key is 1 to ${limit.octets} octets (RFC 5880 ${limit.section})`,
    );
    return;
  }
  profile.value.auth = { ...request, key };
}
