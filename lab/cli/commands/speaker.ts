/**
 * `lblab speaker`: the per-node agent. Reads the cluster and MetalLB configuration from files or from the
 * Kubernetes API (speaker-inputs*.ts), agrees with the other speakers on who is alive, answers ARP/NDP
 * for the service addresses this node wins and, when BGPPeers select this node, advertises its service
 * addresses over BGP. In Kubernetes it also reports what it announces (status objects, Events).
 */
import type { Command } from 'commander';
import { randomInt } from 'node:crypto';
import { networkInterfaces } from 'node:os';
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
import { describeStall, watchLoopStalls } from '../../../core/runtime/loop-stalls.ts';
import { speakerLogLine } from '../../../core/runtime/speaker-log-line.ts';
import { L2Speaker, type SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';
import { MAIN_LOOP_TIMEOUT_MS } from '../../../core/speaker/liveness/index.ts';
import { speakerReadiness } from '../../../core/speaker/readiness.ts';
import { interfacesMeta } from '../../../core/speaker/published-interfaces.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';
import { AnnouncementReports } from '../../../core/k8s/speaker/announcement-reports.ts';
import type { LbConfig } from '../../../core/config/index.ts';
import type { AnnouncedAddress } from '../../../core/bgp/rib/advertised-routes.ts';
import { fileInputs, type SpeakerInputs } from './speaker-inputs.ts';
import { addMetricsOptions, metricsPort, serveMetrics, type MetricsArgs } from './metrics-endpoint.ts';
import { watchLabControl } from './lab-control.ts';
import { startSpeakerBgp, type SpeakerBgp, type StopMode } from './speaker-bgp.ts';

/** Main-loop stalls at least this long are logged and counted (the liveness thread does not need them short). */
const STALL_REPORT_MS = 100;

export interface SpeakerArgs extends MetricsArgs {
  node?: string;
  cluster?: string;
  config?: string[];
  kubeconfig?: string;
  namespace?: string;
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
      'run the per-node speaker: membership, Layer-2 election and ARP/NDP announcements, and BGP (with BFD) to the BGPPeers that select the node. With --cluster and --config it reads files; without both it reads the Kubernetes API (--kubeconfig, else in-cluster, else $KUBECONFIG or ~/.kube/config) and writes ServiceL2Status/ServiceBGPStatus objects and Events',
    )
    .option(
      '--node <name>',
      'this node: a Node with an InternalIP address (default: $METALLB_NODE_NAME, as the DaemonSet sets it)',
    )
    .option(
      '--cluster <file>',
      'file mode: YAML with Nodes, Services (status set by the controller) and EndpointSlices (with --config)',
    )
    .option('--config <files...>', 'file mode: MetalLB resources (IPAddressPool, L2Advertisement, ...)')
    .option(
      '--kubeconfig <file>',
      'Kubernetes mode: the kubeconfig to use (default: in-cluster when in a pod)',
    )
    .option(
      '--namespace <namespace>',
      "Kubernetes mode: lblab's namespace, with the MetalLB resources, Secret memberlist and the status objects (default: the service account's, else metallb-system)",
    )
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
      'file mode: shared key (16 bytes or more, the same on every node) that seals membership datagrams; re-read when it changes (Kubernetes mode reads Secret memberlist, data secretkey)',
    )
    .option(
      '--membership-key-rotation-ms <ms>',
      'after the key changes, keep sealing with the old key this long (both accepted), then accept the old one this long more',
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
export async function runSpeaker(
  args: SpeakerArgs,
  out: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
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

  const node = args.node ?? (env['METALLB_NODE_NAME'] || undefined);
  if (node === undefined) return fail('--node is required (or $METALLB_NODE_NAME)');
  const fileMode = args.cluster !== undefined || args.config !== undefined;
  if (fileMode && (args.cluster === undefined || args.config === undefined))
    return fail('--cluster and --config go together (file mode); give neither for Kubernetes mode');
  if (fileMode && (args.kubeconfig !== undefined || args.namespace !== undefined))
    return fail('--kubeconfig and --namespace are for Kubernetes mode, not with --cluster and --config');
  if (!fileMode && args.membershipKeyFile !== undefined)
    return fail('--membership-key-file is for file mode; in Kubernetes the key is Secret memberlist');
  const clock = new RealClock();
  const lifecycle = (message: string) => out.stdout(speakerLogLine(node, { kind: 'lifecycle', message }));
  let inputs: SpeakerInputs;
  if (fileMode) {
    const opened = await fileInputs(
      { cluster: args.cluster!, config: args.config!, membershipKeyFile: args.membershipKeyFile },
      clock,
      out,
    );
    if (typeof opened === 'number') return opened;
    inputs = opened;
  } else {
    try {
      // Loaded only in Kubernetes mode: client-node costs every other lblab command a second at start.
      const { kubeInputs } = await import('./speaker-inputs-kube.ts');
      inputs = await kubeInputs({
        node,
        kubeconfig: args.kubeconfig,
        namespace: args.namespace,
        env,
        clock,
        log: lifecycle,
      });
    } catch (err) {
      return fail((err as Error).message);
    }
  }
  const key = inputs.key;
  if (key === undefined)
    out.stderr(
      `lblab speaker: warning: membership is not authenticated (${fileMode ? 'no --membership-key-file' : 'no key in Secret memberlist'}): any host on the node network can forge or replay membership datagrams and move service addresses`,
    );
  const source = inputs.cluster;
  const self = nodeRefs(source.current()).find((n) => n.name === node);
  if (!self) {
    await inputs.close();
    return fail(
      `node ${node} is not in ${fileMode ? args.cluster : 'the cluster'} with an InternalIP address`,
    );
  }

  const log = (e: SpeakerLogEntry) => out.stdout(speakerLogLine(node, e));
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
    await inputs.close();
    return fail((err as Error).message);
  }
  const { client } = liveness;
  liveness.onExit((code) => {
    out.stderr(
      `lblab speaker: the liveness thread exited (code ${code}); this node cannot vouch for itself, stopping`,
    );
    process.exit(exitCodes.error);
  });
  const speaker = new L2Speaker({ node, clock, membership: client, announcer: client, log });
  let bgp: SpeakerBgp | undefined;
  // Kubernetes only: what this node announces, told to the cluster (status objects, Events).
  const reports =
    inputs.reports &&
    new AnnouncementReports({
      node,
      clock,
      l2: speaker,
      bgp: () => bgp?.speaker,
      sinks: inputs.reports,
    });
  let bgpStarting: Promise<void> | undefined;
  /** BGP starts with the first configuration that has BGPPeers (in Kubernetes that may come later). */
  const startBgp = (config: LbConfig): Promise<void> => {
    if (bgpStarting !== undefined || config.peers.length === 0) return bgpStarting ?? Promise.resolve();
    bgpStarting = startSpeakerBgp({
      node,
      clock,
      log,
      addresses: internalAddresses(source.current(), node),
      listenPort: numbers.bgpPort,
      maxPrefixes: numbers.bgpMaxPrefixes,
    }).then((started) => {
      bgp = started;
      const current = inputs.config();
      if (current !== undefined) started.speaker.setConfig(current);
      started.speaker.setCluster(source.current());
      reports?.watchBgp();
    });
    return bgpStarting;
  };
  const first = inputs.config();
  if (first !== undefined) {
    try {
      await startBgp(first);
    } catch (err) {
      reports?.close();
      client.close('the BGP listener could not start');
      await liveness.shutdown();
      await inputs.close();
      return fail((err as Error).message);
    }
  }
  const metrics = new SpeakerMetrics({
    node,
    clock,
    l2: speaker,
    liveness: client,
    // BGP may start after the metrics: they ask whichever runs at each scrape.
    bgp: {
      peerStats: () => bgp?.speaker.peerStats() ?? [],
      announced: () => bgp?.speaker.announced() ?? NONE_ANNOUNCED,
    },
    bfd: { stats: () => bgp?.bfd.stats() ?? Promise.resolve([]) },
  });
  let endpoint: MetricsServer | undefined;
  try {
    endpoint = await serveMetrics(args, port, metrics, () => speakerReadiness(client));
  } catch (err) {
    reports?.close();
    client.close('the metrics endpoint could not start');
    await Promise.all([liveness.shutdown(), bgp?.stop('restart', 0)]);
    await inputs.close();
    return fail((err as Error).message);
  }
  const applyConfig = (config: LbConfig) => {
    speaker.setConfig(config);
    bgp?.speaker.setConfig(config);
    metrics.k8sClient.configLoaded();
    startBgp(config).catch((err: Error) => out.stderr(`lblab speaker: BGP could not start: ${err.message}`));
  };
  speaker.setCluster(source.current());
  bgp?.speaker.setCluster(source.current());
  // Until a first good configuration arrives the speaker announces nothing, but runs membership.
  if (first !== undefined) applyConfig(first);
  else lifecycle('no valid MetalLB configuration yet: announcing nothing until one arrives');
  metrics.k8sClient.processed(true);
  const stopWatching = [
    inputs.onConfig(applyConfig),
    inputs.onRejected(() => metrics.k8sClient.configRejected()),
    inputs.followKey((next) => client.rotateKey(next)),
    source.onChange((snapshot) => {
      client.setNodes(nodeRefs(snapshot));
      speaker.setCluster(snapshot);
      bgp?.speaker.setCluster(snapshot);
      metrics.k8sClient.processed(true);
    }),
    source.onError((err) => {
      metrics.k8sClient.processed(false);
      out.stderr(`lblab speaker: keeping the last good cluster state: ${err.message}`);
    }),
  ];
  if (args.labControl !== undefined) stopWatching.push(watchLabControl(args.labControl, clock, log));
  const stalls = { count: 0, longestMs: 0 };
  const stopStallWatch = watchLoopStalls(STALL_REPORT_MS, (stall) => {
    stalls.count++;
    stalls.longestMs = Math.max(stalls.longestMs, stall.ms);
    metrics.mainLoopStalled(stall.ms);
    log({ atMs: clock.now(), kind: 'lifecycle', message: describeStall(stall) });
  });
  out.stdout(
    `lblab speaker ${node}: ${inputs.describe}; ${self.address}:${numbers.membershipPort}, interfaces ${local.map((i) => i.name).join(', ') || 'none'}, membership ${key ? 'authenticated' : 'NOT authenticated'}, metrics ${endpoint ? `on port ${endpoint.port}` : 'off'}`,
  );

  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  out.stdout(`lblab speaker ${node}: ${signal}, leaving`);
  reports?.close();
  await inputs.close();
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
    `lblab speaker ${node}: stopped; requests ${requests}, responses ${a?.responsesSent ?? 0}, gratuitous ${a?.gratuitousSent ?? 0}, ownership changes ${a?.ownershipChanges ?? 0}, conflicts ${a?.conflicts ?? 0}; membership refused ${m?.unauthenticated ?? 0} unauthenticated, ${m?.forged ?? 0} forged, ${m?.replayed ?? 0} replayed; main loop stalls ${stalls.count} (longest ${stalls.longestMs} ms)`,
  );
  return exitCodes.ok;
}

const NONE_ANNOUNCED: readonly AnnouncedAddress[] = [];

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
