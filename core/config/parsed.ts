/**
 * Resources after each has been checked on its own, before the checks that span resources (names,
 * overlaps, references). Kinds that the model resolves away (Community, Secret) keep their own shapes.
 */
import type {
  BFDProfile,
  BfdAuth,
  BGPAdvertisement,
  BGPPeer,
  BgpCommunity,
  IPAddressPool,
  L2Advertisement,
  ResourceMeta,
} from './model.ts';

export interface CommunityAliases {
  meta: ResourceMeta;
  aliases: { name: string; community: BgpCommunity; index: number }[];
}

export interface PasswordSecret {
  meta: ResourceMeta;
  type: string;
  password?: string;
}

/** A BFDProfile's authentication before its Secret is read: everything but the key. */
export type BfdAuthRequest = Omit<BfdAuth, 'key'>;

export type Parsed =
  | { kind: 'IPAddressPool'; value: IPAddressPool }
  | { kind: 'L2Advertisement'; value: L2Advertisement }
  /** `communities` stays empty until the Community aliases are known; `communityTexts` are as written. */
  | { kind: 'BGPAdvertisement'; value: BGPAdvertisement; communityTexts: string[] }
  /** `auth` stays unset until the Secrets are known; `authRequest` is what the annotations ask for. */
  | { kind: 'BFDProfile'; value: BFDProfile; authRequest?: BfdAuthRequest }
  | { kind: 'BGPPeer'; value: BGPPeer }
  | { kind: 'Community'; value: CommunityAliases }
  | { kind: 'Secret'; value: PasswordSecret };

export type Kind = Parsed['kind'];
export type ParsedOf<K extends Kind> = Extract<Parsed, { kind: K }>;
