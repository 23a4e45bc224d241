import { benchAllocator } from './allocator.ts';
import { benchBgpCodec } from './bgp-codec.ts';
import { benchBfdFrr } from './bfd-frr.ts';
import { benchBgpFrr } from './bgp-frr.ts';
import { benchEmulatedBgpScale } from './emulated-bgp-scale.ts';
import { benchEmulatedScale } from './emulated-scale.ts';
import { benchFailoverPeers } from './failover-peers.ts';
import { benchMembership } from './membership.ts';
import type { Bench } from './types.ts';

/** Every benchmark `npm run bench` runs, in order. Later benches (BGP codec, BFD) register here. */
export const benches: Bench[] = [
  { name: 'allocator', run: benchAllocator },
  { name: 'membership', run: benchMembership },
  { name: 'bgp-codec', run: benchBgpCodec },
  // Root and the Debian daemons, as the netns tests; about 20 s a run.
  { name: 'bgp-frr', run: benchBgpFrr, repetitions: 3 },
  // Root and the Debian daemons; each run is already a distribution (5 silent deaths per timer setting,
  // about 40 s with the FRR node alone), so once is enough.
  { name: 'bfd-frr', run: benchBfdFrr, repetitions: 1 },
  // Root and the Debian daemons; each run is already RUNS fresh labs per system (about ten minutes).
  { name: 'failover-peers', run: benchFailoverPeers, repetitions: 1 },
  // A curve of sizes, each in its own process, minutes at 2000 nodes and 10,000 Services: once is enough.
  { name: 'emulated-scale', run: benchEmulatedScale, repetitions: 1 },
  // Both rack stories of a generated BGP fabric at 100 and 500 nodes, each in its own process: once is enough.
  { name: 'emulated-bgp-scale', run: benchEmulatedBgpScale, repetitions: 1 },
];
