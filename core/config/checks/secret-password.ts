/**
 * Reading a password out of a Secret that a resource names, as MetalLB's passwordFromSecretForPeer does:
 * the Secret must exist, be of type kubernetes.io/basic-auth and hold a "password". A BGPPeer's
 * passwordSecret and a BFDProfile's auth-secret annotation both go through here, so they fail alike.
 */
import type { IssueLog, ResourceContext } from '../issues.ts';
import type { PasswordSecret } from '../parsed.ts';
import { basicAuthType } from '../secret.ts';

export interface SecretTargets {
  /** The Secrets that parsed, by name (all live in MetalLB's namespace). */
  secrets: ReadonlyMap<string, PasswordSecret>;
  /** Secrets that were declared but failed to parse: referring to them is not a second error. */
  brokenSecrets: ReadonlySet<string>;
}

/**
 * The password, or undefined after logging why there is none at `path` (the field or annotation that
 * names the Secret) of the resource `ctx`. A broken Secret yields undefined silently: its own error says it.
 */
export function secretPassword(
  ref: { name: string; namespace: string },
  targets: SecretTargets,
  ctx: ResourceContext,
  path: string,
  log: IssueLog,
): string | undefined {
  const name = JSON.stringify(ref.name);
  const secret = targets.secrets.get(ref.name);
  if (secret === undefined) {
    if (!targets.brokenSecrets.has(ref.name)) {
      log.error(ctx, path, `no Secret ${name} is defined in namespace ${JSON.stringify(ref.namespace)}`);
    }
    return undefined;
  }
  if (secret.type !== basicAuthType) {
    log.error(
      ctx,
      path,
      `Secret ${name} has type ${JSON.stringify(secret.type)}; it must be ${basicAuthType}`,
    );
    return undefined;
  }
  if (secret.password === undefined) log.error(ctx, path, `Secret ${name} has no "password" key`);
  return secret.password;
}
