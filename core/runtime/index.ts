export type { Clock, Timer } from './clock.ts';
export { NamedTimers } from './clock.ts';
export { RealClock } from './real-clock.ts';
export { VirtualClock } from './virtual-clock.ts';
export { Random } from './random.ts';
export { watchFile } from './watch-file.ts';
export type { DatagramAddress, DatagramPort, FramePort } from './ports.ts';
export {
  MemoryDatagramNetwork,
  MemoryDatagramPort,
  MemoryFramePort,
  MemorySegment,
} from './memory-segment.ts';
export { UdpPort } from './udp-port.ts';
export { AfPacketError, AfPacketPort } from './af-packet-port.ts';
export { NativeAddonMissingError } from './native/addon.ts';
