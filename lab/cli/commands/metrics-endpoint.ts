/**
 * `--metrics-host` and `--metrics-port` of `lblab speaker` and `lblab controller`: where /metrics,
 * /healthz and /readyz are served (core/runtime/metrics-server.ts), on MetalLB's port 7472 by default.
 */
import type { Command } from 'commander';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import type { Exposition } from '../../../core/metrics/series.ts';
import {
  startMetricsServer,
  type MetricsServer,
  type Readiness,
} from '../../../core/runtime/metrics-server.ts';

export interface MetricsArgs {
  metricsHost?: string;
  metricsPort: string;
}

/** `note` ends the port's help, e.g. when the command serves nothing. */
export function addMetricsOptions(command: Command, note = ''): Command {
  return command
    .option(
      '--metrics-host <address>',
      'address to serve /metrics, /healthz and /readyz on (default: every address of the host)',
    )
    .option(
      '--metrics-port <port>',
      `port of /metrics (Prometheus), /healthz and /readyz, plain HTTP as MetalLB up to 0.15 serves them; 0: none${note}`,
      '7472',
    );
}

/** The port, or why it is not one. */
export function metricsPort(args: MetricsArgs): number | { error: string } {
  const port = Number(args.metricsPort);
  return Number.isInteger(port) && port >= 0 && port <= 65_535
    ? port
    : { error: '--metrics-port must be a port number (0 to 65535; 0 serves nothing)' };
}

/**
 * Serves `metrics` with the process's own (CPU, memory, heap, event-loop delay: what Go's client adds to
 * MetalLB's), unless the port is 0. Throws MetricsListenError when it cannot listen.
 */
export async function serveMetrics(
  args: MetricsArgs,
  port: number,
  metrics: Exposition & { registry: Registry },
  readiness: () => Readiness,
): Promise<MetricsServer | undefined> {
  if (port === 0) return undefined;
  collectDefaultMetrics({ register: metrics.registry });
  return startMetricsServer({
    ...(args.metricsHost !== undefined && { host: args.metricsHost }),
    port,
    metrics,
    readiness,
  });
}
