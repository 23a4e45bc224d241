/**
 * lblab's image, run for real on the Docker engine: its help, the user and labels it runs with, the
 * controller reconciling as its Deployment runs it (user 65534, read-only root, no capabilities), what
 * the image holds and leaves out, and reuse by content tag.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './build-context.ts';
import { buildImages, type BuiltImages } from './build-images.ts';
import type { DockerEngine } from './docker-engine.ts';
import { DockerTestRun, requireDocker } from './test-support.ts';

const engine = await requireDocker();

interface RunOptions {
  cmd: string[];
  entrypoint?: string[];
  readOnly?: boolean;
  binds?: string[];
}

describe.skipIf(engine === 'skip')("lblab's image", () => {
  let run: DockerTestRun;
  let built: BuiltImages;
  beforeAll(async () => {
    run = new DockerTestRun(engine as DockerEngine);
    built = await buildImages({ engine: run.engine, log: (line) => console.log(line) });
    console.log(`image ${built.image.ref}: ${(built.image.sizeBytes / 1e6).toFixed(1)} MB`);
  });
  afterAll(async () => {
    await run?.removeAll();
  });

  /** Runs the image to its end, with no network and every capability dropped. */
  const runOnce = (o: RunOptions) =>
    run.runToEnd({
      Image: built.image.ref,
      Cmd: o.cmd,
      ...(o.entrypoint && { Entrypoint: o.entrypoint }),
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        ReadonlyRootfs: o.readOnly ?? false,
        Binds: o.binds ?? [],
      },
    });

  it('docker run IMAGE --help prints lblab help with the controller and speaker commands', async () => {
    const r = await runOnce({ cmd: ['--help'] });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: lblab \[options\] \[command\]/);
    expect(r.stdout).toMatch(/^ {2}controller \[options\] +assign addresses/m);
    expect(r.stdout).toMatch(/^ {2}speaker \[options\] +run the per-node speaker/m);
  }, 60_000);

  it('is tagged by version and content hash, labelled with version and commit, and runs as 65534', async () => {
    const version = (
      JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect(built.image.ref).toMatch(new RegExp(`^lblab:${version.replace(/\./g, '\\.')}-[0-9a-f]{12}$`));
    expect(built.image.labels['org.opencontainers.image.version']).toBe(version);
    expect(built.image.labels['org.opencontainers.image.revision']).toMatch(/^([0-9a-f]{40}|unknown)$/);
    const r = await runOnce({
      entrypoint: ['node', '-p', 'process.getuid() + " " + process.version'],
      cmd: [],
    });
    expect(r.stdout.trim()).toMatch(/^65534 v20\.\d+\.\d+$/);
  }, 60_000);

  it('runs the controller as its Deployment does: user 65534, read-only root, no capabilities', async () => {
    const quickstart = join(REPO_ROOT, 'topologies', 'quickstart');
    const r = await runOnce({
      cmd: [
        'controller',
        '--once',
        '--dry-run',
        '--cluster',
        '/config/cluster.yaml',
        '--config',
        '/config/metallb.yaml',
      ],
      readOnly: true,
      binds: [`${quickstart}:/config:ro`],
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('would write web/frontend: ingress [198.18.100.3] pool lab-pool');
  }, 60_000);

  it('holds the runtime files and production dependencies only: no tests, no development packages', async () => {
    const r = await runOnce({
      entrypoint: ['/bin/sh', '-c'],
      cmd: [
        'find /app -path /app/node_modules -prune -o -type f -print | sort; ' +
          'ls /app/node_modules /app/node_modules/@kubernetes; ls /app/build/Release; ' +
          'ls /app/node_modules/.cache/lblab-bundle/$(cat /app/node_modules/.cache/lblab-bundle/current)/lab/cli/main.mjs',
      ],
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('/app/lab/cli/lblab.mjs');
    // Reached only through `new Worker(new URL(...))` and the worker entry's dynamic import.
    expect(lines).toContain('/app/core/runtime/liveness-worker/worker-main.ts');
    expect(lines.filter((l) => /\.test\.ts$|test-support|testdata/.test(l))).toEqual([]);
    expect(lines).toContain('client-node');
    for (const dev of ['vitest', 'typescript', 'testcontainers', 'eslint']) expect(lines).not.toContain(dev);
    expect(lines).toEqual(expect.arrayContaining(['af_packet.node', 'tcp_options.node', 'udp_options.node']));
    // Bundled when the image was built (core/runtime/typescript.mjs): a container never builds.
    expect(
      lines.filter((l) => /^\/app\/node_modules\/\.cache\/lblab-bundle\/[^/]+\/lab\/cli\/main\.mjs$/.test(l)),
    ).toHaveLength(1);
  }, 60_000);

  it('a second build with nothing changed reuses both images by their tags', async () => {
    const again = await buildImages({ engine: run.engine });
    expect(again.base.ref).toBe(built.base.ref);
    expect(again.base.builtMs).toBeUndefined();
    expect(again.image.ref).toBe(built.image.ref);
    expect(again.image.id).toBe(built.image.id);
    expect(again.image.builtMs).toBeUndefined();
  }, 120_000);
});
