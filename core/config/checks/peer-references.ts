/**
 * A BGPPeer's references: its BFD profile must exist, and its password Secret must exist, be of type
 * kubernetes.io/basic-auth and hold a "password" (MetalLB's passwordFromSecretForPeer).
 */
import type { IssueLog } from '../issues.ts';
import type { BGPPeer } from '../model.ts';
import type { PasswordSecret } from '../parsed.ts';
import { basicAuthType } from '../secret.ts';
import { contextOf } from './where.ts';

export interface PeerReferenceTargets {
  bfdProfiles: ReadonlySet<string>;
  secrets: ReadonlyMap<string, PasswordSecret>;
  /** Names of resources that were declared but failed to parse: referring to them is not a second error. */
  brokenBfdProfiles: ReadonlySet<string>;
  brokenSecrets: ReadonlySet<string>;
}

export function checkPeerReferences(peer: BGPPeer, targets: PeerReferenceTargets, log: IssueLog): void {
  const ctx = contextOf('BGPPeer', peer.meta);
  const profile = peer.bfdProfile;
  if (profile !== undefined && !targets.bfdProfiles.has(profile) && !targets.brokenBfdProfiles.has(profile)) {
    log.error(ctx, 'spec.bfdProfile', `no BFDProfile ${JSON.stringify(profile)} is defined`);
  }
  const ref = peer.passwordSecret;
  if (ref === undefined) return;
  if (ref.namespace !== peer.meta.namespace) {
    log.error(
      ctx,
      'spec.passwordSecret.namespace',
      `the Secret must be in ${JSON.stringify(peer.meta.namespace)}, where MetalLB reads Secrets`,
    );
    return;
  }
  const secret = targets.secrets.get(ref.name);
  if (secret === undefined) {
    if (!targets.brokenSecrets.has(ref.name)) {
      log.error(
        ctx,
        'spec.passwordSecret.name',
        `no Secret ${JSON.stringify(ref.name)} is defined in namespace ${JSON.stringify(ref.namespace)}`,
      );
    }
    return;
  }
  const name = JSON.stringify(ref.name);
  if (secret.type !== basicAuthType) {
    log.error(
      ctx,
      'spec.passwordSecret.name',
      `Secret ${name} has type ${JSON.stringify(secret.type)}; it must be ${basicAuthType}`,
    );
  } else if (secret.password === undefined) {
    log.error(ctx, 'spec.passwordSecret.name', `Secret ${name} has no "password" key`);
  } else if (/[\r\n]/.test(secret.password)) {
    log.error(ctx, 'spec.passwordSecret.name', `the password in Secret ${name} must not contain line breaks`);
  } else {
    peer.password = secret.password;
  }
}
