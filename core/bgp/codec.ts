// The BGP-4 wire codec: one entry point for the session, the RIB and the lab.

export type { AfiSafi } from './afi.ts';
export { AFI_IPV4, AFI_IPV6, SAFI_UNICAST } from './afi.ts';
export {
  BgpWireError,
  type ErrorHandling,
  ErrorCode,
  HeaderErrorSubcode,
  OpenErrorSubcode,
  UpdateErrorSubcode,
  FsmErrorSubcode,
  CeaseSubcode,
  RouteRefreshErrorSubcode,
  UNSPECIFIC,
} from './wire-error.ts';

export type { CodecContext } from './messages/context.ts';
export { type BgpMessage, encodeMessage, decodeMessage } from './messages/message.ts';
export { MessageFramer } from './messages/framer.ts';
export { maxMessageBytes, HEADER_BYTES, MessageType } from './messages/header.ts';
export { type OpenMessage, BGP_VERSION } from './messages/open.ts';
export type { UpdateMessage } from './messages/update.ts';
export {
  type NotificationMessage,
  notificationFor,
  ceaseWithCommunication,
  shutdownCommunication,
} from './messages/notification.ts';
export type { KeepaliveMessage } from './messages/keepalive.ts';
export {
  type RouteRefreshMessage,
  RouteRefreshSubtype,
  isKnownRouteRefreshSubtype,
} from './messages/route-refresh.ts';
export { endOfRib, isEndOfRib } from './messages/end-of-rib.ts';
export { updateOverheadBytes, prefixBudgetBytes, prefixesBytes } from './messages/size.ts';
export { prefixBytes } from './messages/nlri.ts';

export { type Capability, type UnknownCapability, unsupportedCapability } from './capabilities/capability.ts';
export type { MultiprotocolCapability } from './capabilities/multiprotocol.ts';
export type { FourOctetAsCapability } from './capabilities/four-octet-as.ts';
export type { RouteRefreshCapability } from './capabilities/route-refresh.ts';
export type { EnhancedRouteRefreshCapability } from './capabilities/enhanced-route-refresh.ts';
export {
  type GracefulRestartCapability,
  type GracefulRestartFamily,
  MAX_RESTART_TIME_SEC,
} from './capabilities/graceful-restart.ts';

export type { PathAttributes } from './attributes/path-attributes.ts';
export { type AsPathSegment, type AsPathSegmentType, AS_TRANS, pathLength } from './attributes/as-path.ts';
export type { Origin } from './attributes/origin.ts';
export type { Aggregator } from './attributes/aggregator.ts';
export { WellKnownCommunity, community } from './attributes/communities.ts';
export type { LargeCommunity } from './attributes/large-communities.ts';
export type { MpReach } from './attributes/mp-reach.ts';
export type { MpUnreach } from './attributes/mp-unreach.ts';
export type { UnknownAttribute } from './attributes/unknown.ts';
