/**
 * `lblab speaker`: the per-node agent. Reads the cluster and MetalLB configuration from files, agrees
 * with the other speakers on who is alive, answers ARP/NDP for the service addresses this node wins and,
 * when BGPPeers select this node, advertises its service addresses over BGP.
 */
import type { Command } from 'commander';
import { randomInt } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { FileClusterSource } from '../../../core/cluster/file-source.ts';
import { internalAddresses } from '../../../core/cluster/internal-addresses.ts';
import type { ClusterSnapshot, Node } from '../../../core/cluster/types.ts';
import { L2Announcer } from '../../../core/l2/announcer/index.ts';
import type { NodeInterface } from '../../../core/l2/election/index.ts';
import { Membership, type NodeRef } from '../../../core/membership/index.ts';
import { Prefix } from '../../../core/net/index.ts';
import { AfPacketPort } from '../../../core/runtime/af-packet-port.ts';
import type { FramePort } from '../../../core/runtime/ports.ts';
import { Random } from '../../../core/runtime/random.ts';
import { RealClock } from '../../../core/runtime/real-clock.ts';
import { watchLoopStalls } from '../../../core/runtime/loop-stalls.ts';
import { UdpPort } from '../../../core/runtime/udp-port.ts';
import { watchFile } from '../../../core/runtime/watch-file.ts';
import { L2Speaker, type SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';
import { interfacesMeta } from '../../../core/speaker/published-interfaces.ts';
import { exitCodes } from '../exit-codes.ts';
import { loadConfigOrExitCode } from '../load-config.ts';
import { processOutput, type Output } from '../output.ts';
import { startSpeakerBgp, type SpeakerBgp, type StopMode } from './speaker-bgp.ts';

/** Main-loop stalls at least this long are logged: a third of the default 300 ms membership detection. */
const STALL_REPORT_MS = 100;

export interface SpeakerArgs {
  node: string;
  cluster: string;
  config: string[];
  membershipPort: string;
  heartbeatMs: string;
  multiplier: string;
  graceMs: string;
  bgpPort: string;
  onStop: string;
  drainMs: string;
  bgpMaxPrefixes: string;
}

export function registerSpeakerCommand(program: Command): void {
  program
    .command('speaker')
    .description(
      'run the per-node speaker: membership, Layer-2 election and ARP/NDP announcements, and BGP (with BFD) to the BGPPeers that select the node',
    )
    .requiredOption('--node <name>', 'this node: a Node in the cluster file, with an InternalIP address')
    .requiredOption(
      '--cluster <file>',
      'YAML with Nodes, Services (status set by the controller) and EndpointSlices',
    )
    .requiredOption('--config <files...>', 'MetalLB resources (IPAddressPool, L2Advertisement, ...)')
    .option('--membership-port <port>', 'UDP port of the speaker membership protocol', '7946')
    .option('--heartbeat-ms <ms>', 'membership heartbeat interval', '100')
    .option('--multiplier <n>', 'missed heartbeats before a peer is declared dead', '3')
    .option('--grace-ms <ms>', 'on SIGTERM, keep answering this long after handing over', '2000')
    .option('--bgp-port <port>', 'TCP port BGP peers connect to (0: never listen, only connect)', '179')
    .option(
      '--on-stop <mode>',
      'BGP on SIGTERM: "restart" leaves routes at graceful-restart peers (upgrades), "drain" sends GRACEFUL_SHUTDOWN, waits --drain-ms, then withdraws',
      'restart',
    )
    .option('--drain-ms <ms>', 'with --on-stop drain: how long routes stay tagged before withdrawal', '2000')
    .option(
      '--bgp-max-prefixes <n>',
      'close a BGP session whose peer sends more routes than this (lblab installs none of them)',
      '10000',
    )
    .action(async (opts: SpeakerArgs) => {
      process.exitCode = await runSpeaker(opts, processOutput);
    });
}

/** Runs until SIGTERM/SIGINT; exit 0 after a clean leave, 1 for invalid config, 2 for bad input. */
export async function runSpeaker(args: SpeakerArgs, out: Output): Promise<number> {
  const fail = (message: string) => (out.stderr(`lblab speaker: ${message}`), exitCodes.error);
  const numbers = {
    membershipPort: Number(args.membershipPort),
    heartbeatMs: Number(args.heartbeatMs),
    multiplier: Number(args.multiplier),
    graceMs: Number(args.graceMs),
    bgpPort: Number(args.bgpPort),
    drainMs: Number(args.drainMs),
    bgpMaxPrefixes: Number(args.bgpMaxPrefixes),
  };
  for (const [name, v] of Object.entries(numbers))
    if (!Number.isInteger(v) || v < 0) return fail(`--${name} must be a whole number`);
  if (args.onStop !== 'restart' && args.onStop !== 'drain')
    return fail('--on-stop must be "restart" or "drain"');

  const config = await loadConfigOrExitCode('speaker', args.config, out);
  if (typeof config === 'number') return config;
  const clock = new RealClock();
  let source: FileClusterSource;
  try {
    source = await FileClusterSource.open(args.cluster, clock);
  } catch (err) {
    return fail((err as Error).message);
  }
  const self = nodeRefs(source.current()).find((n) => n.name === args.node);
  if (!self) return fail(`node ${args.node} is not in ${args.cluster} with an InternalIP address`);

  const local = localInterfaces();
  const ports: FramePort[] = [];
  let udp: UdpPort;
  try {
    for (const i of local) ports.push(AfPacketPort.open(i.name));
    udp = await UdpPort.bind(self.address, numbers.membershipPort);
  } catch (err) {
    for (const p of ports) p.close();
    source.close();
    return fail((err as Error).message);
  }

  const log = (e: SpeakerLogEntry) =>
    out.stdout(`${new Date().toISOString()} ${args.node} ${e.kind}: ${e.message}`);
  const membership = new Membership({
    clock,
    random: new Random(randomInt(2 ** 31)),
    port: udp,
    self,
    nodes: nodeRefs(source.current()),
    options: {
      intervalMs: numbers.heartbeatMs,
      multiplier: numbers.multiplier,
      membershipPort: numbers.membershipPort,
    },
  });
  const announcer = new L2Announcer(clock, ports, { name: args.node });
  const speaker = new L2Speaker({ node: args.node, clock, membership, announcer, log });
  let bgp: SpeakerBgp | undefined;
  if (config.peers.length > 0) {
    try {
      bgp = await startSpeakerBgp({
        node: args.node,
        clock,
        log,
        addresses: internalAddresses(source.current(), args.node),
        listenPort: numbers.bgpPort,
        maxPrefixes: numbers.bgpMaxPrefixes,
      });
    } catch (err) {
      for (const p of ports) p.close();
      udp.close();
      source.close();
      return fail((err as Error).message);
    }
  }
  membership.setMeta(interfacesMeta(local));
  speaker.setConfig(config);
  speaker.setCluster(source.current());
  bgp?.speaker.setConfig(config);
  bgp?.speaker.setCluster(source.current());
  source.onChange((snapshot) => {
    membership.setNodes(nodeRefs(snapshot));
    speaker.setCluster(snapshot);
    bgp?.speaker.setCluster(snapshot);
  });
  source.onError((err) => out.stderr(`lblab speaker: keeping the last good cluster state: ${err.message}`));
  const stopWatching = args.config.map((file) =>
    watchFile(file, clock, 50, () => {
      void loadConfigOrExitCode('speaker', args.config, out).then((next) => {
        if (typeof next === 'number')
          out.stderr('lblab speaker: configuration rejected, keeping the previous one');
        else {
          speaker.setConfig(next);
          bgp?.speaker.setConfig(next);
        }
      });
    }),
  );
  membership.start();
  const stopStallWatch = watchLoopStalls(STALL_REPORT_MS, (ms) =>
    log({ atMs: clock.now(), kind: 'lifecycle', message: `main event loop blocked for ${ms} ms` }),
  );
  out.stdout(
    `lblab speaker ${args.node}: ${self.address}:${numbers.membershipPort}, interfaces ${local.map((i) => i.name).join(', ') || 'none'}`,
  );

  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  out.stdout(`lblab speaker ${args.node}: ${signal}, leaving`);
  source.close();
  stopStallWatch();
  for (const stop of stopWatching) stop();
  await Promise.all([speaker.leave(numbers.graceMs), bgp?.stop(args.onStop as StopMode, numbers.drainMs)]);
  const c = announcer.stats();
  const requests = c.arpRequestsOwned + c.arpRequestsNotOwned + c.nsRequestsOwned + c.nsRequestsNotOwned;
  udp.close();
  for (const p of ports) p.close();
  out.stdout(
    `lblab speaker ${args.node}: stopped; requests ${requests}, responses ${c.responsesSent}, gratuitous ${c.gratuitousSent}, ownership changes ${c.ownershipChanges}, conflicts ${c.conflicts}`,
  );
  return exitCodes.ok;
}

/** Every Node with an InternalIP: the speakers' membership peers. */
function nodeRefs(snapshot: ClusterSnapshot): NodeRef[] {
  return snapshot.nodes.flatMap((n: Node) => {
    const address = n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
    return address ? [{ name: n.metadata.name, address }] : [];
  });
}

/** The host's Ethernet interfaces and their prefixes (loopback and MAC-less links left out). */
function localInterfaces(): NodeInterface[] {
  return Object.entries(networkInterfaces()).flatMap(([name, addrs]) => {
    const usable = (addrs ?? []).filter((a) => !a.internal && a.mac !== '00:00:00:00:00:00' && a.cidr);
    return usable.length === 0 ? [] : [{ name, prefixes: usable.map((a) => Prefix.parse(a.cidr!)) }];
  });
}
