import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Netns } from './namespace.ts';
import { lines } from './program-output.ts';

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
  const keep = (line: string) => child.log.push(line);
  if (child.stdout) lines(child.stdout, keep);
  if (child.stderr) lines(child.stderr, keep);
  return child;
}
