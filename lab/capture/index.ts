// Reads pcap and pcapng captures (classic pcap also while it is being written) and decodes the traffic
// lblab's timelines care about: ARP and NDP (with core/l2/wire), BGP (reassembled from TCP, decoded by
// core/bgp) and BFD Control packets.
export { CaptureDecoder, readCapture, readCaptureFile, type DecodedCapture } from './capture-decoder.ts';
export type { CaptureEvent, CaptureProtocol, EventDetails } from './events.ts';
export type { CaptureFormat, CaptureInterface } from './records.ts';
export { CaptureStream } from './capture-stream.ts';
export { followFile, type FollowOptions } from './follow-file.ts';
export { CaptureFileError, CaptureFollowError, CaptureFormatError } from './errors.ts';
export { eventJson } from './event-json.ts';
