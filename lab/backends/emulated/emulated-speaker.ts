import { BfdEngine } from '../../../core/bfd/engine/index.ts';
import type { LbConfig } from '../../../core/config/model.ts';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import { L2Announcer } from '../../../core/l2/announcer/index.ts';
import type { l2Assignments } from '../../../core/l2/election/index.ts';
import { Membership, type NodeRef } from '../../../core/membership/index.ts';
import { Prefix } from '../../../core/net/index.ts';
import { Random } from '../../../core/runtime/random.ts';
import { BgpSpeaker } from '../../../core/speaker/bgp-speaker.ts';
import { EngineBfdWatcher } from '../../../core/speaker/engine-bfd-watcher.ts';
import { L2Speaker, type L2SpeakerDeps, type SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';
import { interfacesMeta } from '../../../core/speaker/published-interfaces.ts';
import type { Attachment } from '../../model/topology.ts';
import { AddressSet, ownedAddressFilter, type Host, type SimProcess } from '../../sim/index.ts';
import { simBfdNetwork } from './sim-bfd-network.ts';
import { simBgpConnector, simBgpListen } from './sim-bgp-transport.ts';

/** How long a stopping speaker gives its last BGP messages and FINs to leave, as `lblab speaker` does. */
const BGP_FLUSH_MS = 100;

export interface EmulatedSpeaker {
  process: SimProcess;
  speaker: L2Speaker;
  announcer: L2Announcer;
  /** The BGP half, when BGPPeers are configured. */
  bgp?: EmulatedBgp;
  /** The cluster changed (a watch event): both halves see it, when the process gets to run. */
  setCluster(snapshot: ClusterSnapshot): void;
}

export interface EmulatedBgp {
  speaker: BgpSpeaker;
  /**
   * SIGTERM with `--on-stop restart`: stop listening, close every session without NOTIFICATION so
   * graceful-restart peers keep our routes (RFC 4724), BFD AdminDown, then a moment for it all to leave.
   */
  stopForRestart(): Promise<void>;
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
  /** This process replaces one stopped for a restart: the R bit of graceful restart (RFC 4724 §3). */
  restarting: boolean;
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
  const bgp = o.config.peers.length > 0 ? startBgp(o, process) : undefined;
  membership.start();
  return {
    process,
    speaker,
    announcer,
    ...(bgp && { bgp }),
    setCluster: (snapshot) =>
      process.run(() => {
        speaker.setCluster(snapshot);
        bgp?.speaker.setCluster(snapshot);
      }),
  };
}

/**
 * The BGP half as `lblab speaker` runs it (lab/cli/commands/speaker-bgp.ts): core's BgpSpeaker with a
 * listener on port 179 of the node's address, BFD in the same process (the real one has a worker
 * thread; here the engine runs on the process clock, so a frozen speaker's BFD freezes with it).
 */
function startBgp(o: Parameters<typeof startEmulatedSpeaker>[0], process: SimProcess): EmulatedBgp {
  const random = new Random((o.seed ^ 0x2545f491) >>> 0);
  const engine = new BfdEngine({
    clock: process.clock,
    random: random.fork(),
    network: simBfdNetwork(process),
  });
  const speaker = new BgpSpeaker({
    node: o.self.name,
    clock: process.clock,
    random,
    connector: simBgpConnector(process),
    log: o.log,
    restarting: o.restarting,
    bfd: new EngineBfdWatcher(engine, (message) =>
      o.log({ atMs: process.clock.now(), kind: 'bgp', message: `BFD: ${message}` }),
    ),
  });
  const listener = simBgpListen(process, (conn) => speaker.accept(conn), o.self.address);
  speaker.setConfig(o.config);
  speaker.setCluster(o.cluster);
  return {
    speaker,
    async stopForRestart() {
      listener.close();
      speaker.stop('restart', 'speaker stopping (restart)');
      await Promise.all([
        new Promise<void>((resolve) => process.clock.setTimer('bgp:flush', BGP_FLUSH_MS, resolve)),
        engine.shutdown(),
      ]);
    },
  };
}
