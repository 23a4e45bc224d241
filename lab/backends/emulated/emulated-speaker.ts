import type { LbConfig } from '../../../core/config/model.ts';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import { L2Announcer } from '../../../core/l2/announcer/index.ts';
import type { l2Assignments } from '../../../core/l2/election/index.ts';
import { Membership, type NodeRef } from '../../../core/membership/index.ts';
import { Prefix } from '../../../core/net/index.ts';
import { Random } from '../../../core/runtime/random.ts';
import { L2Speaker, type L2SpeakerDeps, type SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';
import { interfacesMeta } from '../../../core/speaker/published-interfaces.ts';
import type { Attachment } from '../../model/topology.ts';
import { AddressSet, ownedAddressFilter, type Host, type SimProcess } from '../../sim/index.ts';

export interface EmulatedSpeaker {
  process: SimProcess;
  speaker: L2Speaker;
  announcer: L2Announcer;
}

/**
 * Starts the real speaker (membership, election, announcer from core/) as a process on an emulated
 * host: its clock, UDP socket and raw frame ports come from the process, so kill and freeze act on it
 * exactly as SIGKILL and SIGSTOP act on `lblab speaker`.
 */
export function startEmulatedSpeaker(o: {
  host: Host;
  processName: string;
  self: NodeRef;
  nodes: readonly NodeRef[];
  attachments: readonly Attachment[];
  config: LbConfig;
  cluster: ClusterSnapshot;
  seed: number;
  log: (entry: SpeakerLogEntry) => void;
  assign: typeof l2Assignments;
  logOwnership: L2SpeakerDeps['logOwnership'];
  /**
   * Pass the speaker's packet sockets only frames naming addresses it owns (what its announcer acts on),
   * so thousands of emulated speakers do not each decode every ARP broadcast. Answers and conflict
   * reports are unchanged; only the counters of requests for addresses it does not own stay at zero.
   */
  filterFrames: boolean;
}): EmulatedSpeaker {
  const process = o.host.process(o.processName);
  const owned = new AddressSet();
  const filter = o.filterFrames ? ownedAddressFilter(owned) : undefined;
  const membership = new Membership({
    clock: process.clock,
    random: new Random(o.seed),
    port: process.udp(o.self.address, 7946),
    self: o.self,
    nodes: o.nodes,
  });
  const announcer = new L2Announcer(
    process.clock,
    o.attachments.map((a) => process.rawPort(a.interface, filter)),
    { name: o.self.name },
  );
  announcer.onEvent((e) => {
    if (e.kind === 'took-over') owned.add(e.vip.toString());
    if (e.kind === 'released' && !announcer.ownership().some((v) => v.ip.equals(e.vip)))
      owned.delete(e.vip.toString());
  });
  const speaker = new L2Speaker({
    node: o.self.name,
    clock: process.clock,
    membership,
    announcer,
    assign: o.assign,
    logOwnership: o.logOwnership,
    log: o.log,
  });
  membership.setMeta(
    interfacesMeta(
      o.attachments.map((a) => ({
        name: a.interface,
        prefixes: [Prefix.parse(a.ipv4), Prefix.parse(a.ipv6)],
      })),
    ),
  );
  speaker.setConfig(o.config);
  speaker.setCluster(o.cluster);
  membership.start();
  return { process, speaker, announcer };
}
