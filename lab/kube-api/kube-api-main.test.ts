import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { V1Service } from '@kubernetes/client-node';
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import { expect, onTestFinished, test } from 'vitest';
import { JsonLinesChild } from '../../core/runtime/json-lines-child.test-support.ts';
import { eventually } from './kube-api.test-support.ts';

const main = join(import.meta.dirname, 'kube-api-main.ts');

interface Line {
  id?: number;
  event?: string;
  ok?: boolean;
  url?: string;
  token?: string;
  kubeconfig?: string;
  cut?: number;
  object?: { metadata: { resourceVersion: string } } | null;
  requests?: { verb: string; resource: string; user: string }[];
}

test(
  'the standalone test server listens, takes commands on stdin, serves client-node and exits when stdin closes',
  { timeout: 20_000 },
  async () => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', main, '--listen', '127.0.0.1', '--port', '0', '--token', 't0ken'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    onTestFinished(() => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    });
    const child = new JsonLinesChild<Line>(proc, 15_000);
    const listening = await child.until('the listening line', () =>
      child.events.find((e) => e.event === 'listening'),
    );
    expect(listening).toMatchObject({
      token: 't0ken',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });

    const applied = await child.request('apply', {
      object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' } },
    });
    expect(applied.ok).toBe(true);

    const kc = new KubeConfig();
    kc.loadFromString(
      (await child.request('kubeconfig', { user: 'system:serviceaccount:metallb-system:speaker' }))
        .kubeconfig ?? '',
    );
    const core = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1Service>(kc, '/api/v1/services', () =>
      core.listServiceForAllNamespaces(),
    );
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    expect(informer.list().map((s) => s.metadata?.name)).toEqual(['web']);

    // Faults by command: a cut stream reaches the informer as an error.
    await eventually(
      'the watch to open',
      async () => ((await child.request('state')) as { openWatches?: number }).openWatches === 1,
    );
    expect((await child.request('cutWatches')).cut).toBe(1);
    await eventually('the error handler', () => errors.length === 1);

    const log = (await child.request('requests')).requests ?? [];
    expect(log.map((r) => [r.verb, r.resource, r.user])).toContainEqual([
      'watch',
      'services',
      'system:serviceaccount:metallb-system:speaker',
    ]);
    expect(
      (await child.request('get', { apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'nope' }))
        .object,
    ).toBeNull();
    expect(await child.request('frobnicate')).toMatchObject({
      ok: false,
      message: 'unknown command "frobnicate"',
    });

    expect(await child.stop()).toBe(0);
  },
);

// Each run starts node with tsx (about two seconds when the machine is busy).
test('--help prints the usage and a bad option exits 2 with it', { timeout: 20_000 }, async () => {
  const run = promisify(execFile);
  const help = await run(process.execPath, ['--import', 'tsx', main, '--help']);
  expect(help.stdout).toContain('usage: kube-api-main.ts --listen ADDRESS --port PORT');
  await expect(run(process.execPath, ['--import', 'tsx', main, '--port', 'eighty'])).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--port must be a whole number, not "eighty"'),
  });
});
