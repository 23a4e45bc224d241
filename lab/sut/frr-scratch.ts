import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * FRR daemons create a scratch dir /var/tmp/frr/<daemon>.<pid> (the path is hard-wired in libfrr) and
 * remove it only when they exit cleanly; after SIGKILL the lab removes it.
 */
export const frrScratchRoot = '/var/tmp/frr';

export async function removeFrrScratch(daemon: string, pid: number): Promise<void> {
  if (!/^[a-z]+$/.test(daemon) || !Number.isInteger(pid) || pid <= 0) return;
  await rm(join(frrScratchRoot, `${daemon}.${pid}`), { recursive: true, force: true });
}
