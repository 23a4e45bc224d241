import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseExposition, valueOf } from '../../../core/metrics/prometheus-text.test-support.ts';
import { repoRoot, runLblab, startLblab } from '../run-lblab.test-support.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-metrics-'));
  for (const f of ['cluster.yaml', 'metallb.yaml'])
    await copyFile(join(repoRoot, 'topologies', 'quickstart', f), join(dir, f));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A port nothing listens on right now (the OS picks it; it may be taken again, rarely, before use). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function get(url: string): Promise<{ status: number; body: string } | undefined> {
  try {
    const r = await fetch(url);
    return { status: r.status, body: await r.text() };
  } catch {
    return undefined;
  }
}

describe('lblab controller --metrics-host --metrics-port', () => {
  it('serves /readyz once the first reconciliation is done, the pool gauges on /metrics, and closes on SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = startLblab(
      ...['controller', '--cluster', join(dir, 'cluster.yaml'), '--config', join(dir, 'metallb.yaml')],
      ...['--metrics-host', '127.0.0.1', '--metrics-port', String(port)],
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 20_000;
      while ((await get(`${base}/readyz`))?.status !== 200) {
        if (Date.now() > deadline) throw new Error(`not ready within 20 s:\n${child.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: 'ok\n' });
      const f = parseExposition((await get(`${base}/metrics`))!.body);
      expect(valueOf(f, 'metallb_allocator_addresses_in_use_total', { pool: 'lab-pool' })).toBe(5);
      expect(valueOf(f, 'metallb_allocator_services_allocated_total', { pool: 'lab-pool' })).toBe(5);
      expect(valueOf(f, 'metallb_k8s_client_config_loaded_bool')).toBe(1);
      expect(valueOf(f, 'metallb_k8s_client_updates_total')).toBeGreaterThanOrEqual(1);
      expect(valueOf(f, 'metallb_k8s_client_update_errors_total')).toBe(0);
      // The process's own, as Go's client gives MetalLB's.
      expect(f.get('process_resident_memory_bytes')?.type).toBe('gauge');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(await get(`${base}/healthz`)).toBeUndefined();
  }, 60_000);

  it('refuses a port that is not one, and a port that is taken, with exit 2 and the reason', async () => {
    const args = [
      'controller',
      '--cluster',
      join(dir, 'cluster.yaml'),
      '--config',
      join(dir, 'metallb.yaml'),
    ];
    const bad = await runLblab(...args, '--metrics-port', '70000');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--metrics-port must be a port number (0 to 65535; 0 serves nothing)');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const r = await runLblab(...args, '--metrics-host', '127.0.0.1', '--metrics-port', String(port));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`cannot serve metrics on 127.0.0.1:${port}: listen EADDRINUSE`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
