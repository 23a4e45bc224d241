// The emulated network the emulated backend is built from: switches, links, Linux-like hosts and
// processes in virtual time, seeded. Everything above the wire is the real core/ code.
export { Network, type NetworkOptions } from './network.ts';
export { Segment, type SegmentOptions, type MacTableEntry } from './segment.ts';
export { Link } from './link.ts';
export type { Impairment } from './impairment.ts';
export { Partition } from './partitions.ts';
export { Host } from './host.ts';
export { NetInterface, type AttachOptions, type IfAddress } from './interface.ts';
export { AddressSet } from './address-set.ts';
export { ipKeyOf, type IpKey } from './addresses.ts';
export { LINUX_NEIGHBOUR_DEFAULTS, type NeighbourParams } from './neighbour-params.ts';
export type { NeighbourState, NeighbourView } from './neighbour-state.ts';
export { SimProcess, type ProcessState } from './process.ts';
export { SimStream } from './tcp-stream.ts';
export type { FrameFilter } from './raw-port.ts';
export { ownedAddressFilter } from './owned-filter.ts';
export { EchoServer, type ProberOptions } from './probes.ts';
export type { TraceEvent, TraceListener, FrameDropReason, PacketDropReason } from './trace.ts';
export {
  SimAddressInUseError,
  SimAddressNotLocalError,
  SimConfigError,
  SimConnectTimeoutError,
  SimConnectionRefusedError,
  SimDuplicateError,
  SimNetworkUnreachableError,
  SimStalledError,
  SimTimeoutError,
  SimUnknownHostError,
  SimUnknownInterfaceError,
} from './errors.ts';
