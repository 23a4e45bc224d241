import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Netns } from './namespace.ts';

export type SpeakerProcess = ChildProcess & { log: string[] };

/**
 * `lblab speaker` for node `name` inside its namespace, as a user runs it, reading cluster.yaml and
 * metallb.yaml from `dir`; its output lines are kept in `log` for assertions and failure messages.
 */
export function spawnSpeaker(
  ns: Netns,
  name: string,
  dir: string,
  extra: readonly string[] = [],
): SpeakerProcess {
  const child = ns.spawn([
    'node',
    'lab/cli/lblab.mjs',
    'speaker',
    '--node',
    name,
    '--cluster',
    join(dir, 'cluster.yaml'),
    '--config',
    join(dir, 'metallb.yaml'),
    ...extra,
  ]) as SpeakerProcess;
  child.log = [];
  const keep = (d: Buffer) => child.log.push(...d.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return child;
}
