import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { LabCluster } from '../cluster.ts';

/**
 * Writes what every `lblab speaker` of a lab reads (speaker-process.ts): `<dir>/cluster.yaml`, the
 * cluster as `lblab controller` leaves it, and `<dir>/metallb.yaml`, the topology's configuration files.
 */
export async function writeSpeakerInputs(
  dir: string,
  cluster: LabCluster,
  configFiles: readonly string[],
): Promise<void> {
  await writeClusterFile(dir, cluster);
  const configs = await Promise.all(configFiles.map((f) => readFile(f, 'utf8')));
  await writeFile(join(dir, 'metallb.yaml'), configs.join('\n---\n'));
}

/** Rewrites `<dir>/cluster.yaml` (the speakers watch it), e.g. after endpoints moved. */
export async function writeClusterFile(dir: string, cluster: LabCluster): Promise<void> {
  await writeFile(join(dir, 'cluster.yaml'), clusterYaml(cluster));
}

/** The cluster as `lblab controller` leaves it: one YAML document per object. */
function clusterYaml({ snapshot }: LabCluster): string {
  const { namespaces, nodes, services, endpointSlices } = snapshot;
  return [...namespaces, ...nodes, ...services, ...endpointSlices].map((o) => stringify(o)).join('---\n');
}
