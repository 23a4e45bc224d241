/**
 * `lblab lab up --backend netns` leaves a lab running for manual use after the command exits, the reaper
 * of other runs leaves it alone, and `lblab lab down --run-id RUN_ID` removes exactly that run; a `lab up` killed
 * half-way is reaped like any crashed run.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { clean, down, up } from '../../cli/commands/lab.ts';
import { exitCodes } from '../../cli/exit-codes.ts';
import { runLblab, startLblab } from '../../cli/run-lblab.test-support.ts';
import { sh } from './command.ts';
import { runIdOf } from './names.ts';
import { readRun } from './run-registry.ts';
import { labNamespaces, sweepLeftovers } from './sweep.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['nft', 'ping']);
const topology = 'topologies/l2-three-nodes.yaml';

interface Manifest {
  runId: string;
  backend: string;
  directory: string;
  segments: { namespace: string }[];
  hosts: {
    name: string;
    kind: string;
    namespace: string;
    interfaces: { mac: string; addresses: string[] }[];
  }[];
  services: { addresses: string[]; announcedBy: string[] }[];
  processes: { host: string; program: string; pid: number; log: string }[];
}

function capture() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: { stdout: (l: string) => stdout.push(l), stderr: (l: string) => stderr.push(l) },
  };
}

const namespacesOf = async (runId: string) => (await labNamespaces()).filter((ns) => runIdOf(ns) === runId);
const runDirsOf = async (runId: string) =>
  (await readdir(tmpdir())).filter((e) => e.startsWith(`lblab-${runId}-`));

/** Running and not a zombie (a SIGKILLed process lingers until its parent reaps it). */
async function alive(pid: number): Promise<boolean> {
  const fields = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return fields !== undefined && !/^\d+ \(.*\) Z /.test(fields);
}

/** The live processes in a namespace with their command lines (transient `ip netns exec` commands come and go). */
async function programsIn(ns: string): Promise<{ pid: number; cmdline: string }[]> {
  const pids = (await sh(['ip', 'netns', 'pids', ns]).catch(() => ''))
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  const all = await Promise.all(
    pids.map(async (pid) => ({
      pid,
      cmdline: (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' '),
    })),
  );
  return all.filter((p) => p.cmdline !== '');
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe.skipIf(mode === 'skip')('lblab lab up/down --backend netns', () => {
  const runs: string[] = [];
  afterAll(async () => {
    for (const runId of runs) await sweepLeftovers({ runId });
  });

  it('leaves the lab running after `lab up` exits, outside the reaper, until `lab down` removes it', async () => {
    const result = await runLblab('lab', 'up', '--backend', 'netns', '--topology', topology, '--json');
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(result.stdout) as Manifest;
    runs.push(manifest.runId);
    expect(manifest.backend).toBe('netns');
    expect(result.stderr).toContain(`lblab lab down --run-id ${manifest.runId}`);

    // The command has exited; its namespaces and processes are still there.
    const namespaces = [...manifest.segments, ...manifest.hosts].map((h) => h.namespace);
    expect((await namespacesOf(manifest.runId)).sort()).toEqual([...namespaces].sort());
    expect(manifest.processes.map((p) => p.program).sort()).toEqual(
      ['echo', 'echo', 'echo', 'prober', 'speaker', 'speaker', 'speaker'].sort(),
    );
    for (const p of manifest.processes) {
      expect(await alive(p.pid), `${p.program} on ${p.host}`).toBe(true);
      const host = manifest.hosts.find((h) => h.name === p.host)!;
      expect((await sh(['ip', 'netns', 'identify', String(p.pid)])).trim()).toBe(host.namespace);
    }

    // The manifest describes the lab as it is: a client reaches every node and the service address at
    // the addresses and MAC listed, and an announcer answers for the service.
    const client = manifest.hosts.find((h) => h.kind === 'client')!;
    for (const node of manifest.hosts.filter((h) => h.kind === 'lblab-node')) {
      const [address] = node.interfaces[0]!.addresses[0]!.split('/');
      await sh(['ip', 'netns', 'exec', client.namespace, 'ping', '-c', '1', '-W', '2', address!]);
      const neigh = await sh(['ip', '-n', client.namespace, 'neigh', 'show', address!]);
      expect(neigh).toContain(node.interfaces[0]!.mac);
    }
    const [service] = manifest.services;
    expect(service!.announcedBy.length).toBe(1);
    await sh(['ip', 'netns', 'exec', client.namespace, 'ping', '-c', '1', '-W', '2', service!.addresses[0]!]);

    // The reaper at the start of other runs (and `lab clean --dead-only`) leaves a kept lab alone,
    // although the process that built it is gone.
    const reaper = capture();
    expect(await clean(true, reaper.out)).toBe(exitCodes.ok);
    expect((await namespacesOf(manifest.runId)).sort()).toEqual([...namespaces].sort());
    for (const p of manifest.processes) expect(await alive(p.pid)).toBe(true);

    const removal = capture();
    // The one kept lab is the default of `lab down`.
    expect(await down(undefined, removal.out), removal.stderr.join('\n')).toBe(exitCodes.ok);
    expect(await namespacesOf(manifest.runId)).toEqual([]);
    const gone = async () =>
      (await Promise.all(manifest.processes.map((p) => alive(p.pid)))).every((a) => !a);
    expect(await until(gone, 5000)).toBe(true);
    await expect(stat(manifest.directory)).rejects.toThrow(/ENOENT/);
    expect(await readRun(manifest.runId)).toBeUndefined();

    const again = capture();
    expect(await down(manifest.runId, again.out)).toBe(exitCodes.error);
    expect(again.stderr.join('\n')).toContain(`no lab run "${manifest.runId}"`);
  }, 60_000);

  it('keeps a lab with a peer on the nodes (keepalived) until `lab down` ends its daemons by PID', async () => {
    const result = await runLblab(
      'lab',
      'up',
      '--backend',
      'netns',
      '--topology',
      topology,
      '--peer',
      'keepalived',
      '--json',
    );
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(result.stdout) as Manifest;
    runs.push(manifest.runId);
    // keepalived instead of lblab speaker: parent and VRRP child on each node, both kept past `lab up`.
    expect(manifest.processes.filter((p) => p.program === 'speaker')).toEqual([]);
    const vrrp = manifest.processes.filter((p) => p.program === 'keepalived');
    expect(vrrp.map((p) => p.host).sort()).toEqual(['n1', 'n1', 'n2', 'n2', 'n3', 'n3']);
    for (const p of vrrp) expect(await alive(p.pid), `keepalived on ${p.host}`).toBe(true);
    // The VRRP master holds the address, and a client reaches it there.
    const [service] = manifest.services;
    expect(service!.announcedBy.length).toBe(1);
    const client = manifest.hosts.find((h) => h.kind === 'client')!;
    await sh(['ip', 'netns', 'exec', client.namespace, 'ping', '-c', '1', '-W', '2', service!.addresses[0]!]);

    const removal = capture();
    expect(await down(manifest.runId, removal.out), removal.stderr.join('\n')).toBe(exitCodes.ok);
    expect(await namespacesOf(manifest.runId)).toEqual([]);
    const gone = async () => (await Promise.all(vrrp.map((p) => alive(p.pid)))).every((a) => !a);
    expect(await until(gone, 5000)).toBe(true);
    // keepalived's work dirs (config, pid files, logs) go with the lab.
    for (const p of vrrp) await expect(stat(p.log)).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('refuses a peer the backend cannot run, before building anything', async () => {
    const before = (await labNamespaces()).sort();
    const refused = capture();
    const options = { backend: 'netns', seed: '1', json: true, topology, peer: 'bird' };
    expect(await up(options, refused.out)).toBe(exitCodes.error);
    expect(refused.stderr.join('\n')).toContain(
      'the netns backend cannot run peer "bird"; it runs keepalived, frr, gobgp',
    );
    expect((await labNamespaces()).sort()).toEqual(before);
  });

  it('reaps a `lab up` killed with SIGKILL half-way: namespaces, processes and its directory', async () => {
    const before = new Set(await labNamespaces());
    const upper = startLblab('lab', 'up', '--backend', 'netns', '--topology', topology);
    // Half-way: the first node's echo server runs, the rest of the lab is still being built.
    let runId: string | undefined;
    const halfway = await until(async () => {
      const n1 = (await labNamespaces()).find((ns) => !before.has(ns) && ns.endsWith('-n1'));
      if (!n1) return false;
      runId = runIdOf(n1);
      return (await programsIn(n1)).some((p) => p.cmdline.includes('echo-server-main'));
    }, 20_000);
    expect(halfway, upper.output()).toBe(true);
    runs.push(runId!);
    upper.kill('SIGKILL');
    await new Promise((r) => upper.once('exit', r));
    // The echo server outlives its builder: the lab is left half-built.
    const orphans = (await programsIn(`lblab-${runId}-n1`)).map((p) => p.pid);
    expect(orphans.length).toBeGreaterThan(0);
    expect(await runDirsOf(runId!)).not.toEqual([]);

    const reaper = capture();
    expect(await clean(true, reaper.out)).toBe(exitCodes.ok);
    expect(await namespacesOf(runId!)).toEqual([]);
    expect(await runDirsOf(runId!)).toEqual([]);
    expect(await readRun(runId!)).toBeUndefined();
    const gone = async () => (await Promise.all(orphans.map((p) => alive(p)))).every((a) => !a);
    expect(await until(gone, 5000)).toBe(true);
  }, 60_000);

  it('fails with a clear message and builds nothing for a missing topology or a machine without prerequisites', async () => {
    const before = (await labNamespaces()).sort();
    const missingFile = capture();
    const options = { backend: 'netns', seed: '1', json: true };
    expect(await up({ ...options, topology: 'topologies/no-such-topology.yaml' }, missingFile.out)).toBe(
      exitCodes.error,
    );
    expect(missingFile.stderr.join('\n')).toMatch(/no-such-topology\.yaml.*cannot read the file/);
    expect(missingFile.stdout).toEqual([]);

    // Without iproute2 and nftables on the PATH the machine cannot run the lab, and `up` says what is missing.
    const path = process.env['PATH'];
    const noTools = capture();
    process.env['PATH'] = '/nonexistent';
    try {
      expect(await up({ ...options, topology }, noTools.out)).toBe(exitCodes.error);
    } finally {
      process.env['PATH'] = path;
    }
    expect(noTools.stderr.join('\n')).toMatch(/cannot run here; missing: the ip command .*the nft command/);
    expect(noTools.stdout).toEqual([]);
    expect((await labNamespaces()).sort()).toEqual(before);
  }, 30_000);
});
