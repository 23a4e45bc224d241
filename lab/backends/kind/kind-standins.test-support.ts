/**
 * Stand-in `kind` and `docker` executables for tests: shell scripts written to a temp dir that append
 * their argv (and KIND_EXPERIMENTAL_DOCKER_NETWORK) to a log and answer from a canned table, so the
 * backend's real execa calls can be checked for exact arguments, environment and order without kind.
 * An `nsenter` stand-in too, found through PATH (the lab runs it by name) when the test puts `dir` first.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Canned {
  /** A shell `case` pattern matched against the arguments joined by spaces, e.g. 'create cluster*'. */
  when: string;
  stdout?: string;
  stderr?: string;
  exit?: number;
}

export interface Call {
  tool: string;
  args: string[];
  /** KIND_EXPERIMENTAL_DOCKER_NETWORK as the tool saw it ('' when unset). */
  network: string;
}

export interface StandIns {
  dir: string;
  kind: string;
  docker: string;
  calls(): Promise<Call[]>;
  /**
   * The rulesets nft was given, in order: on stdin by commands ending in `-f -`, or as the file named by
   * `nft -f FILE` (read when nsenter runs, since the lab removes the file afterwards).
   */
  stdin(): Promise<string>;
  remove(): Promise<void>;
}

export async function standIns(answers: {
  kind?: Canned[];
  docker?: Canned[];
  nsenter?: Canned[];
}): Promise<StandIns> {
  const dir = await mkdtemp(join(tmpdir(), 'lblab-kind-standin-'));
  const log = join(dir, 'calls.log');
  await writeFile(log, '');
  const write = async (tool: string, canned: Canned[]) => {
    const file = join(dir, tool);
    await writeFile(file, script(tool, log, canned));
    await chmod(file, 0o755);
    return file;
  };
  const kind = await write('kind', answers.kind ?? []);
  const docker = await write('docker', answers.docker ?? []);
  if (answers.nsenter) await write('nsenter', answers.nsenter);
  return {
    dir,
    kind,
    docker,
    calls: async () =>
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => {
          const [tool, ...rest] = l.split('\t');
          const network = rest.pop()!.replace(/^ENV=/, '');
          return { tool: tool!, args: rest, network };
        }),
    stdin: () => readFile(join(dir, 'stdin.log'), 'utf8').catch(() => ''),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function script(tool: string, log: string, canned: Canned[]): string {
  const cases = canned.map(
    (c) =>
      `  ${c.when.replace(/[^*]+/g, quote)})` +
      ` printf '%s' ${quote(c.stdout ?? '')}; printf '%s' ${quote(c.stderr ?? '')} >&2; exit ${c.exit ?? 0};;`,
  );
  return [
    '#!/bin/sh',
    `{ printf '%s' ${quote(tool)}; for a in "$@"; do printf '\\t%s' "$a"; done; ` +
      `printf '\\tENV=%s\\n' "\${KIND_EXPERIMENTAL_DOCKER_NETWORK-}"; } >> ${quote(log)}`,
    'case "$*" in',
    `  *' -f -') cat >> ${quote(join(log, '..', 'stdin.log'))};;`,
    `  *' nft -f '*) for last; do :; done; cat "$last" >> ${quote(join(log, '..', 'stdin.log'))};;`,
    'esac',
    'case "$*" in',
    ...cases,
    'esac',
    '',
  ].join('\n');
}
