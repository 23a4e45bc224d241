/**
 * The agents' endpoint over real HTTP on the loopback: /metrics answers Prometheus text that a scraper's
 * parser reads, /healthz answers while the process runs, /readyz says 503 with the reason until the agent
 * is ready and 200 after; the port closes with the server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { Controller } from '../controller/index.ts';
import { ControllerMetrics } from '../metrics/controller-metrics.ts';
import { parseExposition, valueOf } from '../metrics/prometheus-text.test-support.ts';
import {
  MetricsListenError,
  startMetricsServer,
  type MetricsServer,
  type Readiness,
} from './metrics-server.ts';

const loaded = loadConfig([
  {
    path: 'pools.yaml',
    text: `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: lab, namespace: metallb-system }
spec: { addresses: [198.18.100.0/30] }
`,
  },
]);
if (!loaded.ok) throw new Error('bad test config');
const config = loaded.config;

let server: MetricsServer | undefined;
afterEach(async () => server?.close());

async function start(readiness: () => Readiness) {
  const metrics = new ControllerMetrics({ allocator: new Controller(config).allocator });
  server = await startMetricsServer({ host: '127.0.0.1', port: 0, metrics, readiness });
  const get = async (path: string, method = 'GET') => {
    const r = await fetch(`http://127.0.0.1:${server!.port}${path}`, { method });
    return { status: r.status, type: r.headers.get('content-type'), body: await r.text() };
  };
  return { get };
}

describe('metrics endpoint', () => {
  it('/metrics is Prometheus text a scraper reads, with its content type', async () => {
    const { get } = await start(() => ({ ready: true }));
    const r = await get('/metrics');
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const f = parseExposition(r.body);
    expect(valueOf(f, 'metallb_allocator_addresses_total', { pool: 'lab' })).toBe(4);
    expect(valueOf(f, 'metallb_k8s_client_config_loaded_bool')).toBe(0);
  });

  it('/readyz is 503 with the reason until ready, then 200; /healthz is 200 throughout', async () => {
    let ready: Readiness = { ready: false, reason: 'membership has not synced yet' };
    const { get } = await start(() => ready);
    expect(await get('/readyz')).toMatchObject({ status: 503, body: 'membership has not synced yet\n' });
    expect(await get('/healthz')).toMatchObject({ status: 200, body: 'ok\n' });
    ready = { ready: true };
    expect(await get('/readyz')).toMatchObject({ status: 200, body: 'ok\n' });
    expect(await get('/healthz')).toMatchObject({ status: 200 });
  });

  it('answers HEAD without a body, refuses other methods and unknown paths', async () => {
    const { get } = await start(() => ({ ready: true }));
    expect(await get('/readyz', 'HEAD')).toMatchObject({ status: 200, body: '' });
    expect((await get('/metrics', 'POST')).status).toBe(405);
    expect((await get('/nope')).status).toBe(404);
  });

  it('a taken port is a MetricsListenError naming the address; a closed server frees its port', async () => {
    await start(() => ({ ready: true }));
    const port = server!.port;
    const metrics = new ControllerMetrics({ allocator: new Controller(config).allocator });
    const clash = startMetricsServer({
      host: '127.0.0.1',
      port,
      metrics,
      readiness: () => ({ ready: true }),
    });
    await expect(clash).rejects.toThrow(MetricsListenError);
    await expect(clash).rejects.toThrow(`cannot serve metrics on 127.0.0.1:${port}`);
    await server!.close();
    server = await startMetricsServer({
      host: '127.0.0.1',
      port,
      metrics,
      readiness: () => ({ ready: true }),
    });
    expect(server.port).toBe(port);
  });
});
