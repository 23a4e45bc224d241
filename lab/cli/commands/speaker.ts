/**
 * `lblab speaker`: the per-node agent. Reads the cluster and MetalLB configuration from files, agrees
 * with the other speakers on who is alive, answers ARP/NDP for the service addresses this node wins and,
 * when BGPPeers select this node, advertises its service addresses over BGP.
 */
import type { Command } from 'commander';
import { randomInt } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { FileClusterSource } from '../../../core/cluster/file-source.ts';
import { SpeakerMetrics } from '../../../core/metrics/speaker-metrics.ts';
import { internalAddresses } from '../../../core/cluster/internal-addresses.ts';
import type { ClusterSnapshot, Node } from '../../../core/cluster/types.ts';
import type { NodeInterface } from '../../../core/l2/election/index.ts';
import { defaultOptions, type NodeRef } from '../../../core/membership/index.ts';
import { Prefix } from '../../../core/net/index.ts';
import {
  startLivenessWorker,
  type LivenessWorker,
} from '../../../core/runtime/liveness-worker/liveness-worker.ts';
import type { MetricsServer } from '../../../core/runtime/metrics-server.ts';
import { RealClock } from '../../../core/runtime/real-clock.ts';
import { watchLoopStalls } from '../../../core/runtime/loop-stalls.ts';
import { speakerLogLine } from '../../../core/runtime/speaker-log-line.ts';
import { watchFile } from '../../../core/runtime/watch-file.ts';
import { L2Speaker, type SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';
import { MAIN_LOOP_TIMEOUT_MS } from '../../../core/speaker/liveness/index.ts';
import { speakerReadiness } from '../../../core/speaker/readiness.ts';
import { interfacesMeta } from '../../../core/speaker/published-interfaces.ts';
import { exitCodes } from '../exit-codes.ts';
import { loadConfigOrExitCode } from '../load-config.ts';
import { processOutput, type Output } from '../output.ts';
import { readMembershipKey } from './membership-key.ts';
import { addMetricsOptions, metricsPort, serveMetrics, type MetricsArgs } from './metrics-endpoint.ts';
import { watchLabControl } from './lab-control.ts';
import { startSpeakerBgp, type SpeakerBgp, type StopMode } from './speaker-bgp.ts';

/** Main-loop stalls at least this long are logged and counted (the liveness thread does not need them short). */
const STALL_REPORT_MS = 100;

export interface SpeakerArgs extends MetricsArgs {
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
  membershipKeyFile?: string;
  membershipKeyRotationMs: string;
  mainLoopTimeoutMs: string;
  labControl?: string;
}

export function registerSpeakerCommand(program: Command): void {
  const command = program
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
    .option('--heartbeat-ms <ms>', 'membership heartbeat interval', String(defaultOptions().intervalMs))
    .option(
      '--multiplier <n>',
      'missed heartbeats before a peer is declared dead',
      String(defaultOptions().multiplier),
    )
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
    .option(
      '--membership-key-file <file>',
      'shared key (16 bytes or more, the same on every node) that seals membership datagrams; re-read when it changes',
    )
    .option(
      '--membership-key-rotation-ms <ms>',
      'after the key file changes, keep sealing with the old key this long (both accepted), then accept the old one this long more',
      '30000',
    )
    .option(
      '--main-loop-timeout-ms <ms>',
      "stop vouching for this node (peers take over its addresses) when the speaker's main event loop has not run for this long",
      String(MAIN_LOOP_TIMEOUT_MS),
    )
    .option(
      '--lab-control <file>',
      'lab fault injection: each line "stall MS" appended to this file blocks the main event loop for MS ms (at most 10 minutes)',
    );
  addMetricsOptions(command).action(async (opts: SpeakerArgs) => {
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
    membershipKeyRotationMs: Number(args.membershipKeyRotationMs),
    mainLoopTimeoutMs: Number(args.mainLoopTimeoutMs),
  };
  const flag = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  for (const [name, v] of Object.entries(numbers))
    if (!Number.isInteger(v) || v < 0) return fail(`${flag(name)} must be a whole number`);
  for (const name of ['heartbeatMs', 'multiplier', 'mainLoopTimeoutMs'] as const)
    if (numbers[name] === 0) return fail(`${flag(name)} must be at least 1`);
  if (args.onStop !== 'restart' && args.onStop !== 'drain')
    return fail('--on-stop must be "restart" or "drain"');
  const port = metricsPort(args);
  if (typeof port !== 'number') return fail(port.error);

  const config = await loadConfigOrExitCode('speaker', args.config, out);
  if (typeof config === 'number') return config;
  let key: Uint8Array | undefined;
  if (args.membershipKeyFile !== undefined) {
    try {
      key = await readMembershipKey(args.membershipKeyFile);
    } catch (err) {
      return fail((err as Error).message);
    }
  } else {
    out.stderr(
      'lblab speaker: warning: membership is not authenticated (no --membership-key-file): any host on the node network can forge or replay membership datagrams and move service addresses',
    );
  }
  const clock = new RealClock();
  let source: FileClusterSource;
  try {
    source = await FileClusterSource.open(args.cluster, clock);
  } catch (err) {
    return fail((err as Error).message);
  }
  const self = nodeRefs(source.current()).find((n) => n.name === args.node);
  if (!self) return fail(`node ${args.node} is not in ${args.cluster} with an InternalIP address`);

  const log = (e: SpeakerLogEntry) => out.stdout(speakerLogLine(args.node, e));
  const local = localInterfaces();
  let liveness: LivenessWorker;
  try {
    liveness = await startLivenessWorker(
      {
        self,
        nodes: nodeRefs(source.current()),
        meta: interfacesMeta(local),
        interfaces: local.map((i) => i.name),
        membership: {
          intervalMs: numbers.heartbeatMs,
          multiplier: numbers.multiplier,
          membershipPort: numbers.membershipPort,
        },
        ...(key && {
          // Counters start at the wall clock in µs: a restarted speaker's are above its last life's.
          auth: { key, counterStart: Date.now() * 1000, rotationMs: numbers.membershipKeyRotationMs },
        }),
        mainLoopTimeoutMs: numbers.mainLoopTimeoutMs,
        seed: randomInt(2 ** 31),
      },
      clock,
    );
  } catch (err) {
    source.close();
    return fail((err as Error).message);
  }
  const { client } = liveness;
  liveness.onExit((code) => {
    out.stderr(
      `lblab speaker: the liveness thread exited (code ${code}); this node cannot vouch for itself, stopping`,
    );
    process.exit(exitCodes.error);
  });
  const speaker = new L2Speaker({ node: args.node, clock, membership: client, announcer: client, log });
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
      client.close('the BGP listener could not start');
      await liveness.shutdown();
      source.close();
      return fail((err as Error).message);
    }
  }
  const metrics = new SpeakerMetrics({
    node: args.node,
    clock,
    l2: speaker,
    liveness: client,
    ...(bgp && { bgp: bgp.speaker, bfd: bgp.bfd }),
  });
  let endpoint: MetricsServer | undefined;
  try {
    endpoint = await serveMetrics(args, port, metrics, () => speakerReadiness(client));
  } catch (err) {
    client.close('the metrics endpoint could not start');
    await Promise.all([liveness.shutdown(), bgp?.stop('restart', 0)]);
    source.close();
    return fail((err as Error).message);
  }
  speaker.setConfig(config);
  speaker.setCluster(source.current());
  bgp?.speaker.setConfig(config);
  bgp?.speaker.setCluster(source.current());
  metrics.k8sClient.configLoaded();
  metrics.k8sClient.processed(true);
  source.onChange((snapshot) => {
    client.setNodes(nodeRefs(snapshot));
    speaker.setCluster(snapshot);
    bgp?.speaker.setCluster(snapshot);
    metrics.k8sClient.processed(true);
  });
  source.onError((err) => {
    metrics.k8sClient.processed(false);
    out.stderr(`lblab speaker: keeping the last good cluster state: ${err.message}`);
  });
  const stopWatching = args.config.map((file) =>
    watchFile(file, clock, 50, () => {
      void loadConfigOrExitCode('speaker', args.config, out).then((next) => {
        if (typeof next === 'number') {
          metrics.k8sClient.configRejected();
          out.stderr('lblab speaker: configuration rejected, keeping the previous one');
        } else {
          speaker.setConfig(next);
          bgp?.speaker.setConfig(next);
          metrics.k8sClient.configLoaded();
        }
      });
    }),
  );
  const keyFile = args.membershipKeyFile;
  if (keyFile !== undefined) {
    stopWatching.push(
      watchFile(keyFile, clock, 50, () => {
        readMembershipKey(keyFile).then(
          (next) => client.rotateKey(next),
          (err: Error) => out.stderr(`lblab speaker: keeping the current membership key: ${err.message}`),
        );
      }),
    );
  }
  if (args.labControl !== undefined) stopWatching.push(watchLabControl(args.labControl, clock, log));
  const stalls = { count: 0, longestMs: 0 };
  const stopStallWatch = watchLoopStalls(STALL_REPORT_MS, (ms) => {
    stalls.count++;
    stalls.longestMs = Math.max(stalls.longestMs, ms);
    metrics.mainLoopStalled(ms);
    log({ atMs: clock.now(), kind: 'lifecycle', message: `main event loop blocked for ${ms} ms` });
  });
  out.stdout(
    `lblab speaker ${args.node}: ${self.address}:${numbers.membershipPort}, interfaces ${local.map((i) => i.name).join(', ') || 'none'}, membership ${key ? 'authenticated' : 'NOT authenticated'}, metrics ${endpoint ? `on port ${endpoint.port}` : 'off'}`,
  );

  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  out.stdout(`lblab speaker ${args.node}: ${signal}, leaving`);
  source.close();
  await endpoint?.close();
  stopStallWatch();
  for (const stop of stopWatching) stop();
  await Promise.all([speaker.leave(numbers.graceMs), bgp?.stop(args.onStop as StopMode, numbers.drainMs)]);
  const stats = await liveness.shutdown();
  const a = stats?.announcer;
  const m = stats?.membership;
  const requests = a
    ? a.arpRequestsOwned + a.arpRequestsNotOwned + a.nsRequestsOwned + a.nsRequestsNotOwned
    : 0;
  out.stdout(
    `lblab speaker ${args.node}: stopped; requests ${requests}, responses ${a?.responsesSent ?? 0}, gratuitous ${a?.gratuitousSent ?? 0}, ownership changes ${a?.ownershipChanges ?? 0}, conflicts ${a?.conflicts ?? 0}; membership refused ${m?.unauthenticated ?? 0} unauthenticated, ${m?.forged ?? 0} forged, ${m?.replayed ?? 0} replayed; main loop stalls ${stalls.count} (longest ${stalls.longestMs} ms)`,
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
