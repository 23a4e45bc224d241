// The membership wire format: compact binary, one datagram per message, decoders that never throw.
export type { WireError, WireErrorReason } from './bytes.ts';
export { type AliveCause, MAX_META_BYTES, type Update, updateByteLength } from './update.ts';
export {
  type DecodeResult,
  type DigestMessage,
  type Message,
  type MessageKind,
  type ProbeMessage,
  type SyncMessage,
  type UpdatesMessage,
  VERSION,
  decodeMessage,
  encodeMessage,
  headerByteLength,
  messageByteLength,
  updatesByteLength,
} from './messages.ts';
