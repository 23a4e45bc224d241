import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Netns } from './namespace.ts';

/** By absolute path, so the speaker starts whatever the caller's working directory. */
const lblabCli = fileURLToPath(new URL('../../cli/lblab.mjs', import.meta.url));

export type SpeakerProcess = ChildProcess & { log: string[] };

/**
 * `lblab speaker` for node `name` inside its namespace, as a user runs it, reading cluster.yaml and
 * metallb.yaml from `dir`; its output lines are kept in `log` for assertions and failure messages (unless
 * `options` sends its output elsewhere, as a detached lab does).
 */
export function spawnSpeaker(
  ns: Netns,
  name: string,
  dir: string,
  extra: readonly string[] = [],
  options: SpawnOptions = {},
): SpeakerProcess {
  const child = ns.spawn(
    [
      'node',
      lblabCli,
      'speaker',
      '--node',
      name,
      '--cluster',
      join(dir, 'cluster.yaml'),
      '--config',
      join(dir, 'metallb.yaml'),
      ...extra,
    ],
    options,
  ) as SpeakerProcess;
  child.log = [];
  const keep = (d: Buffer) => child.log.push(...d.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}
