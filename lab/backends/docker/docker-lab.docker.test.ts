/**
 * The docker lab as a user drives it, through the `lblab` command: `lab up --backend docker` keeps a lab
 * of containers and networks that `docker exec` reaches and `lab down` removes whole; runners killed with
 * SIGKILL while their labs run leave containers, networks and programs behind that the reaper's
 * `lab clean --dead-only` removes, and nothing of the host's Docker state without a run label is touched.
 */
import { readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLblab, startLblab } from '../../cli/run-lblab.test-support.ts';
import type { DockerEngine } from '../../images/docker-engine.ts';
import { requireDocker } from '../../images/test-support.ts';
import { RUN_LABEL } from './docker-names.ts';
import { removeRunObjects } from './docker-sweep.ts';

const engine = await requireDocker();
const topology = 'topologies/l2-three-nodes.yaml';

interface Manifest {
  runId: string;
  backend: string;
  segments: { network: string; subnets: string[] }[];
  hosts: {
    name: string;
    kind: string;
    container: string;
    softwareContainer?: string;
    interfaces: { addresses: string[] }[];
  }[];
  services: { addresses: string[]; announcedBy: string[] }[];
  processes: { host: string; program: string; pid: number }[];
}

/** The run's containers and networks, by its label. */
async function objectsOf(e: DockerEngine, runId: string): Promise<string[]> {
  const label = { label: [`${RUN_LABEL}=${runId}`] };
  const containers = await e.docker.listContainers({ all: true, filters: label });
  const networks = await e.docker.listNetworks({ filters: label });
  return [...containers.map((c) => `container ${c.Names[0]}`), ...networks.map((n) => `network ${n.Name}`)];
}

/** Running and not a zombie. */
async function alive(pid: number): Promise<boolean> {
  const fields = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return fields !== undefined && !/^\d+ \(.*\) Z /.test(fields);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
  return true;
}

describe.skipIf(engine === 'skip')('lblab lab up/down/clean --backend docker', () => {
  const e = engine as DockerEngine;
  const runs: string[] = [];
  /** A container the test makes without lblab's label: no lblab command may touch it. */
  let bystander: string | undefined;

  beforeAll(async () => {
    const images = await runLblab('images', 'build', '--lab');
    expect(images.code, images.stderr).toBe(0);
    const lab = /^lab\s+(lblab-lab:\S+)/m.exec(images.stdout)![1]!;
    const c = await e.docker.createContainer({
      Image: lab,
      Entrypoint: ['sleep', '600'],
      NetworkDisabled: true,
    });
    await c.start();
    bystander = c.id;
  });

  afterAll(async () => {
    for (const runId of runs) await removeRunObjects(e.docker, runId);
    if (bystander) await e.docker.getContainer(bystander).remove({ force: true });
  });

  it('keeps the lab after `lab up` exits; docker exec reaches it; `lab down` removes all of it', async () => {
    const result = await runLblab('lab', 'up', '--backend', 'docker', '--topology', topology, '--json');
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(result.stdout) as Manifest;
    runs.push(manifest.runId);
    expect(manifest.backend).toBe('docker');
    expect(manifest.segments).toEqual([
      expect.objectContaining({
        network: `lblab-${manifest.runId}-lan`,
        subnets: ['198.18.0.0/24', '2001:db8::/64'],
      }),
    ]);
    expect((await objectsOf(e, manifest.runId)).sort()).toEqual(
      [
        ...manifest.hosts.map((h) => `container /${h.container}`),
        // Each node's speaker runs in a container of its own in the node's network, as in a pod.
        ...manifest.hosts.flatMap((h) => (h.softwareContainer ? [`container /${h.softwareContainer}`] : [])),
        `network lblab-${manifest.runId}-lan`,
      ].sort(),
    );
    for (const p of manifest.processes) expect(await alive(p.pid), `${p.program} on ${p.host}`).toBe(true);

    // The client container reaches the service address through the speaker's ARP answer.
    const client = manifest.hosts.find((h) => h.kind === 'client')!;
    const [service] = manifest.services;
    expect(service!.announcedBy).toHaveLength(1);
    const ping = await e.docker.getContainer(client.container).exec({
      Cmd: ['ping', '-c', '1', '-W', '2', service!.addresses[0]!],
      AttachStdout: true,
    });
    await new Promise<void>((resolve, reject) =>
      ping.start({}, (err, stream) => (err ? reject(err) : stream!.on('end', resolve).resume())),
    );
    expect((await ping.inspect()).ExitCode).toBe(0);

    const down = await runLblab('lab', 'down', '--run-id', manifest.runId);
    expect(down.code, down.stderr).toBe(0);
    expect(down.stdout).toContain(
      `removed run ${manifest.runId}: 0 namespace(s), 7 container(s), 1 network(s)`,
    );
    expect(await objectsOf(e, manifest.runId)).toEqual([]);
    for (const p of manifest.processes) expect(await alive(p.pid), `${p.program} on ${p.host}`).toBe(false);
    expect((await readdir(tmpdir())).filter((f) => f.startsWith(`lblab-${manifest.runId}-`))).toEqual([]);
  }, 240_000);

  it('five runners SIGKILLed with their labs up: each next run reaps the last, `lab clean` the fifth', async () => {
    // One after another: a docker engine refuses two networks with the same subnet, so two labs of one
    // topology cannot run at once, and each run's reaper must first remove what the killed one left.
    const killed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const runner = startLblab(
        'run',
        '--backend',
        'docker',
        '--scenario',
        'l2: node crash',
        '--out',
        tmpdir(),
      );
      const runIdOf = () => /lblab run (\w+):/.exec(runner.output())?.[1];
      // Up: the lab's client container exists (hosts are made in topology order, c1 last).
      const up = await until(async () => {
        const runId = runIdOf();
        return runId !== undefined && (await objectsOf(e, runId)).some((o) => o.endsWith(`${runId}-c1`));
      }, 120_000);
      runner.kill('SIGKILL');
      if (runner.exitCode === null && runner.signalCode === null)
        await new Promise((resolve) => runner.once('exit', resolve));
      expect(up, runner.output()).toBe(true);
      const previous = killed.at(-1);
      if (previous !== undefined) expect(await objectsOf(e, previous), `reaped ${previous}`).toEqual([]);
      killed.push(runIdOf()!);
      runs.push(runIdOf()!);
    }
    expect((await objectsOf(e, killed.at(-1)!)).length).toBeGreaterThan(0);

    const clean = await runLblab('lab', 'clean', '--dead-only');
    expect(clean.code, clean.stderr).toBe(0);
    for (const runId of killed) {
      expect(await objectsOf(e, runId), runId).toEqual([]);
      expect((await readdir(tmpdir())).filter((f) => f.startsWith(`lblab-${runId}-`))).toEqual([]);
    }
    // The programs the labs started in their containers are gone with them: nothing is left in a
    // network namespace of a container that no longer exists (no process runs `lblab speaker` for them).
    const speakers = await until(async () => {
      const cmdlines = await Promise.all(
        (await readdir('/proc'))
          .filter((p) => /^\d+$/.test(p))
          .map((p) => readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')),
      );
      return !cmdlines.some((c) => killed.some((runId) => c.includes(`lblab-${runId}-`)));
    }, 5000);
    expect(speakers).toBe(true);
    // What lblab did not make is still there.
    expect((await e.docker.getContainer(bystander!).inspect()).State.Running).toBe(true);
  }, 600_000);
});
