import { BfdEngine } from '../../../core/bfd/engine/index.ts';
import type { LbConfig } from '../../../core/config/model.ts';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import type { L2Announcer } from '../../../core/l2/announcer/index.ts';
import type { l2AssignmentSteps } from '../../../core/l2/election/index.ts';
import type { ConvergedView, Meta, NodeRef } from '../../../core/membership/index.ts';
import { Prefix } from '../../../core/net/index.ts';
import { Random } from '../../../core/runtime/random.ts';
import { BgpSpeaker } from '../../../core/speaker/bgp-speaker.ts';
import { EngineBfdWatcher } from '../../../core/speaker/engine-bfd-watcher.ts';
import { L2Speaker, type L2SpeakerDeps, type SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';
import { livenessPair, MAIN_LOOP_TIMEOUT_MS } from '../../../core/speaker/liveness/index.ts';
import { interfacesMeta } from '../../../core/speaker/published-interfaces.ts';
import type { Attachment } from '../../model/topology.ts';
import { AddressSet, ownedAddressFilter, type Host, type SimProcess } from '../../sim/index.ts';
import { simBfdNetwork } from './sim-bfd-network.ts';
import { simBgpConnector, simBgpListen } from './sim-bgp-transport.ts';
import { threadedBfd } from './threaded-bfd.ts';

/** How long a stopping speaker gives its last BGP messages and FINs to leave, as `lblab speaker` does. */
const BGP_FLUSH_MS = 100;

export interface EmulatedSpeaker {
  /** The speaker's process; its main thread runs the election and BGP (a stall() there is a busy loop). */
  process: SimProcess;
  speaker: L2Speaker;
  /** The announcer, on the liveness thread: what the node answers for right now. */
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
 * host, with the threads `lblab speaker` has: the main one (election, BGP), the liveness one (membership,
 * ARP/NDP) and, with BFD peers, the BFD one. Clocks and sockets come from the threads, so kill and freeze
 * act on it exactly as SIGKILL and SIGSTOP act on `lblab speaker`, and a stall of the main thread leaves
 * the others running as it does there.
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
  assign: typeof l2AssignmentSteps;
  logOwnership: L2SpeakerDeps['logOwnership'];
  /**
   * Pass the speaker's packet sockets only frames naming addresses it owns (what its announcer acts on),
   * so thousands of emulated speakers do not each decode every ARP broadcast. Answers and conflict
   * reports are unchanged; only the counters of requests for addresses it does not own stay at zero.
   */
  filterFrames: boolean;
  /** This process replaces one stopped for a restart: the R bit of graceful restart (RFC 4724 §3). */
  restarting: boolean;
  /**
   * Where membership and the announcer run: on their own thread, as `lblab speaker` runs them, or on the
   * main thread, as it ran them before it had a liveness thread (to show what a busy main loop did then).
   */
  livenessThread: 'own' | 'main';
  /** Membership starts from this view of the running cluster (the lab's whole-cluster start). */
  converged?: ConvergedView;
}): EmulatedSpeaker {
  const process = o.host.process(o.processName);
  const liveness = o.livenessThread === 'own' ? process.thread('liveness') : process;
  const owned = new AddressSet();
  const filter = o.filterFrames ? ownedAddressFilter(owned) : undefined;
  const { agent, client } = livenessPair({
    mainClock: process.clock,
    clock: liveness.clock,
    random: new Random(o.seed),
    udp: liveness.udp(o.self.address, 7946),
    ports: o.attachments.map((a) => liveness.rawPort(a.interface, filter)),
    self: o.self,
    nodes: o.nodes,
    meta: speakerMeta(o.attachments),
    ...(o.converged && { converged: o.converged }),
    mainLoopTimeoutMs: MAIN_LOOP_TIMEOUT_MS,
    log: o.log,
  });
  const announcer = agent.announcer;
  announcer.onEvent((e) => {
    if (e.kind === 'took-over') owned.add(e.vip.toString());
    if (e.kind === 'released' && !announcer.ownership().some((v) => v.ip.equals(e.vip)))
      owned.delete(e.vip.toString());
  });
  const speaker = new L2Speaker({
    node: o.self.name,
    clock: process.clock,
    membership: client,
    announcer: client,
    assign: o.assign,
    logOwnership: o.logOwnership,
    log: o.log,
  });
  speaker.setConfig(o.config);
  speaker.setCluster(o.cluster);
  const bgp = o.config.peers.length > 0 ? startBgp(o, process) : undefined;
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

/** What the speaker on a node with these attachments publishes in membership: its interfaces' prefixes. */
export function speakerMeta(attachments: readonly Attachment[]): Meta {
  return interfacesMeta(
    attachments.map((a) => ({ name: a.interface, prefixes: [Prefix.parse(a.ipv4), Prefix.parse(a.ipv6)] })),
  );
}

/**
 * The BGP half as `lblab speaker` runs it (lab/cli/commands/speaker-bgp.ts): core's BgpSpeaker with a
 * listener on port 179 of the node's address, and BFD on a thread of its own, as the BFD worker runs it
 * (a frozen speaker's BFD freezes with it; a busy main thread's does not).
 */
function startBgp(o: Parameters<typeof startEmulatedSpeaker>[0], process: SimProcess): EmulatedBgp {
  const random = new Random((o.seed ^ 0x2545f491) >>> 0);
  const bfdThread = process.thread('bfd');
  const engine = new BfdEngine({
    clock: bfdThread.clock,
    random: random.fork(),
    network: simBfdNetwork(bfdThread),
  });
  const speaker = new BgpSpeaker({
    node: o.self.name,
    clock: process.clock,
    random,
    connector: simBgpConnector(process),
    log: o.log,
    restarting: o.restarting,
    bfd: threadedBfd(
      new EngineBfdWatcher(engine, (message) =>
        o.log({ atMs: bfdThread.clock.now(), kind: 'bgp', message: `BFD: ${message}` }),
      ),
      process.clock,
      bfdThread.clock,
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
        new Promise<void>((resolve) =>
          bfdThread.clock.setTimer('bfd: shutdown', 0, () => void engine.shutdown().then(resolve)),
        ),
      ]);
    },
  };
}
