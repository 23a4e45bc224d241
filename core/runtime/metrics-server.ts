/**
 * The agents' plain-HTTP endpoint, where MetalLB up to 0.15 serves its metrics (port 7472): /metrics in
 * Prometheus text format, /healthz (the process runs and answers) and /readyz (the agent says it is ready,
 * or why not, in one line), for Prometheus and for the kubelet's probes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LblabError } from '../errors/lblab-error.ts';
import type { Exposition } from '../metrics/series.ts';

export type Readiness = { ready: true } | { ready: false; reason: string };

export interface MetricsServerOptions {
  /** Address to listen on; undefined: every address of the host (IPv6 and IPv4). */
  host?: string;
  /** 0 picks a free port (tests); the CLI never passes 0, which there means "no endpoint". */
  port: number;
  metrics: Exposition;
  readiness: () => Readiness;
}

export interface MetricsServer {
  readonly port: number;
  /** Stops listening and ends open connections (a scraper's keep-alive must not hold the process up). */
  close(): Promise<void>;
}

/** The endpoint could not listen (the port is taken, the address is not on this host, ...). */
export class MetricsListenError extends LblabError {
  readonly code = 'METRICS_LISTEN';

  constructor(
    readonly host: string | undefined,
    readonly port: number,
    options: { cause: unknown },
  ) {
    const where = `${host === undefined ? '*' : host.includes(':') ? `[${host}]` : host}:${port}`;
    super(`cannot serve metrics on ${where}: ${(options.cause as Error).message}`, options);
  }
}

export async function startMetricsServer(o: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((req, res) => void answer(o, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new MetricsListenError(o.host, o.port, { cause: err })));
    server.listen({ host: o.host, port: o.port }, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(o: MetricsServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://endpoint').pathname;
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return reply(res, 405, 'only GET and HEAD\n', { Allow: 'GET, HEAD' });
  switch (path) {
    case '/metrics':
      try {
        return reply(res, 200, await o.metrics.text(), { 'Content-Type': o.metrics.contentType });
      } catch (err) {
        return reply(res, 500, `metrics unavailable: ${(err as Error).message}\n`);
      }
    case '/healthz':
      return reply(res, 200, 'ok\n');
    case '/readyz': {
      const r = o.readiness();
      return r.ready ? reply(res, 200, 'ok\n') : reply(res, 503, `${r.reason}\n`);
    }
    default:
      return reply(res, 404, 'not found: /metrics, /healthz and /readyz are served here\n');
  }
}

function reply(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
