/**
 * `lblab controller`: assigns addresses to LoadBalancer Services and writes each Service's
 * status.loadBalancer.ingress and metallb.io/ip-allocated-from-pool annotation back. Two modes: in a
 * Kubernetes cluster (the default; controller-kube.ts), or on a cluster file (--cluster and --config).
 */
import type { Command } from 'commander';
import { FileClusterSource } from '../../../core/cluster/file-source.ts';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import { Controller, formatEvent } from '../../../core/controller/index.ts';
import { defaultWebhookPort } from '../../../core/k8s/webhooks/paths.ts';
import { ControllerMetrics } from '../../../core/metrics/controller-metrics.ts';
import type { MetricsServer } from '../../../core/runtime/metrics-server.ts';
import { RealClock } from '../../../core/runtime/real-clock.ts';
import { watchFile } from '../../../core/runtime/watch-file.ts';
import { exitCodes } from '../exit-codes.ts';
import { loadConfigOrExitCode } from '../load-config.ts';
import { processOutput, type Output } from '../output.ts';
import { webhookModes, type KubeControllerArgs } from './controller-kube-args.ts';
import { poolTable, serviceTable } from './controller-summary.ts';
import { addMetricsOptions, metricsPort, serveMetrics, type MetricsArgs } from './metrics-endpoint.ts';

export interface ControllerArgs extends MetricsArgs {
  cluster: string;
  config: string[];
  once: boolean;
  dryRun: boolean;
  lbClass?: string;
}

type AnyModeArgs = Partial<ControllerArgs> & KubeControllerArgs & { once: boolean; dryRun: boolean };

const kube = '[Kubernetes]';
const file = '[file]';

export function registerControllerCommand(program: Command): void {
  const command = program
    .command('controller')
    .description(
      'assign addresses to LoadBalancer Services and write their status back: in a Kubernetes cluster ' +
        '(default; in-cluster in a pod, else --kubeconfig, $KUBECONFIG or ~/.kube/config), or on a ' +
        'cluster file with --cluster and --config. Options marked [Kubernetes] or [file] belong to one mode.',
    )
    .option(
      '--kubeconfig <file>',
      `${kube} kubeconfig to reach the API server (default: in-cluster, else $KUBECONFIG, else ~/.kube/config)`,
    )
    .option(
      '--namespace <ns>',
      `${kube} lblab's namespace: its configuration, Secrets and Lease (default: the service account's, else metallb-system)`,
    )
    .option(
      '--leader-elect',
      `${kube} run as one of several replicas: only the holder of Lease metallb-controller allocates`,
      false,
    )
    .option(
      '--lease-duration-ms <ms>',
      `${kube} how long a standby waits after the Lease last changed before taking it over`,
      '15000',
    )
    .option(
      '--lease-renew-ms <ms>',
      `${kube} how often the leader renews the Lease (and a standby looks at it)`,
      '2000',
    )
    .option(
      '--webhook-mode <mode>',
      `${kube} MetalLB's admission and conversion webhooks: ${webhookModes.join('|')} (onlywebhook = only: webhooks without allocating)`,
      'enabled',
    )
    .option('--webhook-port <port>', `${kube} HTTPS port of the webhooks`, String(defaultWebhookPort))
    .option(
      '--cluster <file>',
      `${file} YAML with Nodes, Namespaces, Services and EndpointSlices (needs --config)`,
    )
    .option(
      '--config <files...>',
      `${file} MetalLB resources (IPAddressPool, L2Advertisement, ...) (needs --cluster)`,
    )
    .option(
      '--once',
      `${file} reconcile once, print a summary and exit (default: keep watching both files)`,
      false,
    )
    .option('--dry-run', `${file} print what would be written instead of writing the cluster file`, false)
    .option(
      '--lb-class <name>',
      'serve only Services with this loadBalancerClass (default: those without one)',
    );
  addMetricsOptions(command, ' (--once serves nothing: it exits before anyone would scrape)').action(
    async (opts: AnyModeArgs, cmd: Command) => {
      process.exitCode = await runControllerCommand(
        opts,
        (name) => cmd.getOptionValueSource(name),
        processOutput,
      );
    },
  );
}

const kubeOnly = [
  'kubeconfig',
  'namespace',
  'leaderElect',
  'leaseDurationMs',
  'leaseRenewMs',
  'webhookMode',
  'webhookPort',
];
const fileOnly = ['once', 'dryRun'];

/** Picks the mode from --cluster/--config and refuses flags of the other mode. */
export async function runControllerCommand(
  opts: AnyModeArgs,
  source: (option: string) => string | undefined,
  out: Output,
): Promise<number> {
  const given = (names: string[]) => names.filter((n) => source(n) === 'cli').map(flag);
  if ((opts.cluster === undefined) !== (opts.config === undefined)) {
    out.stderr('lblab controller: --cluster and --config go together (file mode); give both or neither');
    return exitCodes.error;
  }
  const fileMode = opts.cluster !== undefined;
  const wrong = fileMode ? given(kubeOnly) : given(fileOnly);
  if (wrong.length > 0) {
    out.stderr(
      `lblab controller: ${wrong.join(', ')} ${wrong.length === 1 ? 'belongs' : 'belong'} to ${fileMode ? 'Kubernetes mode (without --cluster/--config)' : 'file mode (--cluster and --config)'}`,
    );
    return exitCodes.error;
  }
  if (fileMode) return runController(opts as ControllerArgs, out);
  // Loaded only in Kubernetes mode: client-node costs every other lblab command a second at start.
  const { runKubeController } = await import('./controller-kube.ts');
  return runKubeController(opts, out);
}

const flag = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Exit 0 when done (or stopped by a signal), 1 for an invalid configuration, 2 for unreadable input. */
export async function runController(args: ControllerArgs, out: Output): Promise<number> {
  const port = metricsPort(args);
  if (typeof port !== 'number') {
    out.stderr(`lblab controller: ${port.error}`);
    return exitCodes.error;
  }
  const config = await loadConfigOrExitCode('controller', args.config, out);
  if (typeof config === 'number') return config;
  const clock = new RealClock();
  let source: FileClusterSource;
  try {
    source = await FileClusterSource.open(args.cluster, clock, { watch: !args.once });
  } catch (err) {
    out.stderr(`lblab controller: ${(err as Error).message}`);
    return exitCodes.error;
  }
  const controller = new Controller(config, {
    ...(args.lbClass !== undefined && { loadBalancerClass: args.lbClass }),
  });
  out.stdout(
    `lblab controller: cluster ${args.cluster}, config ${args.config.join(', ')}${args.dryRun ? ' (dry run: nothing is written)' : ''}`,
  );

  const reconcile = async (snapshot: ClusterSnapshot) => {
    const pass = controller.reconcile(snapshot);
    for (const e of pass.events) (e.type === 'Warning' ? out.stderr : out.stdout)(formatEvent(e));
    if (pass.updates.length === 0) return pass;
    if (args.dryRun) {
      for (const u of pass.updates)
        out.stdout(
          `would write ${u.namespace}/${u.name}: ingress [${u.ingress.join(', ')}] pool ${u.pool ?? '-'}`,
        );
    } else {
      await source.writeStatuses(pass.updates);
      out.stdout(`wrote status of ${pass.updates.length} service(s) to ${args.cluster}`);
    }
    return pass;
  };

  if (args.once) {
    const pass = await reconcile(source.current());
    source.close();
    for (const line of serviceTable(source.current(), pass.outcomes)) out.stdout(line);
    for (const line of poolTable(config, controller.allocator)) out.stdout(line);
    return exitCodes.ok;
  }

  const metrics = new ControllerMetrics({ allocator: controller.allocator });
  metrics.k8sClient.configLoaded();
  let reconciled = false;
  let endpoint: MetricsServer | undefined;
  try {
    endpoint = await serveMetrics(args, port, metrics, () =>
      reconciled ? { ready: true } : { ready: false, reason: 'the first reconciliation has not finished' },
    );
  } catch (err) {
    source.close();
    out.stderr(`lblab controller: ${(err as Error).message}`);
    return exitCodes.error;
  }
  /** A reconciliation of an update, counted (metallb_k8s_client_updates_total) and making the agent ready. */
  const counted = (snapshot: ClusterSnapshot) =>
    reconcile(snapshot).then(
      (pass) => {
        metrics.k8sClient.processed(true);
        reconciled = true;
        return pass;
      },
      (err: unknown) => {
        metrics.k8sClient.processed(false);
        throw err;
      },
    );
  // Watch mode: one reconciliation at a time, in the order changes arrive.
  let queue: Promise<unknown> = counted(source.current());
  const enqueue = (work: () => Promise<unknown>) => {
    queue = queue.then(work, work);
  };
  source.onChange((snapshot) => enqueue(() => counted(snapshot)));
  source.onError((err) => {
    metrics.k8sClient.processed(false);
    out.stderr(`lblab controller: keeping the last good cluster state: ${err.message}`);
  });
  const stopConfigWatch = args.config.map((file) =>
    watchFile(file, clock, 50, () =>
      enqueue(async () => {
        const next = await loadConfigOrExitCode('controller', args.config, out);
        if (typeof next === 'number') {
          metrics.k8sClient.configRejected();
          out.stderr('lblab controller: configuration rejected, keeping the previous one');
          return;
        }
        for (const e of controller.setConfig(next)) out.stderr(formatEvent(e));
        metrics.k8sClient.configLoaded();
        out.stdout('lblab controller: configuration reloaded');
        await counted(source.current());
      }),
    ),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  source.close();
  await endpoint?.close();
  for (const stop of stopConfigWatch) stop();
  await queue;
  out.stdout('lblab controller: stopped');
  return exitCodes.ok;
}
