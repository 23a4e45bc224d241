// Many BFD sessions over one network (RFC 5880 demultiplexing, RFC 5881 single-hop, RFC 5883 multihop).
export {
  BfdEngine,
  type BfdEngineCounters,
  type BfdEngineOptions,
  type BfdPeerStateChange,
  type BfdSessionInfo,
} from './engine.ts';
export type { BfdNetwork, BfdPath, BfdPeerSpec } from './network.ts';
export type { BfdEchoNetwork, BfdEchoPath } from '../echo/network.ts';
export { BfdConfigError } from '../session/config-error.ts';
export { isPathFailure, diagnosticText, type BfdStateChange } from '../session/state-change.ts';
