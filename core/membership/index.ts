// Speaker membership: which speakers run, agreed across the cluster in well under a second, at a
// per-node cost that does not grow with the cluster. See DESIGN.md beside this file.
export { Membership, type MembershipConfig, type Refusal } from './membership.ts';
export { ConvergedView } from './converged-view.ts';
export { EMPTY_META, isEmptyMeta } from './meta-text.ts';
export { MembershipAuth, type MembershipAuthOptions } from './auth/membership-auth.ts';
export { type MembershipOptions, defaultOptions } from './options.ts';
export type { Change, Counters, Member, MemberColumns, Meta, NodeRef, State } from './types.ts';
export { MembershipConfigError, MembershipEncodeError, MembershipMetaError } from './errors.ts';
export { detectionKind, type DetectionKind } from './reasons.ts';
export { Ring } from './ring.ts';
export * from './wire/index.ts';
