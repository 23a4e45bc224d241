/**
 * A BGPPeer's references: its BFD profile must exist, and its password Secret must be in the peer's
 * namespace and usable (checks/secret-password.ts); the password must also fit on one line of the
 * routing daemon's configuration, as MetalLB requires.
 */
import type { IssueLog } from '../issues.ts';
import type { BGPPeer } from '../model.ts';
import { secretPassword, type SecretTargets } from './secret-password.ts';
import { contextOf } from './where.ts';

export interface PeerReferenceTargets extends SecretTargets {
  bfdProfiles: ReadonlySet<string>;
  /** Names of profiles that were declared but failed to parse: referring to them is not a second error. */
  brokenBfdProfiles: ReadonlySet<string>;
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
  const password = secretPassword(ref, targets, ctx, 'spec.passwordSecret.name', log);
  if (password === undefined) return;
  if (/[\r\n]/.test(password)) {
    log.error(
      ctx,
      'spec.passwordSecret.name',
      `the password in Secret ${JSON.stringify(ref.name)} must not contain line breaks`,
    );
  } else {
    peer.password = password;
  }
}
