/**
 * `lblab controller`: assigns addresses to LoadBalancer Services in a cluster file and writes each
 * Service's status.loadBalancer.ingress and metallb.io/ip-allocated-from-pool annotation back to it.
 */
import type { Command } from 'commander';
import { FileClusterSource } from '../../../core/cluster/file-source.ts';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import { Controller, formatEvent } from '../../../core/controller/index.ts';
import { ControllerMetrics } from '../../../core/metrics/controller-metrics.ts';
import type { MetricsServer } from '../../../core/runtime/metrics-server.ts';
import { RealClock } from '../../../core/runtime/real-clock.ts';
import { watchFile } from '../../../core/runtime/watch-file.ts';
import { exitCodes } from '../exit-codes.ts';
import { loadConfigOrExitCode } from '../load-config.ts';
import { processOutput, type Output } from '../output.ts';
import { poolTable, serviceTable } from './controller-summary.ts';
import { addMetricsOptions, metricsPort, serveMetrics, type MetricsArgs } from './metrics-endpoint.ts';

export interface ControllerArgs extends MetricsArgs {
  cluster: string;
  config: string[];
  once: boolean;
  dryRun: boolean;
  lbClass?: string;
}

export function registerControllerCommand(program: Command): void {
  const command = program
    .command('controller')
    .description('assign addresses to LoadBalancer Services in a cluster file and write their status back')
    .requiredOption('--cluster <file>', 'YAML with Nodes, Namespaces, Services and EndpointSlices')
    .requiredOption('--config <files...>', 'MetalLB resources (IPAddressPool, L2Advertisement, ...)')
    .option('--once', 'reconcile once, print a summary and exit (default: keep watching both files)', false)
    .option('--dry-run', 'print what would be written instead of writing the cluster file', false)
    .option(
      '--lb-class <name>',
      'serve only Services with this loadBalancerClass (default: those without one)',
    );
  addMetricsOptions(command, ' (--once serves nothing: it exits before anyone would scrape)').action(
    async (opts: ControllerArgs) => {
      process.exitCode = await runController(opts, processOutput);
    },
  );
}

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
