/**
 * `lblab controller` in a cluster (no --cluster/--config): reads Services, Namespaces, Nodes and the
 * metallb.io configuration through the Kubernetes API, writes Service and IPAddressPool status back,
 * tells Events, keeps the membership key Secret, optionally elects a leader among replicas, and serves
 * MetalLB's admission and conversion webhooks.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { hostname } from 'node:os';
import { randomInt } from 'node:crypto';
import type { Allocator } from '../../../core/allocator/index.ts';
import { connectKube, KubeConnectError } from '../../../core/k8s/connect.ts';
import { ControllerLoop } from '../../../core/k8s/controller/controller-loop.ts';
import { LeaderElector } from '../../../core/k8s/controller/leader-election.ts';
import { ensureMembershipSecret } from '../../../core/k8s/controller/membership-secret.ts';
import { kubeEventRecorder } from '../../../core/k8s/events/event-recorder.ts';
import { KubeClusterSource } from '../../../core/k8s/source/kube-cluster-source.ts';
import { KubeConfigSource } from '../../../core/k8s/source/kube-config-source.ts';
import { nodeLabels, revalidateOnNodeChanges } from '../../../core/k8s/source/node-labels.ts';
import { clientNodeKube, startWebhooks, type RunningWebhooks } from '../../../core/k8s/webhooks/index.ts';
import { ControllerMetrics } from '../../../core/metrics/controller-metrics.ts';
import type { MetricsServer } from '../../../core/runtime/metrics-server.ts';
import { Random } from '../../../core/runtime/random.ts';
import { RealClock } from '../../../core/runtime/real-clock.ts';
import { exitCodes } from '../exit-codes.ts';
import type { Output } from '../output.ts';
import { webhookModes, type KubeControllerArgs } from './controller-kube-args.ts';
import { metricsPort, serveMetrics } from './metrics-endpoint.ts';

export interface KubeControllerRun {
  env?: NodeJS.ProcessEnv;
  /** Resolves when the controller should stop; default SIGTERM or SIGINT. */
  stop?: Promise<unknown>;
}

/** Exit 0 when stopped, 2 when it cannot start (bad flags, no API server, a port in use). */
export async function runKubeController(
  args: KubeControllerArgs,
  out: Output,
  run: KubeControllerRun = {},
): Promise<number> {
  const fail = (message: string) => {
    out.stderr(`lblab controller: ${message}`);
    return exitCodes.error;
  };
  const settings = readSettings(args);
  if (typeof settings === 'string') return fail(settings);
  const env = run.env ?? process.env;
  let connection;
  try {
    connection = connectKube({
      ...(args.kubeconfig !== undefined && { kubeconfig: args.kubeconfig }),
      ...(args.namespace !== undefined && { namespace: args.namespace }),
      env,
    });
  } catch (err) {
    if (err instanceof KubeConnectError) return fail(err.message);
    throw err;
  }
  const { kc, namespace } = connection;
  const clock = new RealClock();
  const random = new Random(randomInt(2 ** 31));
  const log = (line: string) => out.stdout(`lblab controller: ${line}`);
  const webhooksOnly = settings.webhookMode === 'only';
  log(
    `${connection.describe}, namespace ${namespace}, ${webhooksOnly ? 'webhooks only' : `webhooks ${settings.webhookMode}`}` +
      (args.leaderElect && !webhooksOnly ? ', leader election on' : ''),
  );

  const stack = new Stack(log);
  try {
    const recorder = kubeEventRecorder({ kc, component: 'metallb-controller', clock, log });
    stack.push('events', () => recorder.close());
    let cluster: KubeClusterSource | undefined;
    const config = await KubeConfigSource.start({
      kc,
      namespace,
      component: { agent: 'controller' },
      clock,
      random,
      log,
      recorder,
      nodes: () => (cluster === undefined ? [] : nodeLabels(cluster.current())),
    });
    stack.push('configuration informers', () => config.close());

    let loop: ControllerLoop | undefined;
    const metrics = new ControllerMetrics({ allocator: leaderAllocator(() => loop?.current()?.allocator) });
    const state = config.state();
    if (state !== 'none') metrics.k8sClient.configLoaded();
    if (state === 'none') log('no valid configuration yet: allocating nothing until there is one');

    if (!webhooksOnly) {
      const source = await KubeClusterSource.start({ kc, clock, random, log, endpointSlices: false });
      cluster = source;
      stack.push('cluster informers', () => source.close());
      // Node selectors are judged against the Nodes: again now that they are known, and when they change.
      stack.push('node watch', revalidateOnNodeChanges(config, source));
      keepMembershipSecret(kc, namespace, clock, log, stack);
      const elector = args.leaderElect
        ? new LeaderElector({
            kc,
            namespace,
            identity: env['METALLB_POD_NAME'] || `${hostname()}_${process.pid}`,
            clock,
            clockEpochMs: clock.epochMs,
            leaseDurationMs: settings.leaseDurationMs,
            renewMs: settings.leaseRenewMs,
            log,
          })
        : undefined;
      const running = new ControllerLoop({
        kc,
        namespace,
        clock,
        cluster: source,
        config,
        recorder,
        ...(elector && { leadership: elector }),
        metrics: metrics.k8sClient,
        ...(args.lbClass !== undefined && { loadBalancerClass: args.lbClass }),
        log,
      });
      // Stopped in reverse: the loop stops writing first, then the Lease is released (holderIdentity
      // cleared) so a standby takes over at once instead of waiting out the lease duration.
      if (elector) stack.push('leader election', () => elector.stop({ release: true }));
      loop = running;
      stack.push('reconciliation', () => running.stop());
      running.start();
      elector?.start();
    }

    if (settings.webhookMode !== 'disabled') {
      const webhooks: RunningWebhooks = await startWebhooks({
        namespace,
        port: settings.webhookPort,
        provider: {
          resources: () => Promise.resolve(config.resources()),
          nodes: () => Promise.resolve(cluster === undefined ? [] : nodeLabels(cluster.current())),
        },
        kube: clientNodeKube(kc),
        clock,
        clockEpochMs: clock.epochMs,
        onEvent: (e) => log(`webhook certificates: ${e.kind}${'reason' in e ? ` (${e.reason})` : ''}`),
      });
      stack.push('webhooks', () => webhooks.stop());
      log(`serving MetalLB's webhooks on port ${webhooks.port}`);
    }

    const endpoint: MetricsServer | undefined = await serveMetrics(
      args,
      settings.metricsPort,
      metrics,
      () => {
        if (config.current() === undefined) return { ready: false, reason: 'no valid configuration yet' };
        if (loop !== undefined && loop.current() !== undefined && loop.passCount() === 0)
          return { ready: false, reason: 'the first reconciliation has not finished' };
        return { ready: true };
      },
    );
    if (endpoint) stack.push('metrics', () => endpoint.close());

    await (run.stop ?? signalled());
    await stack.unwind();
    log('stopped');
    return exitCodes.ok;
  } catch (err) {
    await stack.unwind();
    return fail(err instanceof Error ? err.message : String(err));
  }
}

interface Settings {
  webhookMode: 'enabled' | 'disabled' | 'only';
  webhookPort: number;
  leaseDurationMs: number;
  leaseRenewMs: number;
  metricsPort: number;
}

function readSettings(args: KubeControllerArgs): Settings | string {
  const port = metricsPort(args);
  if (typeof port !== 'number') return port.error;
  if (!(webhookModes as readonly string[]).includes(args.webhookMode))
    return `--webhook-mode must be one of ${webhookModes.join(', ')}, not "${args.webhookMode}"`;
  const webhookPort = Number(args.webhookPort);
  if (!Number.isInteger(webhookPort) || webhookPort < 0 || webhookPort > 65_535)
    return '--webhook-port must be a port number (0 to 65535; 0: any free port)';
  const leaseDurationMs = Number(args.leaseDurationMs);
  const leaseRenewMs = Number(args.leaseRenewMs);
  if (!Number.isInteger(leaseDurationMs) || leaseDurationMs < 1000)
    return '--lease-duration-ms must be a whole number of milliseconds, at least 1000';
  // The renew deadline is 2/3 of the lease duration; renewals must come well within it.
  if (!Number.isInteger(leaseRenewMs) || leaseRenewMs < 1 || leaseRenewMs * 3 >= leaseDurationMs * 2)
    return '--lease-renew-ms must be a positive whole number below 2/3 of --lease-duration-ms';
  return {
    webhookMode: args.webhookMode === 'onlywebhook' ? 'only' : (args.webhookMode as Settings['webhookMode']),
    webhookPort,
    leaseDurationMs,
    leaseRenewMs,
    metricsPort: port,
  };
}

/** The pool metrics read the allocator of whichever Controller leads now (none on a standby). */
function leaderAllocator(
  current: () => Allocator | undefined,
): Pick<Allocator, 'poolNames' | 'stats' | 'assignments'> {
  return {
    poolNames: () => current()?.poolNames() ?? [],
    stats: (pool) => current()?.stats(pool),
    assignments: () => current()?.assignments() ?? new Map(),
  };
}

/** Creates the membership key Secret when missing, retrying every 10 s until the API server agrees. */
function keepMembershipSecret(
  kc: KubeConfig,
  namespace: string,
  clock: RealClock,
  log: (line: string) => void,
  stack: Stack,
): void {
  let stopped = false;
  let timer: { cancel(): void } | undefined;
  const attempt = () => {
    ensureMembershipSecret({ kc, namespace }).then(
      (result) => {
        if (result === 'created') log(`created the membership key Secret ${namespace}/memberlist`);
        if (result === 'exists-without-key')
          log(`Secret ${namespace}/memberlist has no "secretkey": speakers cannot authenticate membership`);
      },
      (err: unknown) => {
        log(`membership key Secret: ${err instanceof Error ? err.message : String(err)}; retrying in 10 s`);
        if (!stopped) timer = clock.setTimer('controller: membership secret', 10_000, attempt);
      },
    );
  };
  attempt();
  stack.push('membership secret', () => {
    stopped = true;
    timer?.cancel();
  });
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
}

/** What was started, stopped in reverse order; a failure to stop one is logged and the rest still stop. */
class Stack {
  private readonly entries: { what: string; stop: () => unknown }[] = [];

  constructor(private readonly log: (line: string) => void) {}

  push(what: string, stop: () => unknown): void {
    this.entries.push({ what, stop });
  }

  async unwind(): Promise<void> {
    for (let e = this.entries.pop(); e !== undefined; e = this.entries.pop()) {
      try {
        await e.stop();
      } catch (err) {
        this.log(`stopping ${e.what}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
