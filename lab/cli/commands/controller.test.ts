import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { repoRoot, runLblab, startLblab } from '../run-lblab.test-support.ts';

const quickstart = (f: string) => join(repoRoot, 'topologies', 'quickstart', f);
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-controller-'));
  await copyFile(quickstart('cluster.yaml'), join(dir, 'cluster.yaml'));
  await copyFile(quickstart('metallb.yaml'), join(dir, 'metallb.yaml'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function statuses(file: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const doc of parseAllDocuments(await readFile(file, 'utf8'))) {
    const o = doc.toJS() as {
      kind: string;
      metadata: { name: string };
      status?: { loadBalancer?: { ingress?: { ip: string }[] } };
    };
    if (o.kind === 'Service') out[o.metadata.name] = (o.status?.loadBalancer?.ingress ?? []).map((i) => i.ip);
  }
  return out;
}

describe('lblab controller', () => {
  it('--once writes every Service status and the pool annotation, then keeps them on a second run', async () => {
    const cluster = join(dir, 'cluster.yaml');
    const args = ['controller', '--once', '--cluster', cluster, '--config', join(dir, 'metallb.yaml')];
    const first = await runLblab(...args);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      'event IPAllocated web/frontend: assigned IP 198.18.100.3 from pool lab-pool',
    );
    expect(first.stdout).toContain(`wrote status of 5 service(s) to ${cluster}`);
    expect(await statuses(cluster)).toEqual({
      frontend: ['198.18.100.3'],
      'dns-tcp': ['198.18.100.2'],
      'dns-udp': ['198.18.100.2'],
      api: ['198.18.100.1', '2001:db8:100::'],
      pinned: ['198.18.100.40'],
    });
    expect(await readFile(cluster, 'utf8')).toContain('metallb.io/ip-allocated-from-pool: lab-pool');
    const second = await runLblab(...args);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('wrote status');
    expect(second.stdout).toMatch(/lab-pool +4 of 63 +1 of 18446744073709551616/);
  }, 30_000);

  it('--dry-run leaves the file untouched', async () => {
    const cluster = join(dir, 'cluster.yaml');
    const before = await readFile(cluster, 'utf8');
    const r = await runLblab(
      'controller',
      '--once',
      '--dry-run',
      '--cluster',
      cluster,
      '--config',
      join(dir, 'metallb.yaml'),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('would write web/pinned: ingress [198.18.100.40] pool lab-pool');
    expect(await readFile(cluster, 'utf8')).toBe(before);
  }, 30_000);

  it('exits 1 on an invalid configuration and 2 on a missing cluster file, writing nothing', async () => {
    await writeFile(
      join(dir, 'bad.yaml'),
      'apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata: { name: p, namespace: metallb-system }\nspec: { addresses: [198.18.0.9-198.18.0.1] }\n',
    );
    const bad = await runLblab(
      'controller',
      '--once',
      '--cluster',
      join(dir, 'cluster.yaml'),
      '--config',
      join(dir, 'bad.yaml'),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('bad.yaml: document 0 (IPAddressPool "p"): spec.addresses[0]:');
    expect(await statuses(join(dir, 'cluster.yaml'))).toMatchObject({ frontend: [] });
    const missing = await runLblab(
      'controller',
      '--once',
      '--cluster',
      join(dir, 'nope.yaml'),
      '--config',
      join(dir, 'metallb.yaml'),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read cluster file');
  }, 30_000);

  it('keeps watching: a Service added to the file gets an address, and SIGTERM stops it cleanly', async () => {
    const cluster = join(dir, 'cluster.yaml');
    // No metrics endpoint: port 7472 may be taken on a shared machine (metrics-endpoint.test.ts tests it).
    const child = startLblab(
      'controller',
      '--cluster',
      cluster,
      '--config',
      join(dir, 'metallb.yaml'),
      '--metrics-port',
      '0',
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await waitFor(async () => (await statuses(cluster)).frontend?.length === 1, 20_000);
      const text = await readFile(cluster, 'utf8');
      await writeFile(
        cluster,
        `${text}---\napiVersion: v1\nkind: Service\nmetadata: { name: late, namespace: web }\nspec: { type: LoadBalancer, ports: [{ port: 80 }] }\n`,
      );
      await waitFor(async () => (await statuses(cluster)).late?.length === 1, 20_000);
      expect((await statuses(cluster)).late).toEqual(['198.18.100.4']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(child.output()).toContain('lblab controller: stopped');
  }, 60_000);
});

async function waitFor(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not met within ${withinMs} ms`);
}
