/** `lblab lab ...`: lifecycle of lab runs. */
import type { Command } from 'commander';
import { endKeptProcesses, labNamespaces, sweepLeftovers } from '../../backends/netns/sweep.ts';
import { netnsPrerequisites } from '../../backends/netns/prerequisites.ts';
import { nodePeers, upNetnsLab } from '../../backends/netns/netns-backend.ts';
import { upDockerLab } from '../../backends/docker/docker-backend.ts';
import type { NetnsRunningLab } from '../../backends/netns/netns-running-lab.ts';
import { runIdOf } from '../../backends/netns/names.ts';
import { listRuns, readRun } from '../../backends/netns/run-registry.ts';
import type { Topology } from '../../model/topology.ts';
import { formatIssue } from '../../../core/config/index.ts';
import { EmulatedLab } from '../../backends/emulated/emulated-lab.ts';
import { newRunId } from '../../runner/run-id.ts';
import { readTopology } from '../../model/index.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';
import { keepLab, printManifest } from './kept-lab.ts';
import { dockerRunExists, sweepDockerRuns } from './lab-docker.ts';
import { kindRunExists, sweepKindRuns, upKind } from './lab-kind.ts';

export function registerLabCommands(program: Command): void {
  const lab = program
    .command('lab')
    .description('lab lifecycle: bring a topology up, take a kept lab down, clean up what runs left');
  lab
    .command('up')
    .description(
      'build a topology and print its manifest (hosts, namespaces, interfaces, addresses, MACs, services, ' +
        'announcers); with --backend netns, docker or kind the lab keeps running until `lblab lab down --run-id RUN_ID`',
    )
    .requiredOption('--topology <file>', 'topology YAML')
    .option(
      '--backend <name>',
      'emulated (lives only while the command runs), netns (namespaces on this machine, needs root; ' +
        'left running for `ip netns exec lblab-<run>-<host> ...`) or docker (containers and networks, ' +
        'needs root and a Docker engine; left running for `docker exec lblab-<run>-<host> ...`) or kind (a ' +
        "kind cluster on a network with the topology's subnets, needs kind and Docker; prints its kubeconfig)",
      'emulated',
    )
    .option('--seed <n>', 'seed of the emulated network', '1')
    .option(
      '--peer <name>',
      'netns, docker: run this peer on the nodes instead of lblab speaker (keepalived, frr or gobgp), to poke at it',
    )
    .option('--json', 'print the manifest as JSON', false)
    .action(async (opts: UpOptions) => {
      process.exitCode = await up(opts, processOutput);
    });
  lab
    .command('down')
    .description(
      'remove a lab that `lab up` left running (its processes, by PID, its namespaces or containers and ' +
        'networks, its temporary directory)',
    )
    .option('--run-id <id>', 'the run id `lab up` printed (default: the one kept lab, if there is only one)')
    .action(async (opts: { runId?: string }) => {
      process.exitCode = await down(opts.runId, processOutput);
    });
  lab
    .command('clean')
    .description(
      'remove every lab namespace (lblab-*), every container and network of a docker lab (by their ' +
        'io.lblab.run label) and every kind cluster lblab-<run id> with its network, ending the processes ' +
        'in them, including live runs and labs kept by `lab up`; images stay',
    )
    .option(
      '--dead-only',
      'only runs whose runner process is gone, not kept labs (what the reaper does at start)',
      false,
    )
    .action(async (opts: { deadOnly: boolean }) => {
      process.exitCode = await clean(opts.deadOnly, processOutput);
    });
}

type UpOptions = { topology: string; backend: string; seed: string; json: boolean; peer?: string };

export async function up(o: UpOptions, out: Output): Promise<number> {
  if (!['emulated', 'netns', 'docker', 'kind'].includes(o.backend)) {
    out.stderr(
      `lblab lab up: no backend ${JSON.stringify(o.backend)}; use --backend emulated, netns, docker or kind`,
    );
    return exitCodes.error;
  }
  const peers = o.backend === 'emulated' || o.backend === 'kind' ? [] : [...nodePeers.keys()];
  if (o.peer !== undefined && !peers.includes(o.peer)) {
    out.stderr(
      `lblab lab up: the ${o.backend} backend cannot run peer ${JSON.stringify(o.peer)}` +
        (peers.length > 0 ? `; it runs ${peers.join(', ')}` : ''),
    );
    return exitCodes.error;
  }
  const read = await readTopology(o.topology);
  if (!read.ok) {
    for (const e of read.errors) out.stderr(formatIssue(e));
    return exitCodes.error;
  }
  if (o.backend === 'kind') return upKind(read.topology, o, out);
  if (o.backend !== 'emulated') return upKept(read.topology, o, out);
  const runId = newRunId();
  const lab = await EmulatedLab.create(read.topology, {
    seed: Number(o.seed),
    runId,
    timeline: () => undefined,
  });
  // Let membership settle and the election run before reporting who announces what.
  await lab.drive(lab.sleep(3000));
  const manifest = { runId, backend: 'emulated', seed: Number(o.seed), ...(await lab.manifest()) };
  await lab.down();
  printManifest(manifest, o.json, out);
  out.stderr(
    'lblab lab up: the emulated lab lives inside this process only; it is gone now that the manifest is printed',
  );
  return exitCodes.ok;
}

/** How long `lab up` waits for every service to have an announcer before printing the manifest anyway. */
const settleMs = 15_000;

/**
 * Builds the lab with detached processes, waits until the speakers announce every service, marks the run
 * kept (so the reaper at the start of other runs leaves it alone) and prints the manifest. Whatever fails
 * before the run is kept is torn down again.
 */
async function upKept(topology: Topology, o: UpOptions, out: Output): Promise<number> {
  const runId = newRunId();
  const upLab = o.backend === 'docker' ? upDockerLab : upNetnsLab;
  return keepLab(
    { runId, backend: o.backend, json: o.json },
    out,
    () =>
      upLab(topology, {
        seed: Number(o.seed),
        runId,
        detached: true,
        ...(o.peer !== undefined && { sut: o.peer }),
        timeline: (e) => out.stderr(`lblab lab up: ${e.source}: ${e.message}`),
      }),
    async (lab: NetnsRunningLab) => {
      let manifest = await lab.manifest();
      const started = Date.now();
      while (!everyServiceAnnounced(manifest) && Date.now() - started < settleMs) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        manifest = await lab.manifest();
      }
      const processes = (manifest['processes'] ?? []) as { pid: number }[];
      const enter = o.backend === 'docker' ? 'docker exec' : 'ip netns exec';
      return {
        manifest,
        pids: processes.map((p) => p.pid),
        warnings: everyServiceAnnounced(manifest)
          ? []
          : [`lblab lab up: not every service had an announcer within ${settleMs / 1000} s`],
        label: 'lab',
        example: `${enter} lblab-${runId}-<host> ping ...`,
      };
    },
  );
}

function everyServiceAnnounced(manifest: Record<string, unknown>): boolean {
  const services = (manifest['services'] ?? []) as { announcedBy: string[] }[];
  return services.every((s) => s.announcedBy.length > 0);
}

/** Removes exactly one run: its recorded processes, then whatever else runs in its namespaces, then those. */
export async function down(given: string | undefined, out: Output): Promise<number> {
  let runId = given;
  if (runId === undefined) {
    const kept = (await listRuns()).filter((r) => r.kept !== undefined).map((r) => r.runId);
    if (kept.length !== 1) {
      out.stderr(
        kept.length === 0
          ? 'lblab lab down: no lab kept by `lab up` here (`lab clean` removes everything else)'
          : `lblab lab down: ${kept.length} labs are kept (${kept.join(', ')}): say which with --run-id`,
      );
      return exitCodes.error;
    }
    runId = kept[0]!;
  }
  const record = /^[a-z0-9]+$/.test(runId) ? await readRun(runId) : undefined;
  const namespaces = (await labNamespaces()).filter((ns) => runIdOf(ns) === runId);
  // Namespaces need root and iproute2; a docker or kind lab does not, so only a netns lab asks for them.
  if (!(await canRemoveNamespaces(namespaces, 'down', out))) return exitCodes.error;
  // The kind cluster first: its network carries the run label, and Docker keeps a network with nodes on it.
  const kind =
    /^[a-z0-9]+$/.test(runId) && (await kindRunExists(runId))
      ? await sweepKindRuns(out, 'down', { runId })
      : undefined;
  const inDocker = /^[a-z0-9]+$/.test(runId) && (await dockerRunExists(runId));
  if (!record && namespaces.length === 0 && !inDocker && !kind) {
    out.stderr(
      `lblab lab down: no lab run ${JSON.stringify(runId)} here (see \`ip netns list\`, \`docker ps\`)`,
    );
    return exitCodes.error;
  }
  const ended = await endKeptProcesses(record, namespaces);
  // The docker objects first: the netns sweep forgets the run's record, which marks it as this run's.
  const docker = inDocker ? await sweepDockerRuns(out, 'down', { runId }) : undefined;
  const swept = await sweepLeftovers({ runId });
  for (const ns of swept.namespaces) out.stdout(`removed namespace ${ns}`);
  const processes = new Set([...ended, ...swept.processes, ...(docker?.processes ?? [])]).size;
  out.stdout(
    `lblab lab down: removed run ${runId}: ${swept.namespaces.length} namespace(s), ` +
      `${docker?.containers.length ?? 0} container(s), ${(docker?.networks.length ?? 0) + (kind?.networks.length ?? 0)} network(s), ` +
      `${kind?.clusters.length ?? 0} kind cluster(s), ended ${processes} process(es)`,
  );
  return exitCodes.ok;
}

export async function clean(deadOnly: boolean, out: Output): Promise<number> {
  if (!(await canRemoveNamespaces(await labNamespaces(), 'clean', out))) return exitCodes.error;
  // kind, then Docker: their sweeps decide by the run records, which the netns sweep removes; kind first
  // because a kind network (labelled with its run) cannot go while the cluster's nodes are on it.
  const kind = await sweepKindRuns(out, 'clean', { onlyDeadRuns: deadOnly });
  const docker = await sweepDockerRuns(out, 'clean', { onlyDeadRuns: deadOnly });
  const swept = await sweepLeftovers({ onlyDeadRuns: deadOnly });
  for (const ns of swept.namespaces) out.stdout(`removed namespace ${ns}`);
  out.stdout(
    `lblab lab clean: removed ${swept.namespaces.length} namespace(s), ` +
      `${docker?.containers.length ?? 0} container(s), ${(docker?.networks.length ?? 0) + (kind?.networks.length ?? 0)} network(s), ` +
      `${kind?.clusters.length ?? 0} kind cluster(s), ended ${swept.processes.length + (docker?.processes.length ?? 0)} process(es)`,
  );
  return exitCodes.ok;
}

/** Whether the lab namespaces in `namespaces` (if any) can be removed here; says what is missing if not. */
async function canRemoveNamespaces(
  namespaces: readonly string[],
  verb: string,
  out: Output,
): Promise<boolean> {
  if (namespaces.length === 0) return true;
  const missing = await netnsPrerequisites();
  if (missing.length === 0) return true;
  out.stderr(
    `lblab lab ${verb}: cannot remove the lab namespaces ${namespaces.join(', ')} here; missing: ${missing.join('; ')}`,
  );
  return false;
}
